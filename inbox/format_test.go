package inbox

import (
	"strings"
	"testing"
)

// massgenAction is the end of MassGen's peer-answer injection (voting
// mode), verbatim.
const massgenAction = `============================================================
REQUIRED ACTION - You MUST do one of the following:
============================================================

1. **ADD A TASK** to your plan: 'Evaluate agent answer(s) and decide next action'
   - Use update_task_status or create a new task to track this evaluation
   - Read their workspace files (paths above) to understand their solution
   - Compare their approach to yours

2. **THEN CHOOSE ONE**:
   a) VOTE for their answer if it's complete and correct (use vote tool)
   b) BUILD on their work - improve/extend it and submit YOUR enhanced answer
   c) MERGE approaches - combine the best parts of their work with yours
   d) CONTINUE your own approach if you believe it's better

DO NOT ignore this update - you must explicitly evaluate and decide!
============================================================`

func item(source, strategy, sender, text, workspace string) Item {
	return Item{Message: &Message{Source: source, Strategy: strategy, From: sender, Text: text}, Sender: sender, Text: text, Workspace: workspace}
}

func peerItem(sender, label, old string, update bool, text, workspace string) Item {
	it := item(Peer, ToolResult, sender, text, workspace)
	it.Label, it.OldLabel, it.Update = label, old, update
	return it
}

// TestPeerBannerMassGen: one new answer renders as MassGen's injection:
// the banner with two spaces after the sign, the header with the answer's
// label, the label-update block, the answer indented under its id and
// workspace.
func TestPeerBannerMassGen(t *testing.T) {
	b := &Batch{Items: []Item{peerItem("agent1", "agent1.1", "", false, "I've implemented the authentication module...\n", "/path/to/temp_workspaces/agent_b/agent1")}}
	want := `============================================================
⚠️  IMPORTANT: NEW ANSWER RECEIVED - ACTION REQUIRED
============================================================

[UPDATE: agent1 (agent1.1) submitted new answer(s)]

ANSWER LABEL UPDATES:
  - agent1: now available as agent1.1

  [agent1] (workspace: /path/to/temp_workspaces/agent_b/agent1):
    I've implemented the authentication module...

` + massgenAction
	ps := b.Parts()
	if len(ps) != 1 || ps[0].Strategy != ToolResult || ps[0].Text != want {
		t.Errorf("peer banner:\n%s\n\nwant MassGen's:\n%s", ps[0].Text, want)
	}
}

// TestPeerBannerHeaders: new answers and updates in one injection; an
// answer without a label (sent before labels were kept), workspace or
// sender still renders.
func TestPeerBannerHeaders(t *testing.T) {
	cases := []struct {
		items        []Item
		header, left string
	}{
		{[]Item{peerItem("agent2", "agent2.2", "agent2.1", true, "v2", "")},
			"[UPDATE: agent2 (agent2.1 -> agent2.2) updated their answer(s)]", "  - agent2: agent2.1 -> agent2.2"},
		{[]Item{peerItem("agent1", "agent1.1", "", false, "a", ""), peerItem("agent3", "agent3.4", "agent3.2", true, "c", "")},
			"[UPDATE: agent1 (agent1.1) submitted new answer(s); agent3 (agent3.2 -> agent3.4) updated their answer(s)]",
			"  - agent1: now available as agent1.1\n  - agent3: agent3.2 -> agent3.4"},
		{[]Item{peerItem("agent1", "", "", false, "a", ""), peerItem("", "", "", false, "b", "")},
			"[UPDATE: agent1, an agent submitted new answer(s)]", "  - (no label change details available)"},
		{[]Item{peerItem("agent1", "", "agent1.1", true, "a", "")},
			"[UPDATE: agent1 updated their answer(s)]", "  - (no label change details available)"},
	}
	for _, c := range cases {
		got := (&Batch{Items: c.items}).Parts()[0].Text
		want := peerBanner + "\n" + c.header + "\n\nANSWER LABEL UPDATES:\n" + c.left + "\n\n"
		if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\n\n"+massgenAction) {
			t.Errorf("got\n%s\nwant it to start\n%s", got, want)
		}
	}
}

// TestPeerAnswerCut: MassGen cuts an answer at 500 characters (runes, as
// Python counts) and adds "..."; 500 exactly is not cut.
func TestPeerAnswerCut(t *testing.T) {
	exact := strings.Repeat("é", 500)
	if got := cutAnswer(exact); got != exact {
		t.Errorf("500 characters cut: %q", got)
	}
	long := strings.Repeat("é", 499) + "€x"
	if got, want := cutAnswer(long), strings.Repeat("é", 499)+"€..."; got != want {
		t.Errorf("501 characters: %q, want %q", got, want)
	}
	b := &Batch{Items: []Item{peerItem("agent1", "agent1.1", "", false, "line one\nline two\n", "")}}
	if got := b.Parts()[0].Text; !strings.Contains(got, "  [agent1]:\n    line one\nline two\n\n"+rule) {
		t.Errorf("only the first line is indented, as MassGen does: %q", got)
	}
}

