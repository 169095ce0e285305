package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A hook process answers one event and exits, so whatever massgen-hook's
// packages build during initialisation is paid on every tool call, used or
// not. Tables and compiled patterns are built on first use instead
// (internal/lazy). These budgets hold that: massgen-hook's own packages
// allocate almost nothing before main runs, and the libraries' share stays
// where it is (a new dependency with a heavy initialisation would show
// here first; docs/performance.md says what each costs).
const (
	ownInitBudget   = 4 << 10   // bytes: the dialects' event-name tables
	totalInitBudget = 192 << 10 // bytes: the runtime, the standard library and the libraries
)

func TestStartupInitialisesLittle(t *testing.T) {
	bin := buildHook(t)
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("massgen-hook version: %v\n%s", err, stderr.String())
	}
	own, total := 0, 0
	var ownLines []string
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/x/y @0.5 ms, 0.01 ms clock, 1024 bytes, 3 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		total += n
		if strings.HasPrefix(f[1], "github.com/massgen/massgen-hook/") {
			own += n
			if n > 0 {
				ownLines = append(ownLines, sc.Text())
			}
		}
	}
	if total == 0 {
		t.Fatalf("no inittrace lines read from:\n%s", stderr.String())
	}
	if own > ownInitBudget {
		t.Errorf("massgen-hook's packages allocate %d bytes at start-up, over the budget of %d: build tables on first use (internal/lazy)\n%s",
			own, ownInitBudget, strings.Join(ownLines, "\n"))
	}
	if total > totalInitBudget {
		t.Errorf("start-up allocates %d bytes, over the budget of %d: a dependency's initialisation grew", total, totalInitBudget)
	}
}
