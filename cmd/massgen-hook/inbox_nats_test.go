package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// The inbox over NATS, with real hook processes and a real nats-server:
// each agent's hooks run in a project of their own (its machine), the
// sender in another, and they share only the server.

// natsProject is one machine's project, its inbox on the server at url.
// The broker timeout is the largest allowed: the server runs inside this
// test process, which a loaded machine starves, and a send that times out
// is only spooled (TestNATSBrokerRestartMidStream tests that).
func natsProject(t *testing.T, url, extra string) string {
	t.Helper()
	project := t.TempDir()
	writeFile(t, project, ".claude/massgen-hook.yaml", "inbox:\n  backend: nats\n  url: "+url+"\n  timeout: 10s\n"+extra)
	if err := os.MkdirAll(filepath.Join(project, ".home"), 0o755); err != nil {
		t.Fatal(err)
	}
	return project
}

// realClockEnv is hookEnv without the pinned clock: ids sort in send order,
// and the broker's ack wait and the hooks' back-off are real time.
func realClockEnv(project string) []string {
	var env []string
	for _, kv := range hookEnv(project) {
		if !strings.HasPrefix(kv, "MASSGEN_HOOK_NOW=") {
			env = append(env, kv)
		}
	}
	return env
}

// postToolUse runs one post-tool-use hook of agent and returns the
// messages (msg-NNNN) its answer carried.
func postToolUse(bin string, env []string, project, agent string) (hookRun, []string, error) {
	r := inboxRun(bin, env, project, inboxEvent, "post-tool-use", "--agent", agent)
	if r.stdout == "" {
		return r, nil, nil
	}
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		return r, nil, fmt.Errorf("stdout is not JSON (%v): %q", err, r.stdout)
	}
	return r, inboxMsgRe.FindAllString(out.HookSpecificOutput.AdditionalContext, -1), nil
}

// natsListing is `inbox --format json` with the NATS backend.
type natsListing struct {
	Backend string `json:"backend"`
	Stream  struct {
		Messages  int `json:"messages"`
		Consumers []struct {
			Agent    string `json:"agent"`
			Waiting  int    `json:"waiting"`
			InFlight int    `json:"in_flight"`
		} `json:"consumers"`
	} `json:"stream"`
	Spooled        []json.RawMessage `json:"spooled"`
	SpooledRecords []json.RawMessage `json:"spooled_records"`
	Messages       []struct {
		ID             string   `json:"id"`
		Text           string   `json:"text"`
		PendingFor     []string `json:"pending_for"`
		UndeliveredFor []string `json:"undelivered_for"`
		Delivered      []struct {
			To          string `json:"to"`
			Late        bool   `json:"late"`
			Unpublished bool   `json:"record_unpublished"`
		} `json:"delivered"`
	} `json:"messages"`
}

func listNATS(t *testing.T, bin string, env []string, project string) natsListing {
	t.Helper()
	r := inboxRun(bin, env, project, "", "inbox", "--format", "json")
	if r.err != nil || r.code != 0 {
		t.Fatalf("inbox --format json: err %v, exit %d, stderr %q", r.err, r.code, r.stderr)
	}
	var l natsListing
	if err := json.Unmarshal([]byte(r.stdout), &l); err != nil {
		t.Fatalf("inbox --format json: %v: %s", err, r.stdout)
	}
	return l
}

const (
	natsAgents   = 8
	natsHooks    = 3 // concurrent hook processes per agent (parallel tool calls)
	natsSenders  = 8
	natsMessages = 1000
	// natsDrain bounds how long the agents may take, once every send is
	// done, to have every message: a bound on a condition, not a wait.
	natsDrain = 3 * time.Minute
)

