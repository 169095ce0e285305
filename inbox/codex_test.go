package inbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/protocol"
)

func (e *env) codexFile() string { return filepath.Join(e.project, CodexFile) }

func (e *env) writeCodex(payload string) {
	e.t.Helper()
	writeFile(e.t, e.codexFile(), payload)
}

func (e *env) importCodex(recipient, tool string, at time.Time) error {
	return e.ib.ImportCodex(e.project, recipient, tool, "s1", at)
}

// TestCodexNoFile: no Codex file is nothing to do: no error, nothing made.
func TestCodexNoFile(t *testing.T) {
	e := newEnv(t)
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	if pathExists(t, e.st.Path) {
		t.Errorf("ImportCodex with no file created the runtime directory:\n%s", tree(t, e.st.Path))
	}
}

// TestCodexConsumed: a matching payload is consumed (the file removed),
// queued for the recipient and delivered by the same call's Take, with its
// strategy, sequence and expiry.
func TestCodexConsumed(t *testing.T) {
	e := newEnv(t)
	exp := float64(t0.Add(time.Hour).Unix()) + 0.25
	e.writeCodex(fmt.Sprintf(`{"inject":{"content":"new answer from agent1","strategy":"user_message"},"tool_matcher":"*","expires_at":%v,"sequence":42}`, exp))
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	if pathExists(t, e.codexFile()) {
		t.Error("the Codex file was not consumed")
	}
	entries, _ := os.ReadDir(e.inboxPath("codex"))
	if len(entries) != 0 {
		t.Errorf("claimed copy left behind: %v", entries)
	}
	b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
	if len(ids(b)) != 1 {
		t.Fatalf("Take: %q", texts(b))
	}
	m := b.Items[0].Message
	if m.Text != "new answer from agent1" || m.Strategy != UserMessage || !sameStrings(m.To, []string{"agent_b"}) ||
		m.CodexSequence == nil || *m.CodexSequence != 42 || m.ExpiresAt == nil || !m.ExpiresAt.Equal(t0.Add(time.Hour+250*time.Millisecond)) {
		t.Errorf("queued %+v (expires %v)", *m, m.ExpiresAt)
	}
	if ps := b.Parts(); len(ps) != 1 || ps[0].Text != "new answer from agent1" || ps[0].Strategy != UserMessage {
		t.Errorf("parts %+v", ps)
	}
	b.Settle(true)
	// Not for anyone else.
	if b := e.take(e.ib, "agent_c", "Bash", t0, 8000); !b.Empty() {
		t.Error("another agent got the Codex payload")
	}
	// No strategy: tool_result.
	e.writeCodex(`{"inject":{"content":"x"},"sequence":43}`)
	if err := e.importCodex("agent_b", "Read", t0); err != nil {
		t.Fatal(err)
	}
	if b := e.take(e.ib, "agent_b", "Read", t0, 8000); len(ids(b)) != 1 || b.Items[0].Message.Strategy != ToolResult || b.Items[0].Message.ExpiresAt != nil {
		t.Errorf("default strategy: %+v", b)
	}
}

// TestCodexMatcher: a payload whose tool_matcher misses the tool stays,
// untouched, for a later call; "*" and "" match every tool; globs are
// globs.
func TestCodexMatcher(t *testing.T) {
	cases := []struct {
		matcher string
		hit     []string
		miss    []string
	}{
		{"*", []string{"Bash", "mcp__x__y"}, nil},
		{"", []string{"Bash", "Read"}, nil},
		{"mcp__*", []string{"mcp__checklist__submit", "mcp__"}, []string{"Bash", "xmcp__a"}},
		{"Write|Edit", []string{"Edit", "Write"}, []string{"NotebookEdit", "Writer"}},
	}
	for _, c := range cases {
		for _, tool := range c.miss {
			e := newEnv(t)
			payload := fmt.Sprintf(`{"inject":{"content":"hi"},"tool_matcher":%q,"sequence":1}`, c.matcher)
			e.writeCodex(payload)
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(e.codexFile(), old, old); err != nil {
				t.Fatal(err)
			}
			if err := e.importCodex("agent_b", tool, t0); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(e.codexFile())
			if err != nil {
				t.Fatalf("matcher %q, tool %s: file gone: %v", c.matcher, tool, err)
			}
			if data, _ := os.ReadFile(e.codexFile()); string(data) != payload || !info.ModTime().Equal(old) {
				t.Errorf("matcher %q, tool %s: file touched", c.matcher, tool)
			}
			if l := e.list(t0); len(l) != 0 {
				t.Errorf("matcher %q, tool %s: queued on a miss", c.matcher, tool)
			}
		}
		for _, tool := range c.hit {
			e := newEnv(t)
			e.writeCodex(fmt.Sprintf(`{"inject":{"content":"hi"},"tool_matcher":%q,"sequence":1}`, c.matcher))
			if err := e.importCodex("agent_b", tool, t0); err != nil {
				t.Fatal(err)
			}
			if pathExists(t, e.codexFile()) {
				t.Errorf("matcher %q, tool %s: not consumed", c.matcher, tool)
			}
			if b := e.take(e.ib, "agent_b", tool, t0, 8000); !sameStrings(texts(b), []string{"hi"}) {
				t.Errorf("matcher %q, tool %s: Take = %q", c.matcher, tool, texts(b))
			}
		}
	}
}

