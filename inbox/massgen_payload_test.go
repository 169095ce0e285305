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

func (e *env) payloadFile(f MassGenFile) string { return filepath.Join(e.project, f.Path) }

func (e *env) writePayload(f MassGenFile, payload string) {
	e.t.Helper()
	writeFile(e.t, e.payloadFile(f), payload)
}

func (e *env) takePayload(f MassGenFile, tool string, at time.Time) *PayloadPart {
	e.t.Helper()
	p, err := e.ib.TakeMassGen(e.project, f, tool, "s1", at, MaxText)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) fileHolds(f MassGenFile, want string) {
	e.t.Helper()
	data, err := os.ReadFile(e.payloadFile(f))
	if err != nil || string(data) != want {
		e.t.Errorf("%s: %q, %v; want it in place, unchanged", f.Path, data, err)
	}
}

// TestPayloadNoFile: no file is nothing to do, and nothing is made.
func TestPayloadNoFile(t *testing.T) {
	e := newEnv(t)
	if p := e.takePayload(CodexPayload, "Bash", t0); p != nil {
		t.Errorf("part %+v from no file", p)
	}
	if _, err := e.ib.TakeMassGen(filepath.Join(e.project, "no-such-workspace"), GeminiPayload, "Bash", "s1", t0, MaxText); err != nil {
		t.Errorf("a workspace that does not exist: %v", err)
	}
	if pathExists(t, e.st.Path) {
		t.Errorf("the runtime directory was created:\n%s", tree(t, e.st.Path))
	}
}

// TestPayloadRemovedOnlyWhenDelivered: the file stays while its payload is
// handed over, so MassGen's end-of-round check still finds it undelivered
// if the answer never goes out; it is removed (MassGen's "delivered") only
// once the answer was written.
func TestPayloadRemovedOnlyWhenDelivered(t *testing.T) {
	e := newEnv(t)
	payload := fmt.Sprintf(`{"inject":{"content":"new answer from agent1","strategy":"user_message"},"tool_matcher":"*","expires_at":%v,"sequence":42}`, float64(t0.Add(time.Hour).Unix()))
	e.writePayload(CodexPayload, payload)
	p := e.takePayload(CodexPayload, "Bash", t0)
	if p == nil || p.Text != "new answer from agent1" || p.Strategy != UserMessage {
		t.Fatalf("part %+v", p)
	}
	e.fileHolds(CodexPayload, payload)
	p.Settle(false) // the answer could not be written
	e.fileHolds(CodexPayload, payload)

	p = e.takePayload(CodexPayload, "Bash", t0.Add(time.Second))
	if p == nil || p.Text != "new answer from agent1" {
		t.Fatalf("after a failed answer: part %+v, want the payload again", p)
	}
	p.Settle(true)
	if pathExists(t, e.payloadFile(CodexPayload)) {
		t.Error("delivered, but the file is still there: MassGen will carry it into the next round again")
	}
	if entries, _ := os.ReadDir(filepath.Dir(e.payloadFile(CodexPayload))); len(entries) != 0 {
		t.Errorf("left beside it: %v", entries)
	}
	// No strategy: tool_result.
	e.writePayload(CodexPayload, `{"inject":{"content":"x"},"sequence":43}`)
	if p := e.takePayload(CodexPayload, "Read", t0); p == nil || p.Strategy != ToolResult {
		t.Errorf("default strategy: %+v", p)
	}
}

// TestPayloadSplit: a payload longer than one answer can carry goes out in
// numbered parts, one a call, each within the output cap; the file stays,
// whole, until the last part went out.
func TestPayloadSplit(t *testing.T) {
	e := newEnv(t)
	content := strings.Repeat("long codex payload\n", 700) // 13,300 characters
	payload := fmt.Sprintf(`{"inject":{"content":%q},"tool_matcher":"*","sequence":1}`, content)
	e.writePayload(CodexPayload, payload)
	var got strings.Builder
	for i := 1; i <= 3; i++ {
		p := e.takePayload(CodexPayload, "Bash", t0.Add(time.Duration(i)*time.Second))
		if p == nil {
			t.Fatalf("call %d: no part", i)
		}
		prefix := fmt.Sprintf("[part %d of 3]\n", i)
		if !strings.HasPrefix(p.Text, prefix) || protocol.UTF16Len(p.Text) > MaxText {
			t.Fatalf("call %d: part of %d units starting %q", i, protocol.UTF16Len(p.Text), p.Text[:20])
		}
		got.WriteString(strings.TrimPrefix(p.Text, prefix))
		if i < 3 {
			p.Settle(true)
			e.fileHolds(CodexPayload, payload)
			continue
		}
		p.Settle(true)
	}
	if got.String() != content {
		t.Error("the parts do not add up to the payload")
	}
	if pathExists(t, e.payloadFile(CodexPayload)) {
		t.Error("all parts delivered, but the file is still there")
	}
}

