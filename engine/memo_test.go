package engine

import "testing"

func TestMemoComputesOncePerKey(t *testing.T) {
	var c Call
	runs := 0
	compute := func() any { runs++; return runs }
	if got := c.Memo("a", compute); got != 1 {
		t.Fatalf("first Memo = %v, want 1", got)
	}
	if got := c.Memo("a", compute); got != 1 || runs != 1 {
		t.Errorf("second Memo of the same key = %v after %d runs, want 1 after 1", got, runs)
	}
	if got := c.Memo("b", compute); got != 2 {
		t.Errorf("another key = %v, want a value of its own (2)", got)
	}
	var other Call
	if got := other.Memo("a", compute); got != 3 {
		t.Errorf("another call = %v, want it computed afresh (3)", got)
	}
}