// TestNATSInboxConcurrency: 1,000 messages, each to 8 agents on machines
// of their own, each agent with 3 hook processes pulling at once from its
// durable consumer: every agent gets every message exactly once, and the
// stream then shows each delivered to all 8, none pending.
//
// It runs alone, not in parallel with the package's other tests: its
// thousands of processes would starve the testscripts that judge their
// own timing.
func TestNATSInboxConcurrency(t *testing.T) {
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	sender := natsProject(t, srv.URL(), "")
	senderEnv := realClockEnv(sender)
	agents := make([]string, natsAgents)
	projects := make([]string, natsAgents)
	var to []string
	for i := range agents {
		agents[i] = fmt.Sprintf("agent_%d", i+1)
		projects[i] = natsProject(t, srv.URL(), "")
		to = append(to, "--to", agents[i])
	}
	start := time.Now()
	var mu sync.Mutex
	counts := map[string]map[string]int{}
	var problems []string
	problem := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(problems) < 20 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
	}
	var sendersDone atomic.Bool
	var spooled atomic.Int64
	var swg, cwg sync.WaitGroup
	per := natsMessages / natsSenders
	for s := range natsSenders {
		swg.Add(1)
		go func() {
			defer swg.Done()
			for i := range per {
				text := fmt.Sprintf("msg-%04d", s*per+i)
				r := inboxRun(bin, senderEnv, sender, "", append(append([]string{"send"}, to...), text)...)
				if strings.Contains(r.stderr, "is spooled on this machine") {
					spooled.Add(1) // the broker was slow: forwarded later
				} else if r.err != nil || r.code != 0 || (r.stderr != "" && !strings.Contains(r.stderr, "an earlier send left in the spool")) {
					problem("send %s: err %v, exit %d, stderr %q", text, r.err, r.code, r.stderr)
				}
			}
		}()
	}
	var calls atomic.Int64
	var drainBy atomic.Int64 // unix nanoseconds; 0 while sends go on
	overdue := func() bool { d := drainBy.Load(); return d != 0 && time.Now().UnixNano() > d }
	for a := range agents {
		counts[agents[a]] = map[string]int{}
		env := realClockEnv(projects[a])
		for h := range natsHooks {
			cwg.Add(1)
			go func() {
				defer cwg.Done()
				for !overdue() {
					mu.Lock()
					have := len(counts[agents[a]])
					mu.Unlock()
					if have == natsMessages && sendersDone.Load() {
						return
					}
					r, got, err := postToolUse(bin, env, projects[a], agents[a])
					calls.Add(1)
					if err != nil || r.err != nil || r.code != 0 {
						problem("%s hook %d: %v, err %v, exit %d, stderr %q", agents[a], h, err, r.err, r.code, r.stderr)
					}
					if len(got) == 0 {
						time.Sleep(500 * time.Millisecond) // the agent's next tool call
						continue
					}
					mu.Lock()
					for _, m := range got {
						counts[agents[a]][m]++
					}
					mu.Unlock()
				}
			}()
		}
	}
	swg.Wait()
	sent := time.Since(start)
	// What a slow broker left in the sender's spool goes with the sender
	// machine's next hook, as it would with its next send.
	for deadline := time.Now().Add(natsDrain); ; {
		left, _ := os.ReadDir(filepath.Join(sender, ".claude", "massgen-hook", "nats", "spool"))
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages still spooled", len(left))
		}
		if r := inboxRun(bin, senderEnv, sender, inboxEvent, "post-tool-use", "--agent", "sender"); r.code != 0 {
			t.Errorf("the sender's hook: exit %d, stderr %q", r.code, r.stderr)
		}
	}
	drainBy.Store(time.Now().Add(natsDrain).UnixNano())
	sendersDone.Store(true)
	cwg.Wait()
	elapsed := time.Since(start)
	for _, p := range problems {
		t.Error(p)
	}
	delivered, lost, twice := 0, 0, 0
	for _, a := range agents {
		for n := range natsMessages {
			switch c := counts[a][fmt.Sprintf("msg-%04d", n)]; {
			case c == 0:
				lost++
			case c > 1:
				twice++
				t.Errorf("%s: msg-%04d delivered %d times", a, n, c)
			}
			delivered += min(counts[a][fmt.Sprintf("msg-%04d", n)], 1)
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d deliveries never made", lost, natsMessages*natsAgents)
	}
	l := listNATS(t, bin, senderEnv, sender)
	if len(l.Messages) != natsMessages || len(l.Spooled) != 0 {
		t.Errorf("the stream lists %d messages and %d spooled, want %d and 0", len(l.Messages), len(l.Spooled), natsMessages)
	}
	unfinished := 0
	for _, m := range l.Messages {
		if len(m.Delivered) != natsAgents || len(m.PendingFor)+len(m.UndeliveredFor) > 0 {
			if unfinished++; unfinished <= 5 {
				t.Errorf("%s (%s): delivered to %d, pending %q, undelivered %q", m.ID, m.Text, len(m.Delivered), m.PendingFor, m.UndeliveredFor)
			}
		}
	}
	agentConsumers := 0
	for _, c := range l.Stream.Consumers {
		if c.Waiting != 0 || c.InFlight != 0 {
			t.Errorf("consumer of %s: %d waiting, %d in flight; want all acknowledged", c.Agent, c.Waiting, c.InFlight)
		}
		if strings.HasPrefix(c.Agent, "agent_") {
			agentConsumers++
		}
	}
	if agentConsumers != natsAgents {
		t.Errorf("%d agents' consumers, want one per agent (%d)", agentConsumers, natsAgents)
	}
	t.Logf("NATS: %d messages × %d agents × %d hook processes each, %d send processes (%d spooled by a slow broker, forwarded later): sent in %v, all delivered in %v; %d hook calls; delivered %d, lost %d, duplicates %d",
		natsMessages, natsAgents, natsHooks, natsMessages, spooled.Load(), sent.Round(time.Millisecond), elapsed.Round(time.Millisecond),
		calls.Load(), delivered, lost, twice)
}
