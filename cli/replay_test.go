package cli

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/corpus"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

func TestReplayEnviron(t *testing.T) {
	in := []string{"PATH=/bin", "MASSGEN_HOOK_NOW=2030-01-01T00:00:00Z", "MASSGEN_AGENT_ID=live", "MASSGEN_HOOK_RECORD=/tmp/c",
		"CLAUDE_PROJECT_DIR=/elsewhere", "MASSGEN_ORCHESTRATOR_ID=o1"}
	rec := &corpus.Recording{RecordedAt: "2026-11-20T10:00:00+01:00", Agent: "reviewer"}
	got := replayEnviron(in, "/p", rec)
	want := []string{"PATH=/bin", "MASSGEN_ORCHESTRATOR_ID=o1", "MASSGEN_HOOK_NOW=2026-11-20T10:00:00+01:00", "CLAUDE_PROJECT_DIR=/p", "MASSGEN_AGENT_ID=reviewer"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// The main thread: no agent variable at all, so the event's own
	// agent_type (empty, or it would have been recorded) decides.
	rec.Agent = ""
	for _, kv := range replayEnviron(in, "/p", rec) {
		if kv == "MASSGEN_AGENT_ID=live" || kv == "MASSGEN_AGENT_ID=" {
			t.Errorf("main thread replayed with %s", kv)
		}
	}
}

func TestResultLine(t *testing.T) {
	tests := []struct {
		r    corpus.Result
		want string
	}{
		{corpus.Result{File: "a.json", Event: "Stop", Verdict: corpus.Verdict{Decision: "none"}}, "a.json: Stop → none (exit 0)"},
		{corpus.Result{File: "b.json", Event: "PreToolUse", Tool: "Bash", Agent: "r", Verdict: corpus.Verdict{Decision: "deny", Reason: "no"}},
			"b.json: PreToolUse Bash (agent r) → deny (exit 0): no"},
		{corpus.Result{File: "c.json", Event: "PostToolUse", Tool: "Read", Verdict: corpus.Verdict{Decision: "error", Reason: "x", Exit: 1}},
			"c.json: PostToolUse Read → error (exit 1): x"},
	}
	for _, tt := range tests {
		if got := resultLine(tt.r); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if got := countList(map[string]int{"none": 3, "deny": 1, "block": 1}); got != ": 3 none, 1 block, 1 deny" {
		t.Errorf("countList %q", got)
	}
	if got := countList(nil); got != "" {
		t.Errorf("countList(nil) %q", got)
	}
}

func TestHookSubcommands(t *testing.T) {
	got := hookSubcommands()
	want := map[string]string{
		"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use", "PostToolUseFailure": "post-tool-use-failure",
		"SessionStart": "session-start", "SubagentStart": "subagent-start", "SubagentStop": "subagent-stop", "Stop": "stop",
		"PermissionRequest": "permission-request",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Every event that can be recorded can be replayed.
	for _, e := range config.RecordEvents {
		if _, ok := got[e]; !ok {
			t.Errorf("%s can be recorded but has no hook to replay it", e)
		}
	}
}

// A sandboxed app keeps its state in the sandbox, starts nothing and
// records nothing, even when recording is on.
func TestSandboxedApp(t *testing.T) {
	sandbox, project := t.TempDir(), t.TempDir()
	var stderr bytes.Buffer
	a := &app{stderr: &stderr, getenv: func(string) string { return "" }, now: time.Now, sandbox: sandbox}
	if got := a.stateDir(project).Path; got != sandbox {
		t.Errorf("state in %s, want %s", got, sandbox)
	}
	if err := a.detach("observe-run", "/nonexistent/job.json"); err != nil {
		t.Errorf("detach in a sandbox: %v", err)
	}
	cfg := config.Default()
	cfg.Record = config.Record{On: true, Dir: "corpus"}
	env := &hookenv.Env{Layout: scratchpad.Layout{Project: project}, Config: cfg, State: a.stateDir(project), Now: time.Now()}
	ev := &protocol.Event{HookEventName: protocol.Stop, Raw: []byte(`{"hook_event_name":"Stop"}`)}
	a.record(env, ev, protocol.Output{}, nil, false)
	if entries, _ := filepath.Glob(project + "/corpus/*"); len(entries) > 0 || stderr.Len() > 0 {
		t.Errorf("a replay recorded %v (stderr %q)", entries, stderr.String())
	}
	// The same app outside a replay records.
	a.sandbox = ""
	env.State = a.stateDir(project)
	a.record(env, ev, protocol.Output{}, nil, false)
	if entries, _ := filepath.Glob(project + "/corpus/*-Stop-*.json"); len(entries) != 1 || stderr.Len() > 0 {
		t.Errorf("recorded %v (stderr %q)", entries, stderr.String())
	}
}