// TestRenderSources: human input, subagent and background results and
// system notices each in their form; trailing newlines trimmed.
func TestRenderSources(t *testing.T) {
	cases := []struct {
		items []Item
		want  string
	}{
		{[]Item{item(Human, UserMessage, "", "Use PostgreSQL.\n\n", ""), item(Human, UserMessage, "alice", "Not SQLite.", "")},
			"[Human Input]: Use PostgreSQL.\n[Human Input]: Not SQLite."},
		{[]Item{item(Subagent, ToolResult, "research", "found it\n", ""), item(Subagent, ToolResult, "", "second", "")},
			"[BACKGROUND SUBAGENT RESULTS: 2 completed]\n\n[research]:\nfound it\n\n[subagent]:\nsecond"},
		{[]Item{item(Background, ToolResult, "test-run", "tests passed", "")},
			"[BACKGROUND TOOL RESULTS: 1 completed]\n\n[test-run]:\ntests passed"},
		{[]Item{item(Background, ToolResult, "", "done", "")},
			"[BACKGROUND TOOL RESULTS: 1 completed]\n\n[background job]:\ndone"},
		{[]Item{item(System, UserMessage, "massgen", "one\n", ""), item(System, UserMessage, "", "two", "")},
			"one\n\ntwo"},
	}
	for _, c := range cases {
		b := &Batch{Items: c.items}
		ps := b.Parts()
		if len(ps) != 1 || ps[0].Text != c.want || ps[0].Strategy != c.items[0].Message.Strategy {
			t.Errorf("%s: parts %q, want one %s part %q", c.items[0].Message.Source, ps, c.items[0].Message.Strategy, c.want)
		}
	}
}

// TestPartsGrouping: consecutive messages of one source and strategy share
// a part; a change of either starts a new one, keeping its own strategy
// (never the last one's); order is kept.
func TestPartsGrouping(t *testing.T) {
	b := &Batch{Items: []Item{
		item(Peer, ToolResult, "agent1", "p1", ""),
		item(Peer, ToolResult, "agent2", "p2", ""),
		item(Human, UserMessage, "", "h1", ""),
		item(Human, ToolResult, "", "h2", ""),
		item(Human, ToolResult, "", "h3", ""),
		item(Subagent, ToolResult, "s", "s1", ""),
		item(Background, ToolResult, "j", "b1", ""),
		item(Peer, UserMessage, "agent1", "p3", ""),
		item(System, UserMessage, "", "sys", ""),
	}}
	ps := b.Parts()
	wantStrategies := []string{ToolResult, UserMessage, ToolResult, ToolResult, ToolResult, UserMessage, UserMessage}
	wantHas := []string{"  [agent1]:\n    p1\n\n  [agent2]:\n    p2\n", "[Human Input]: h1", "[Human Input]: h2\n[Human Input]: h3", "[s]:\ns1", "[j]:\nb1", "  [agent1]:\n    p3", "sys"}
	if len(ps) != len(wantStrategies) {
		t.Fatalf("%d parts, want %d: %q", len(ps), len(wantStrategies), ps)
	}
	for i, p := range ps {
		if p.Strategy != wantStrategies[i] || !strings.Contains(p.Text, wantHas[i]) {
			t.Errorf("part %d: %s %q, want %s containing %q", i, p.Strategy, p.Text, wantStrategies[i], wantHas[i])
		}
	}
	if (&Batch{}).Parts() != nil {
		t.Error("an empty batch has parts")
	}
}

// TestBatchText: a late batch's text is its header, then its parts.
func TestBatchText(t *testing.T) {
	b := &Batch{Items: []Item{item(Human, UserMessage, "", "h1", ""), item(Background, ToolResult, "ci", "green", "")}}
	want := "Messages sent to you that expired before a tool call could deliver them (massgen-hook inbox). Read them now; act on any that still matter:\n\n" +
		"[Human Input]: h1\n\n[BACKGROUND TOOL RESULTS: 1 completed]\n\n[ci]:\ngreen"
	if got := b.Text(); got != want {
		t.Errorf("Text:\n%q\nwant\n%q", got, want)
	}
}

// TestDeliveredPeerRenders: end to end, a peer answer taken from the
// inbox renders with its roster id, its label and the recipient's copy
// path; the real id in the text stays, as in MassGen.
func TestDeliveredPeerRenders(t *testing.T) {
	e := newEnv(t)
	ws := t.TempDir()
	writeFile(t, ws+"/auth.py", "x")
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "agent_a implemented the authentication module in " + ws + "/auth.py"}, t0)
	b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
	ps := b.Parts()
	cp := e.st.Path + "/" + WorkspacesDir + "/agent_b/agent1"
	want := peerBanner + "\n[UPDATE: agent1 (agent1.1) submitted new answer(s)]\n\nANSWER LABEL UPDATES:\n  - agent1: now available as agent1.1\n\n" +
		"  [agent1] (workspace: " + cp + "):\n    agent_a implemented the authentication module in " + cp + "/auth.py\n\n" + massgenAction
	if len(ps) != 1 || ps[0].Text != want || ps[0].Strategy != ToolResult {
		t.Errorf("got %q\nwant %q", ps, want)
	}
}