// TestCodexMissThenHit: the payload left by a miss is taken by the next
// matching call.
func TestCodexMissThenHit(t *testing.T) {
	e := newEnv(t)
	e.writeCodex(`{"inject":{"content":"for mcp"},"tool_matcher":"mcp__*","sequence":7}`)
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	if b := e.take(e.ib, "agent_b", "Bash", t0, 8000); !b.Empty() {
		t.Fatal("delivered after Bash")
	}
	if err := e.importCodex("agent_b", "mcp__fs__read", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if b := e.take(e.ib, "agent_b", "mcp__fs__read", t0.Add(time.Second), 8000); !sameStrings(texts(b), []string{"for mcp"}) {
		t.Errorf("after mcp__fs__read: %q", texts(b))
	}
}

// TestCodexExpired: a payload already expired (expires_at, float seconds,
// in the past) is consumed and ends up undelivered for the recipient, not
// lost; its turn boundary hands it over.
func TestCodexExpired(t *testing.T) {
	e := newEnv(t)
	e.writeCodex(fmt.Sprintf(`{"inject":{"content":"too late"},"tool_matcher":"*","expires_at":%v,"sequence":3}`, float64(t0.Unix())-10.5))
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	if pathExists(t, e.codexFile()) {
		t.Error("expired payload left in place")
	}
	if b := e.take(e.ib, "agent_b", "Bash", t0, 8000); !b.Empty() {
		t.Errorf("an expired payload was delivered at a tool call")
	}
	l := e.list(t0)
	if len(l) != 1 || !sameStrings(l[0].UndeliveredFor, []string{"agent_b"}) || !l[0].ExpiresAt.Equal(t0.Add(-10500*time.Millisecond)) {
		t.Fatalf("List %+v", l)
	}
	late := e.takeLate(e.ib, "agent_b", t0.Add(time.Minute), 8000)
	if !sameStrings(texts(late), []string{"too late"}) {
		t.Errorf("TakeLate = %q", texts(late))
	}
}

// TestCodexStaleSequence: a payload whose sequence is not above the last
// one taken is a duplicate: consumed and dropped, with a note.
func TestCodexStaleSequence(t *testing.T) {
	e := newEnv(t)
	e.writeCodex(`{"inject":{"content":"five"},"sequence":5}`)
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int{5, 4} {
		e.writeCodex(fmt.Sprintf(`{"inject":{"content":"stale %d"},"sequence":%d}`, seq, seq))
		if err := e.importCodex("agent_b", "Bash", t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if pathExists(t, e.codexFile()) {
			t.Errorf("sequence %d: stale payload left in place", seq)
		}
		if n := e.notes.String(); !strings.Contains(n, fmt.Sprintf("dropped sequence %d, not above the last one taken (5): a duplicate", seq)) {
			t.Errorf("notes %q", n)
		}
	}
	e.writeCodex(`{"inject":{"content":"six"},"sequence":6}`)
	if err := e.importCodex("agent_b", "Bash", t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	// No sequence: never stale.
	e.writeCodex(`{"inject":{"content":"unnumbered"}}`)
	if err := e.importCodex("agent_b", "Bash", t0.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	// A new session (a new MassGen run) numbers from 1 again.
	e.writeCodex(`{"inject":{"content":"new run"},"sequence":1}`)
	if err := e.ib.ImportCodex(e.project, "agent_b", "Bash", "s2", t0.Add(3500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(4*time.Second), 8000)
	if got := texts(b); !sameStrings(got, []string{"five", "six", "unnumbered", "new run"}) {
		t.Errorf("delivered %q, want [five six unnumbered new run]", got)
	}
}

// TestCodexInvalid: a file that does not parse, has no content, or names
// an unknown strategy or a bad matcher is left in place with an error.
func TestCodexInvalid(t *testing.T) {
	cases := []struct{ payload, want string }{
		{`{"inject":`, "unexpected end of JSON input; left in place"},
		{`{"inject":{"content":"x","strategy":"shout"}}`, `inject.strategy "shout"; left in place`},
		{`{"inject":{"content":""}}`, "no inject.content; left in place"},
		{`{"tool_matcher":"*"}`, "no inject.content; left in place"},
		{`{"inject":{"content":"x"},"tool_matcher":"Edit["}`, "tool_matcher:"},
		{`{"inject":{"content":"x"},"sequence":"one"}`, "left in place"},
	}
	for _, c := range cases {
		e := newEnv(t)
		e.writeCodex(c.payload)
		err := e.importCodex("agent_b", "Bash", t0)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), CodexFile) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.payload, err, CodexFile, c.want)
		}
		if data, _ := os.ReadFile(e.codexFile()); string(data) != c.payload {
			t.Errorf("%s: the file was changed or removed", c.payload)
		}
		if l := e.list(t0); len(l) != 0 {
			t.Errorf("%s: queued", c.payload)
		}
	}
}

// TestCodexConcurrent: hooks of parallel tool calls importing one payload
// at once queue it exactly once.
func TestCodexConcurrent(t *testing.T) {
	e := newEnv(t)
	const rounds, hooks = 30, 6
	for round := range rounds {
		e.writeCodex(fmt.Sprintf(`{"inject":{"content":"round %d"},"tool_matcher":"*","sequence":%d}`, round, round+1))
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, hooks)
		for range hooks {
			ib := e.other()
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- ib.ImportCodex(e.project, "agent_b", "Bash", "s1", t0.Add(time.Duration(round)*time.Second))
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("round %d: %v", round, err)
			}
		}
	}
	l := e.list(t0.Add(time.Hour))
	count := map[string]int{}
	for _, s := range l {
		count[s.Text]++
	}
	for round := range rounds {
		if n := count[fmt.Sprintf("round %d", round)]; n != 1 {
			t.Errorf("round %d queued %d times", round, n)
		}
	}
	if len(l) != rounds {
		t.Errorf("%d messages, want %d", len(l), rounds)
	}
	if n := e.notes.String(); n != "" {
		t.Errorf("notes: %q", n)
	}
}

