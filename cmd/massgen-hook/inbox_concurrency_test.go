package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The figure: 4 sender processes and 8 concurrent post-tool-use
// consumer processes of one agent over 1,000 messages: every message is
// delivered exactly once, none is lost, and `massgen-hook inbox` then shows
// all of them delivered and none pending.

const (
	inboxSenders   = 4
	inboxConsumers = 8
	inboxMessages  = 1000
)

const inboxEvent = `{"session_id":"inbox-concurrency","transcript_path":"/tmp/t/s.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false,"isImage":false},"tool_use_id":"toolu_inbox"}`

var inboxMsgRe = regexp.MustCompile(`msg-[0-9]{4}`)

// inboxRun runs massgen-hook once in project with stdin and returns what
// it did.
func inboxRun(bin string, env []string, project, stdin string, args ...string) hookRun {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = project
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return finish(cmd.Run(), &stdout, &stderr)
}

// TestInboxConcurrency is the figure above, with real processes.
func TestInboxConcurrency(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project := budgetProject(t, 1000) // any project; its config only adds a PreToolUse rule
	var env []string
	for _, kv := range hookEnv(project) {
		// The real clock: ids then sort in send order, as in use.
		if !strings.HasPrefix(kv, "MASSGEN_HOOK_NOW=") {
			env = append(env, kv)
		}
	}
	start := time.Now()

	var sendersDone atomic.Bool
	var swg, cwg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	var problems []string
	problem := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(problems) < 20 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
	}
	idRe := regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}Z-[0-9a-f]{8}\n$`)

	per := inboxMessages / inboxSenders
	for s := range inboxSenders {
		swg.Add(1)
		go func() {
			defer swg.Done()
			for i := range per {
				text := fmt.Sprintf("msg-%04d", s*per+i)
				r := inboxRun(bin, env, project, "", "send", "--to", "agent_x", text)
				// Regression, a bug found and fixed: send prunes the inbox, listing it, and List reads the
				// .tmp-* file a consumer's confirmation is writing beside a
				// receipt as a receipt; when it is renamed away meanwhile,
				// send prints "massgen-hook: inbox: open .../receipts/<id>/
				// .tmp-NNN: no such file or directory" on stderr (see
				// inbox.TestListIgnoresTempReceipts for the cause and fix).
				if r.err != nil || r.code != 0 || !idRe.MatchString(r.stdout) || r.stderr != "" {
					problem("send %s: err %v, exit %d, stdout %q, stderr %q", text, r.err, r.code, r.stdout, r.stderr)
				}
			}
		}()
	}

	var calls, deliveries atomic.Int64
	for c := range inboxConsumers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for {
				done := sendersDone.Load()
				r := inboxRun(bin, env, project, inboxEvent, "post-tool-use", "--agent", "agent_x")
				calls.Add(1)
				if r.err != nil || r.code != 0 || r.stderr != "" {
					problem("consumer %d: err %v, exit %d, stderr %q", c, r.err, r.code, r.stderr)
				}
				if r.stdout == "" {
					if done {
						return // the final drain found nothing
					}
					time.Sleep(50 * time.Millisecond)
					continue
				}
				var out struct {
					HookSpecificOutput struct {
						HookEventName     string `json:"hookEventName"`
						AdditionalContext string `json:"additionalContext"`
					} `json:"hookSpecificOutput"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
					problem("consumer %d: stdout is not JSON (%v): %q", c, err, r.stdout)
					continue
				}
				ctx := out.HookSpecificOutput.AdditionalContext
				if out.HookSpecificOutput.HookEventName != "PostToolUse" || strings.Contains(ctx, "truncated by massgen-hook") {
					problem("consumer %d: output %q", c, r.stdout)
				}
				found := inboxMsgRe.FindAllString(ctx, -1)
				deliveries.Add(1)
				mu.Lock()
				for _, f := range found {
					counts[f]++
				}
				mu.Unlock()
			}
		}()
	}
	swg.Wait()
	sent := time.Since(start)
	sendersDone.Store(true)
	cwg.Wait()
	elapsed := time.Since(start)

	for _, p := range problems {
		t.Error(p)
	}
	lost, twice := 0, 0
	for n := range inboxMessages {
		switch c := counts[fmt.Sprintf("msg-%04d", n)]; {
		case c == 0:
			lost++
		case c > 1:
			twice++
			t.Errorf("msg-%04d delivered %d times", n, c)
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d messages never delivered", lost, inboxMessages)
	}
	if len(counts) != inboxMessages-lost {
		t.Errorf("%d distinct texts delivered, want %d", len(counts), inboxMessages)
	}

	r := inboxRun(bin, env, project, "", "inbox", "--format", "json")
	if r.err != nil || r.code != 0 || r.stderr != "" {
		t.Fatalf("inbox --format json: err %v, exit %d, stderr %q", r.err, r.code, r.stderr)
	}
	var list []struct {
		ID             string   `json:"id"`
		Text           string   `json:"text"`
		To             []string `json:"to"`
		PendingFor     []string `json:"pending_for"`
		UndeliveredFor []string `json:"undelivered_for"`
		Delivered      []struct {
			To    string `json:"to"`
			Event string `json:"event"`
			Tool  string `json:"tool"`
		} `json:"delivered"`
		Claimed []json.RawMessage `json:"claimed_unconfirmed"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("inbox --format json: %v", err)
	}
	if len(list) != inboxMessages {
		t.Errorf("inbox lists %d messages, want %d", len(list), inboxMessages)
	}
	delivered, pending := 0, 0
	texts := map[string]bool{}
	for _, s := range list {
		texts[s.Text] = true
		if len(s.PendingFor)+len(s.UndeliveredFor)+len(s.Claimed) > 0 {
			pending++
			if pending <= 5 {
				t.Errorf("%s (%s): pending %q, undelivered %q, %d claimed", s.ID, s.Text, s.PendingFor, s.UndeliveredFor, len(s.Claimed))
			}
		}
		if len(s.Delivered) == 1 && s.Delivered[0].To == "agent_x" && s.Delivered[0].Event == "PostToolUse" && s.Delivered[0].Tool == "Bash" {
			delivered++
		} else {
			t.Errorf("%s (%s): delivered %+v, want once to agent_x by PostToolUse Bash", s.ID, s.Text, s.Delivered)
		}
	}
	if len(texts) != inboxMessages {
		t.Errorf("inbox lists %d distinct texts, want %d", len(texts), inboxMessages)
	}
	if delivered != inboxMessages || pending != 0 {
		t.Errorf("inbox: %d delivered, %d not finished; want %d and 0", delivered, pending, inboxMessages)
	}
	t.Logf("%d messages, %d sender and %d consumer processes: sends done in %v, all in %v; %d post-tool-use calls, %d with messages (%.1f per delivery); lost %d, twice %d",
		inboxMessages, inboxSenders, inboxConsumers, sent.Round(time.Millisecond), elapsed.Round(time.Millisecond),
		calls.Load(), deliveries.Load(), float64(inboxMessages)/float64(max(deliveries.Load(), 1)), lost, twice)
}
