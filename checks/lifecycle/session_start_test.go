package lifecycle

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

func testEnv(t *testing.T, git func(context.Context, string, int) (string, error)) (*hookenv.Env, *bytes.Buffer) {
	t.Helper()
	project := t.TempDir()
	coord := filepath.Join(project, ".claude", "scratchpad", "coordinator")
	if err := os.MkdirAll(coord, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(coord, "2026-11-19.md"), []byte("Delegated the parser.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes bytes.Buffer
	return &hookenv.Env{
		Layout: scratchpad.Layout{Project: project, Root: filepath.Join(project, ".claude", "scratchpad")},
		Config: config.Default(),
		Now:    time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		State:  state.Open(project),
		Notes:  &notes,
		GitLog: git,
	}, &notes
}

// TestSessionStartGitFaults: whatever git does, session start still gives the
// rest of its context; a real fault is noted on stderr, "no repository" is not.
func TestSessionStartGitFaults(t *testing.T) {
	startup := &protocol.Event{HookEventName: protocol.SessionStart, Source: "startup"}
	for _, tc := range []struct {
		name     string
		git      func(context.Context, string, int) (string, error)
		wantGit  bool
		wantNote string
	}{
		{"log", func(context.Context, string, int) (string, error) { return "abc123 first", nil }, true, ""},
		{"not a repository", func(context.Context, string, int) (string, error) { return "", hookenv.ErrNotRepo }, false, ""},
		{"git missing", func(context.Context, string, int) (string, error) { return "", exec.ErrNotFound }, false, "recent commits left out"},
		{"git hangs", func(ctx context.Context, _ string, _ int) (string, error) {
			return "", errors.New("git log did not finish in time")
		}, false, "did not finish in time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, notes := testEnv(t, tc.git)
			out, err := SessionStart(context.Background(), env, startup)
			if err != nil {
				t.Fatalf("SessionStart: %v", err)
			}
			ctx := out.HookSpecificOutput.AdditionalContext
			if !strings.Contains(ctx, "Delegated the parser.") {
				t.Errorf("coordinator scratchpad missing from context: %q", ctx)
			}
			if got := strings.Contains(ctx, "Recent commits"); got != tc.wantGit {
				t.Errorf("git section present = %v, want %v: %q", got, tc.wantGit, ctx)
			}
			if tc.wantNote == "" && notes.Len() > 0 {
				t.Errorf("unexpected note: %q", notes.String())
			}
			if tc.wantNote != "" && !strings.Contains(notes.String(), tc.wantNote) {
				t.Errorf("note %q, want it to contain %q", notes.String(), tc.wantNote)
			}
		})
	}
}

// TestGitLogOutsideRepository: without a .git above the project, git is not
// started at all (the answer is known without paying for a process).
func TestGitLogOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	if hookenv.NearestDotGit(dir) != "" {
		t.Skip("the temporary directory is inside a git repository")
	}
	t.Setenv("PATH", "") // a started git would fail with "not found", not errNotRepo
	if _, err := hookenv.GitLog(context.Background(), dir, 5); !errors.Is(err, hookenv.ErrNotRepo) {
		t.Fatalf("gitLog outside a repository: %v, want errNotRepo", err)
	}
}

// A session the ledger knows already (resumed, compacted) is only looked
// at: no lock is taken and nothing written. One it does not know gets its
// ledger; a corrupt one is set aside with a single note.
func TestSessionStartKnowsSession(t *testing.T) {
	start := &protocol.Event{HookEventName: protocol.SessionStart, Source: "resume", SessionID: "s1"}
	noGit := func(context.Context, string, int) (string, error) { return "", hookenv.ErrNotRepo }
	for _, tc := range []struct {
		name, ledger, want string
		lock               bool
		notes              int
	}{
		{"known", `{"agents":{}}`, `{"agents":{}}`, false, 0},
		{"known with agents", `{"agents":{"a1":{"type":"t","dir":"d","day":"2026-11-20","coordinator":{}}}}`, "", false, 0},
		{"unknown", "", `{"agents":{}}`, true, 0},
		{"never started", `{"agents":null}`, `{"agents":{}}`, true, 0},
		{"corrupt", `{"agents":`, `{"agents":{}}`, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, notes := testEnv(t, noGit)
			env.State.Notes = notes
			dir := filepath.Join(env.Layout.Project, ".claude", "massgen-hook", "sessions", state.Key("s1"))
			rec := filepath.Join(dir, "subagents.json")
			if tc.ledger != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(rec, []byte(tc.ledger), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := SessionStart(context.Background(), env, start); err != nil {
				t.Fatalf("SessionStart: %v", err)
			}
			got, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = tc.ledger
			}
			if string(got) != want {
				t.Errorf("ledger %s, want %s", got, want)
			}
			if _, err := os.Stat(rec + ".lock"); (err == nil) != tc.lock {
				t.Errorf("lock file made = %v, want %v", err == nil, tc.lock)
			}
			if n := strings.Count(notes.String(), "\n"); n != tc.notes {
				t.Errorf("%d notes, want %d: %q", n, tc.notes, notes.String())
			}
		})
	}
}
