package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/massgen/massgen-hook/internal/nats/natstest"

	"github.com/massgen/massgen-hook/confine"
)

var update = flag.Bool("update", false, "rewrite the golden files of testscript scripts")

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestScripts runs every testdata/script/*.txtar end to end against the real
// binary, then type-checks every output the scripts marked with `sdkcheck`
// against Claude Code's own SDK types.
func TestScripts(t *testing.T) {
	t.Parallel() // each script runs in a directory of its own
	bin := buildScriptHook(t)
	outputs := &sdkOutputs{dir: t.TempDir()}
	t.Run("script", func(t *testing.T) {
		testscript.Run(t, testscript.Params{
			Dir:                 filepath.Join("..", "..", "testdata", "script"),
			RequireExplicitExec: true,
			UpdateScripts:       *update,
			Setup: func(env *testscript.Env) error {
				// `exec massgen-hook` finds the script build first.
				env.Setenv("PATH", filepath.Dir(bin)+string(filepath.ListSeparator)+env.Getenv("PATH"))
				env.Setenv("TZ", "UTC")
				env.Setenv("MASSGEN_HOOK_NOW", "2026-11-20T10:00:00Z")
				env.Setenv("CLAUDE_PROJECT_DIR", env.WorkDir)
				env.Setenv("HOME", filepath.Join(env.WorkDir, ".home"))
				env.Setenv(statusFileEnv, filepath.Join(env.WorkDir, ".home", "exit-status"))
				env.Setenv("NATS_DOWN", "nats://127.0.0.1:1")
				// Scripts see the same machine everywhere: no shell
				// confinement unless a script asks for bubblewrap.
				env.Setenv("MASSGEN_HOOK_BWRAP", "none")
				return os.MkdirAll(filepath.Join(env.WorkDir, ".home"), 0o755)
			},
			Condition: func(cond string) (bool, error) {
				switch cond {
				case "root":
					return os.Geteuid() == 0, nil
				case "bwrap":
					return bwrapWorks(), nil
				}
				return false, fmt.Errorf("unknown condition %q", cond)
			},
			Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
				"sdkcheck":   outputs.record,
				"bigevent":   bigEvent,
				"bigfile":    bigFile,
				"bigcommand": bigCommand,
				"deepevent":  deepEvent,
				"status":     exitStatus,
				"fifoheld":   fifoHeld,
				"natsserver": natsServer,
			},
		})
	})
	outputs.typecheck(t)
}

// sdkOutputs collects hook outputs marked by `sdkcheck EVENT` in scripts.
type sdkOutputs struct {
	dir   string
	mu    sync.Mutex
	specs []string
}

// record is the script command `sdkcheck EVENT`: the last command's stdout is
// a hook output for EVENT, to be type-checked once all scripts have run.
func (o *sdkOutputs) record(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sdkcheck EVENT")
	}
	out := ts.ReadFile("stdout")
	o.mu.Lock()
	defer o.mu.Unlock()
	path := filepath.Join(o.dir, fmt.Sprintf("out%04d.json", len(o.specs)))
	ts.Check(os.WriteFile(path, []byte(out), 0o644))
	o.specs = append(o.specs, args[0]+":"+path)
}

func (o *sdkOutputs) typecheck(t *testing.T) {
	if len(o.specs) == 0 {
		return
	}
	runSDKTypecheck(t, o.specs)
}

// bigEvent is the script command `bigevent EVENT MIB FILE`: it writes an
// event whose tool_response holds MIB mebibytes, with a field after it, so a
// hook that reads only the first chunk of stdin is caught.
func bigEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: bigevent EVENT MIB FILE")
	}
	mib, err := strconv.Atoi(args[1])
	ts.Check(err)
	var b strings.Builder
	fmt.Fprintf(&b, `{"hook_event_name":%q,"session_id":"big","tool_name":"Read","tool_input":{"file_path":"big.txt"},"tool_response":{"content":"`, args[0])
	chunk := strings.Repeat("0123456789abcdef", 64)
	for range mib * 1024 {
		b.WriteString(chunk)
	}
	b.WriteString(`"},"tool_use_id":"toolu_after_the_big_field"}`)
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o644))
}

// bigCommand is the script command `bigcommand KIB FILE [gemini]`: it
// writes to FILE a Bash PreToolUse event (Gemini CLI's BeforeTool
// run_shell_command with gemini) whose command is KIB kibibytes of
// "echo a; ", which the guards judge in time growing with its length: at
// a few hundred KiB, far more than a millisecond.
func bigCommand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 || (len(args) == 3 && args[2] != "gemini") {
		ts.Fatalf("usage: bigcommand KIB FILE [gemini]")
	}
	kib, err := strconv.Atoi(args[0])
	ts.Check(err)
	command := strings.Repeat("echo a; ", kib*1024/8)
	event := fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"big","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"toolu_big"}`, command)
	if len(args) == 3 {
		event = fmt.Sprintf(`{"session_id":"big","cwd":%q,"hook_event_name":"BeforeTool","timestamp":"2025-12-01T10:30:00Z","tool_name":"run_shell_command","tool_input":{"command":%q}}`, ts.Getenv("WORK"), command)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(event), 0o644))
}

// bigFile is the script command `bigfile FILE MIB`: it writes to FILE MIB
// MiB of text lines, the last "the last line of a big file".
func bigFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigfile FILE MIB")
	}
	mib, err := strconv.Atoi(args[1])
	ts.Check(err)
	line := strings.Repeat("x", 63) + "\n"
	body := strings.Repeat(line, mib<<20/len(line)-1) + "the last line of a big file\n"
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(body), 0o644))
}

// deepEvent is the script command `deepevent EVENT FIELD DEPTH FILE`: it
// writes to FILE a Read event of EVENT whose FIELD (tool_input or
// tool_response) nests arrays DEPTH levels deep.
func deepEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: deepevent EVENT FIELD DEPTH FILE")
	}
	depth, err := strconv.Atoi(args[2])
	ts.Check(err)
	deep := `{"a":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
	event := fmt.Sprintf(`{"hook_event_name":%q,"session_id":"deep","tool_name":"Read","tool_input":{"file_path":"a.txt"},%q:%s}`, args[0], args[1], deep)
	ts.Check(os.WriteFile(ts.MkAbs(args[3]), []byte(event), 0o644))
}

// natsServer is the script command `natsserver start|stop`: start runs a
// nats-server with JetStream (a real one, in the test process) and sets
// $NATS_URL to it; stop shuts it down (its store stays, for a start again,
// on another port). A closed port for a broker that is down: $NATS_DOWN.
func natsServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: natsserver start|stop")
	}
	switch args[0] {
	case "start":
		url, stop, err := natstest.Serve(filepath.Join(ts.Getenv("WORK"), ".nats-store"))
		ts.Check(err)
		ts.Setenv("NATS_URL", url)
		ts.Setenv("NATS_STOP", fmt.Sprint(len(natsStops)))
		natsMu.Lock()
		natsStops = append(natsStops, stop)
		natsMu.Unlock()
		ts.Defer(stop)
	case "stop":
		natsMu.Lock()
		var i int
		fmt.Sscan(ts.Getenv("NATS_STOP"), &i)
		stop := natsStops[i]
		natsMu.Unlock()
		stop()
	default:
		ts.Fatalf("usage: natsserver start|stop")
	}
}

var (
	natsMu    sync.Mutex
	natsStops []func()
)

// fifoHeld is the script command `[!] fifoheld FIFO`: some process holds
// FIFO open for reading. It asks without waiting: a non-blocking open for
// writing fails with ENXIO exactly when no process has the fifo open to
// read. A handler's child that holds a fifo shows, the moment its hook has
// answered, whether it outlived the kill, with no sleep past its lifetime.
func fifoHeld(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: fifoheld FIFO")
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|syscall.O_NONBLOCK, 0)
	held := err == nil
	if err == nil {
		ts.Check(f.Close())
	} else if !errors.Is(err, syscall.ENXIO) {
		ts.Fatalf("fifoheld: %v", err)
	}
	switch {
	case held && neg:
		ts.Fatalf("%s is still held open by a process", args[0])
	case !held && !neg:
		ts.Fatalf("no process holds %s open", args[0])
	}
}

// statusFileEnv names the file where massgen-hook as the scripts run it
// (internal/scripthook, which reads the same name) leaves its exit code for
// the `status` command.
const statusFileEnv = "MASSGEN_HOOK_TEST_STATUS_FILE"

// exitStatus is the script command `status N`: the previous exec of
// massgen-hook exited with exactly N. testscript alone only tells zero from
// non-zero, and for a hook 1 (proceed) and 2 (block) mean opposite things.
func exitStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	file := ts.Getenv(statusFileEnv)
	got, err := os.ReadFile(file)
	if err != nil {
		ts.Fatalf("status: no massgen-hook exec since the last status check")
	}
	ts.Check(os.Remove(file))
	if string(got) != args[0] {
		ts.Fatalf("exit status %s, want %s", got, args[0])
	}
}

// bwrapWorks reports whether bubblewrap can confine commands here; CI
// (MASSGEN_HOOK_TEST_BWRAP=required) fails rather than skip without it.
func bwrapWorks() bool {
	a := confine.Probe(confine.Lookup(func(string) string { return "" }))
	if !a.OK && os.Getenv("MASSGEN_HOOK_TEST_BWRAP") == "required" {
		panic("bubblewrap is required here: " + a.Reason)
	}
	return a.OK
}
