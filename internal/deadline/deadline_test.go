package deadline

import (
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"
)

// Before Done is asked, the deadline is the clock's: Err turns to
// DeadlineExceeded once it passes, and Done, asked then, is closed.
func TestErrFollowsTheClockUnarmed(t *testing.T) {
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	now = func() time.Time { return clock }
	defer func() { now = time.Now }()
	ctx, cancel := WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := ctx.Err(); err != nil {
		t.Fatalf("before the deadline: %v", err)
	}
	clock = clock.Add(time.Second)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("after the deadline: %v", ctx.Err())
	}
	select {
	case <-ctx.Done():
	default:
		t.Error("Done asked after the deadline is not closed")
	}
	if c := ctx.(*lazy); c.armed.Load() == nil {
		t.Error("Done did not arm the context")
	}
}

// Done armed: it closes when the deadline passes, as WithTimeout's.
func TestDoneClosesAtTheDeadline(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done never closed")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("Err %v", ctx.Err())
	}
}

// Unarmed and armed contexts alike: cancel makes Err Canceled and closes
// Done; a parent's cancel reaches the child; the earlier deadline is the
// one given; values are the parent's.
func TestCancelParentAndDeadline(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), time.Hour)
	if ctx.(*lazy).armed.Load() != nil {
		t.Fatal("armed before anyone asked")
	}
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("unarmed, canceled: %v", ctx.Err())
	}
	<-ctx.Done()

	ctx, cancel = WithTimeout(context.Background(), time.Hour)
	_ = ctx.Done()
	cancel()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("armed, canceled: %v", ctx.Err())
	}

	type key struct{}
	parent, stop := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	ctx, cancel = WithTimeout(parent, time.Hour)
	defer cancel()
	if ctx.Value(key{}) != "v" {
		t.Error("the parent's value is lost")
	}
	stop()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("after the parent's cancel, unarmed: %v", ctx.Err())
	}
	<-ctx.Done()

	early, cancelEarly := context.WithTimeout(context.Background(), time.Minute)
	defer cancelEarly()
	ctx, cancel = WithTimeout(early, time.Hour)
	defer cancel()
	want, _ := early.Deadline()
	if got, ok := ctx.Deadline(); !ok || !got.Equal(want) {
		t.Errorf("Deadline %v %v, want the parent's earlier %v", got, ok, want)
	}
}

// Err, once it has said the deadline passed, says so ever after: after the
// cancel every caller defers, and after the parent's cancel.
func TestErrStaysOnceSeen(t *testing.T) {
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	now = func() time.Time { return clock }
	defer func() { now = time.Now }()

	ctx, cancel := WithTimeout(context.Background(), time.Second)
	clock = clock.Add(time.Second)
	if first := ctx.Err(); !errors.Is(first, context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v", first)
	}
	cancel()
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("after cancel: %v, want DeadlineExceeded still", err)
	}

	ctx, cancel = WithTimeout(context.Background(), time.Second)
	clock = clock.Add(time.Second)
	cancel() // unarmed, past the deadline, Err never asked
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("canceled past the deadline: %v, want DeadlineExceeded", err)
	}

	parent, stop := context.WithCancel(context.Background())
	ctx, cancel = WithTimeout(parent, time.Second)
	defer cancel()
	clock = clock.Add(time.Second)
	first := ctx.Err()
	stop()
	if err := ctx.Err(); err != first {
		t.Errorf("Err %v, then after the parent's cancel %v", first, err)
	}
}

// A child process started with the context is killed at the deadline, and
// contexts made from it end with it.
func TestChildKilledAtDeadline(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	sub, subCancel := context.WithTimeout(ctx, time.Hour)
	defer subCancel()
	fired := make(chan struct{})
	context.AfterFunc(ctx, func() { close(fired) })
	if err := exec.CommandContext(ctx, "sleep", "30").Run(); err == nil {
		t.Fatal("sleep 30 was not killed")
	}
	<-fired
	<-sub.Done()
	if !errors.Is(sub.Err(), context.DeadlineExceeded) {
		t.Errorf("a context made from it: %v", sub.Err())
	}
}
