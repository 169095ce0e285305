package memcap

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/testrace"
)

// helperEnv names what the test binary does when it runs as a child of
// these tests: the cap is set on a process of its own, never the test's.
const helperEnv = "MEMCAP_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "allocate":
		Cap(256 << 20) // above the runtime's own mappings (about 80 MiB)
		var keep [][]byte
		for range 128 { // 512 MiB, each page touched
			b := make([]byte, 4<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		os.Stdout.WriteString("allocated past the cap\n")
		runtime.KeepAlive(keep)
		os.Exit(0)
	case "child":
		Cap(256 << 20)
		show := func() string {
			var out bytes.Buffer
			cmd := exec.Command("sh", "-c", "ulimit -d")
			cmd.Stdout = &out
			if err := Lifted(cmd.Start); err != nil {
				return err.Error()
			}
			_ = cmd.Wait()
			return strings.TrimSpace(out.String())
		}
		os.Stdout.WriteString(show() + "\n")
		var out bytes.Buffer
		cmd := exec.Command("sh", "-c", "ulimit -d")
		cmd.Stdout = &out
		_ = cmd.Run() // started under the cap
		os.Stdout.WriteString(strings.TrimSpace(out.String()) + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(t *testing.T, mode string) (stdout, stderr string, code int) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the data limit caps the Go heap on Linux only")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// Past the cap the runtime ends the process itself, exit 2, which every
// CLI takes as a block; the kernel never has to kill it. Which of the
// runtime's allocations meets the cap first depends on the machine: the
// heap ("runtime: out of memory") or its metadata ("out of memory
// allocating heap arena metadata").
func TestCapEndsTheProcessWithExit2(t *testing.T) {
	testrace.Skip(t) // the race detector's shadow memory counts as data too
	stdout, stderr, code := helper(t, "allocate")
	if code != 2 || !strings.HasPrefix(stderr, "fatal error: ") || !strings.Contains(firstLine(stderr), "out of memory") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %.80q; want exit 2 and the runtime's out of memory", code, stdout, stderr)
	}
}

// A child started through Lifted has the limit the process had before the
// cap; one started otherwise inherits the cap (256 MiB, ulimit's 262144).
func TestLiftedChildHasTheLimitOfBefore(t *testing.T) {
	testrace.Skip(t)
	stdout, stderr, code := helper(t, "child")
	want := "unlimited"
	if before, _ := soft(); before != ^uint64(0) {
		want = strconv.FormatUint(before>>10, 10)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %.200q", code, stdout, stderr)
	}
	if lines[0] != want {
		t.Errorf("a child started through Lifted has the data limit %s, want %s", lines[0], want)
	}
	if lines[1] != "262144" {
		t.Errorf("a child started under the cap has the data limit %s, want 262144 (KiB)", lines[1])
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