// TestCodexFitsOutput: a Codex payload is delivered whole, never cut by
// the hook output's cap, like a message sent with `send`.
func TestCodexFitsOutput(t *testing.T) {
	e := newEnv(t)
	content := strings.Repeat("long codex payload ", 700) // 13,300 characters
	e.writeCodex(fmt.Sprintf(`{"inject":{"content":%q},"tool_matcher":"*","sequence":1}`, content))
	err := e.importCodex("agent_b", "Bash", t0)
	b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
	delivered := ""
	for _, p := range b.Parts() {
		delivered += p.Text
	}
	// Regression, a bug found and fixed: codex.go queueCodex queues inject.content without send's
	// checkText, so a payload over MaxText (MassGen's writer has no such
	// limit) is claimed alone (Take's "at least one") and its part is over
	// protocol.MaxStringLen: protocol.Write cuts it and the agent gets a
	// truncated injection that is recorded as delivered. Fix: split a long
	// payload into several messages of at most MaxText at import (each
	// "part i of n"), or keep it whole in a file and deliver its path.
	if err == nil && protocol.UTF16Len(delivered) > protocol.MaxStringLen {
		t.Errorf("a %d-character Codex payload is delivered as one %d-unit part, over the %d cap: it will be cut", len(content), protocol.UTF16Len(delivered), protocol.MaxStringLen)
	}
	if err != nil && !pathExists(t, e.codexFile()) {
		t.Errorf("refused (%v) but the file was not left in place", err)
	}
}

// TestCodexSequenceZero: the first payload of a session is taken whatever
// its sequence, 0 included: MassGen's middleware starts from -1
// (hook_middleware.py: _last_post_sequence = -1, and a payload without a
// sequence counts as 0).
func TestCodexSequenceZero(t *testing.T) {
	e := newEnv(t)
	e.writeCodex(`{"inject":{"content":"sequence zero"},"tool_matcher":"*","sequence":0}`)
	if err := e.importCodex("agent_b", "Bash", t0); err != nil {
		t.Fatal(err)
	}
	// Regression, a bug found and fixed: codex.go queueCodex compares with codexRecord.LastSequence,
	// whose zero value 0 stands for "nothing taken yet", so a session's
	// first payload numbered 0 is dropped as "a duplicate" (noted only on
	// stderr). Fix: make LastSequence a *int64 (nil: nothing taken), or
	// start it at -1 as MassGen does.
	if b := e.take(e.ib, "agent_b", "Bash", t0, 8000); !sameStrings(texts(b), []string{"sequence zero"}) {
		t.Errorf("a session's first payload, sequence 0, was not delivered: %q; notes %q", texts(b), e.notes.String())
	}
}
