package natstest

import (
	"fmt"
	"os"
	"testing"
)

func TestServeForManualRuns(t *testing.T) {
	if os.Getenv("NATSTEST_SERVE") == "" {
		t.Skip()
	}
	s := Start(t, Options{})
	fmt.Println(s.URL())
	os.WriteFile(os.Getenv("NATSTEST_SERVE"), []byte(s.URL()), 0o644)
	select {}
}