// TestPayloadRoom: a part waits for a call whose answer has room for it
// (queued messages go first), and the file stays meanwhile.
func TestPayloadRoom(t *testing.T) {
	e := newEnv(t)
	payload := fmt.Sprintf(`{"inject":{"content":%q},"sequence":1}`, strings.Repeat("y", 3000))
	e.writePayload(CodexPayload, payload)
	if p, err := e.ib.TakeMassGen(e.project, CodexPayload, "Bash", "s1", t0, 2999); err != nil || p != nil {
		t.Fatalf("a 3,000-unit part in a 2,999-unit room: %+v, %v", p, err)
	}
	e.fileHolds(CodexPayload, payload)
	if p, err := e.ib.TakeMassGen(e.project, CodexPayload, "Bash", "s1", t0, 3000); err != nil || p == nil {
		t.Fatalf("in a room that fits it: %+v, %v", p, err)
	}
}

// TestPayloadMatcher: a tool_matcher miss leaves the file untouched;
// "*" and "" match every tool; globs are globs.
func TestPayloadMatcher(t *testing.T) {
	cases := []struct {
		matcher   string
		hit, miss []string
	}{
		{"*", []string{"Bash", "mcp__x__y"}, nil},
		{"", []string{"Bash", "Read"}, nil},
		{"mcp__*", []string{"mcp__checklist__submit"}, []string{"Bash", "xmcp__a"}},
		{"Write|Edit", []string{"Edit", "Write"}, []string{"NotebookEdit", "Writer"}},
	}
	for _, c := range cases {
		payload := fmt.Sprintf(`{"inject":{"content":"hi"},"tool_matcher":%q,"sequence":1}`, c.matcher)
		for _, tool := range c.miss {
			e := newEnv(t)
			e.writePayload(CodexPayload, payload)
			if p := e.takePayload(CodexPayload, tool, t0); p != nil {
				t.Errorf("matcher %q, tool %s: delivered", c.matcher, tool)
			}
			e.fileHolds(CodexPayload, payload)
		}
		for _, tool := range c.hit {
			e := newEnv(t)
			e.writePayload(CodexPayload, payload)
			if p := e.takePayload(CodexPayload, tool, t0); p == nil || p.Text != "hi" {
				t.Errorf("matcher %q, tool %s: not delivered", c.matcher, tool)
			}
		}
	}
}

// TestPayloadExpired: an expired payload is left to MassGen, untouched.
func TestPayloadExpired(t *testing.T) {
	e := newEnv(t)
	payload := fmt.Sprintf(`{"inject":{"content":"too late"},"expires_at":%v,"sequence":3}`, float64(t0.Unix())-10.5)
	e.writePayload(CodexPayload, payload)
	if p := e.takePayload(CodexPayload, "Bash", t0); p != nil {
		t.Errorf("expired payload delivered: %+v", p)
	}
	e.fileHolds(CodexPayload, payload)
}

// TestPayloadSequence: a new payload numbered at or below the last one
// delivered whole is a duplicate: dropped (removed), with a note. The
// first payload of a session is taken whatever its number, 0 included.
func TestPayloadSequence(t *testing.T) {
	e := newEnv(t)
	for i, c := range []struct {
		payload string
		take    bool
	}{
		{`{"inject":{"content":"zero"},"sequence":0}`, true},
		{`{"inject":{"content":"five"},"sequence":5}`, true},
		{`{"inject":{"content":"stale five"},"sequence":5}`, false},
		{`{"inject":{"content":"stale four"},"sequence":4}`, false},
		{`{"inject":{"content":"six"},"sequence":6}`, true},
		{`{"inject":{"content":"unnumbered"}}`, true},
	} {
		e.writePayload(CodexPayload, c.payload)
		p := e.takePayload(CodexPayload, "Bash", t0.Add(time.Duration(i)*time.Second))
		if (p != nil) != c.take {
			t.Fatalf("%s: part %+v", c.payload, p)
		}
		p.Settle(true)
		if pathExists(t, e.payloadFile(CodexPayload)) {
			t.Errorf("%s: left in place", c.payload)
		}
	}
	if n := e.notes.String(); !strings.Contains(n, "dropped sequence 5, not above the last one delivered (5): a duplicate") ||
		!strings.Contains(n, "dropped sequence 4") {
		t.Errorf("notes %q", n)
	}
	// A new session (a new MassGen run) numbers from 1 again.
	e.writePayload(CodexPayload, `{"inject":{"content":"new run"},"sequence":1}`)
	if p, err := e.ib.TakeMassGen(e.project, CodexPayload, "Bash", "s2", t0, MaxText); err != nil || p == nil {
		t.Errorf("a new session's payload: %+v, %v", p, err)
	}
}

// TestPayloadInvalid: a file that does not parse, has no content, or names
// an unknown strategy or a bad matcher is left in place with an error.
func TestPayloadInvalid(t *testing.T) {
	for _, c := range []struct{ payload, want string }{
		{`{"inject":`, "unexpected end of JSON input; left in place"},
		{`{"inject":{"content":"x","strategy":"shout"}}`, `inject.strategy "shout"; left in place`},
		{`{"inject":{"content":""}}`, "no inject.content; left in place"},
		{`{"inject":{"content":"x"},"tool_matcher":"Edit["}`, "tool_matcher:"},
		{`{"inject":{"content":"x"},"sequence":"one"}`, "left in place"},
	} {
		e := newEnv(t)
		e.writePayload(CodexPayload, c.payload)
		_, err := e.ib.TakeMassGen(e.project, CodexPayload, "Bash", "s1", t0, MaxText)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), CodexFile) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.payload, err, CodexFile, c.want)
		}
		e.fileHolds(CodexPayload, c.payload)
	}
}

// TestPayloadReplacedWhileDelivered: MassGen writes a new payload while the
// last one is handed over; the new one is never removed with the old.
func TestPayloadReplacedWhileDelivered(t *testing.T) {
	e := newEnv(t)
	e.writePayload(CodexPayload, `{"inject":{"content":"first"},"sequence":1}`)
	p := e.takePayload(CodexPayload, "Bash", t0)
	second := `{"inject":{"content":"second"},"sequence":2}`
	e.writePayload(CodexPayload, second)
	p.Settle(true)
	e.fileHolds(CodexPayload, second)
	if p := e.takePayload(CodexPayload, "Bash", t0.Add(time.Second)); p == nil || p.Text != "second" {
		t.Errorf("the new payload: %+v", p)
	}
	if entries, _ := os.ReadDir(filepath.Dir(e.payloadFile(CodexPayload))); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
}

// TestPayloadConsumedByMassGen: MassGen's own reader takes the file while
// a part of it is handed over: nothing more is delivered, nothing fails.
func TestPayloadConsumedByMassGen(t *testing.T) {
	e := newEnv(t)
	content := strings.Repeat("x", 9000)
	e.writePayload(CodexPayload, fmt.Sprintf(`{"inject":{"content":%q},"sequence":1}`, content))
	p := e.takePayload(CodexPayload, "Bash", t0)
	if err := os.Remove(e.payloadFile(CodexPayload)); err != nil {
		t.Fatal(err)
	}
	p.Settle(true)
	if p := e.takePayload(CodexPayload, "Bash", t0.Add(time.Second)); p != nil {
		t.Errorf("delivered after MassGen took the file: %+v", p)
	}
	if n := e.notes.String(); n != "" {
		t.Errorf("notes %q", n)
	}
}

// TestPayloadGemini: Gemini CLI's file is taken after a tool (event
// AfterTool, or none); a BeforeTool payload is left to MassGen's script.
func TestPayloadGemini(t *testing.T) {
	e := newEnv(t)
	before := `{"inject":{"content":"before"},"event":"BeforeTool","tool_matcher":"*","sequence":1}`
	e.writePayload(GeminiPayload, before)
	if p := e.takePayload(GeminiPayload, "run_shell_command", t0); p != nil {
		t.Errorf("a BeforeTool payload was taken after a tool: %+v", p)
	}
	e.fileHolds(GeminiPayload, before)
	e.writePayload(GeminiPayload, `{"inject":{"content":"after","strategy":"tool_result"},"event":"AfterTool","tool_matcher":"*","sequence":2}`)
	p := e.takePayload(GeminiPayload, "run_shell_command", t0)
	if p == nil || p.Text != "after" {
		t.Fatalf("AfterTool payload: %+v", p)
	}
	p.Settle(true)
	if pathExists(t, e.payloadFile(GeminiPayload)) {
		t.Error("delivered, but the Gemini file is still there")
	}
}

// TestPayloadConcurrent: hooks of parallel tool calls never hand one part
// over twice.
func TestPayloadConcurrent(t *testing.T) {
	e := newEnv(t)
	const rounds, hooks = 20, 6
	for round := range rounds {
		e.writePayload(CodexPayload, fmt.Sprintf(`{"inject":{"content":"round %d"},"sequence":%d}`, round, round+1))
		var wg sync.WaitGroup
		start := make(chan struct{})
		parts := make(chan *PayloadPart, hooks)
		for range hooks {
			ib := e.other()
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				p, err := ib.TakeMassGen(e.project, CodexPayload, "Bash", "s1", t0.Add(time.Duration(round)*time.Second), MaxText)
				if err != nil {
					t.Error(err)
				}
				parts <- p
			}()
		}
		close(start)
		wg.Wait()
		close(parts)
		n := 0
		for p := range parts {
			if p != nil {
				n++
				p.Settle(true)
			}
		}
		if n != 1 {
			t.Errorf("round %d: handed over %d times", round, n)
		}
	}
	if n := e.notes.String(); n != "" {
		t.Errorf("notes: %q", n)
	}
}
