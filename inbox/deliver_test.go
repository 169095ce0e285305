package inbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTakeOldestFirst: one recipient's targeted messages and the live
// broadcasts come in send order, interleaved.
func TestTakeOldestFirst(t *testing.T) {
	e := newEnv(t)
	e.send(Draft{To: []string{"c"}, Text: "not for b"}, t0)
	e.send(Draft{Text: "one"}, t0.Add(time.Second))
	e.send(Draft{To: []string{"b"}, Text: "two"}, t0.Add(2*time.Second))
	e.send(Draft{Text: "three"}, t0.Add(3*time.Second))
	e.send(Draft{To: []string{"b"}, Text: "four"}, t0.Add(4*time.Second))
	b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"one", "two", "three", "four"}) {
		t.Errorf("b got %q, want [one two three four]", got)
	}
	if b.To != "b" {
		t.Errorf("batch To %q", b.To)
	}
}

// TestTakeEmpty: nothing queued is a nil or empty batch, no error, and no
// inbox folder is made.
func TestTakeEmpty(t *testing.T) {
	e := newEnv(t)
	b := e.take(e.ib, "b", "Bash", t0, 8000)
	if !b.Empty() {
		t.Errorf("got %q from an empty inbox", texts(b))
	}
	b.Settle(true) // must not panic on nil
	if pathExists(t, e.inboxPath()) {
		t.Error("Take on an empty inbox created it")
	}
	l := e.takeLate(e.ib, "b", t0, 8000)
	if !l.Empty() {
		t.Error("TakeLate on an empty inbox returned something")
	}
}

// TestTakeMatcher: a message whose matcher misses the tool stays pending,
// without holding back later messages; a later matching tool gets it.
func TestTakeMatcher(t *testing.T) {
	e := newEnv(t)
	edit := e.send(Draft{To: []string{"b"}, Matcher: "Write|Edit", Text: "after an edit"}, t0)
	mcp := e.send(Draft{To: []string{"b"}, Matcher: "mcp__*", Text: "after mcp"}, t0.Add(time.Second))
	any := e.send(Draft{To: []string{"b"}, Text: "any tool"}, t0.Add(2*time.Second))

	b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"any tool"}) {
		t.Fatalf("after Bash: %q, want [any tool]", got)
	}
	b.Settle(true)
	for _, m := range []*Message{edit, mcp} {
		if s := e.status(m.ID, t0.Add(time.Minute)); !sameStrings(s.PendingFor, []string{"b"}) || len(s.Delivered) != 0 {
			t.Errorf("%s after a miss: pending %q delivered %v, want pending for b", m.Text, s.PendingFor, s.Delivered)
		}
	}
	if s := e.status(any.ID, t0.Add(time.Minute)); len(s.PendingFor) != 0 || !sameStrings(recipients(s.Delivered), []string{"b"}) {
		t.Errorf("any tool: pending %q delivered %v", s.PendingFor, s.Delivered)
	}
	// "mcp__*" is a glob: not a prefix of "xmcp__", matches "mcp__fs__read".
	if got := texts(e.take(e.ib, "b", "xmcp__fs__read", t0.Add(time.Minute), 8000)); len(got) != 0 {
		t.Errorf("xmcp__fs__read got %q", got)
	}
	if got := texts(e.take(e.ib, "b", "NotebookEdit", t0.Add(time.Minute), 8000)); len(got) != 0 {
		t.Errorf("NotebookEdit got %q: the matcher is anchored", got)
	}
	b = e.take(e.ib, "b", "Edit", t0.Add(2*time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"after an edit"}) {
		t.Errorf("after Edit: %q", got)
	}
	b.Settle(true)
	b = e.take(e.ib, "b", "mcp__fs__read", t0.Add(2*time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"after mcp"}) {
		t.Errorf("after mcp__fs__read: %q", got)
	}
	b.Settle(true)
	if got := texts(e.take(e.ib, "b", "Edit", t0.Add(3*time.Minute), 8000)); len(got) != 0 {
		t.Errorf("delivered twice: %q", got)
	}
}

// TestTakeBudget: a backlog bigger than the budget is split across calls,
// oldest first, whole messages only, at least one per call; sizes are
// UTF-16 units (an emoji counts 2).
func TestTakeBudget(t *testing.T) {
	cases := []struct {
		name  string
		unit  string // 1500 of these make one message
		split []int  // messages per call
	}{
		// 1500 ASCII = 1500 units, cost 1700: four fit in 8000 (6800), five do not (8500).
		{"ascii", "a", []int{4, 1}},
		// 1500 emoji = 3000 units (6000 bytes, 1500 runes), cost 3200: two fit (6400), three do not (9600).
		{"emoji", "😀", []int{2, 2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			var want []string
			for i := range 5 {
				text := string(rune('A'+i)) + strings.Repeat(c.unit, 1499)
				want = append(want, text)
				e.send(Draft{To: []string{"b"}, Text: text}, t0.Add(time.Duration(i)*time.Second))
			}
			var got []string
			for call, n := range c.split {
				b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
				if len(ids(b)) != n {
					t.Fatalf("call %d: %d messages, want %d", call, len(ids(b)), n)
				}
				got = append(got, texts(b)...)
				b.Settle(true)
			}
			if !sameStrings(got, want) {
				t.Errorf("messages were cut, lost or reordered across calls")
			}
			if b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000); !b.Empty() {
				t.Errorf("%d left after the backlog", len(ids(b)))
			}
		})
	}
}

// TestTakeBudgetAtLeastOne: a budget smaller than any message still
// delivers one message per call, whole.
func TestTakeBudgetAtLeastOne(t *testing.T) {
	e := newEnv(t)
	big := strings.Repeat("x", MaxText)
	e.send(Draft{To: []string{"b"}, Text: big}, t0)
	e.send(Draft{To: []string{"b"}, Text: "small"}, t0.Add(time.Second))
	for i, want := range []string{big, "small"} {
		b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 10)
		if got := texts(b); len(got) != 1 || got[0] != want {
			t.Fatalf("call %d: %d messages (first %d bytes), want exactly one: %d bytes", i, len(got), len(strings.Join(got, "")), len(want))
		}
		b.Settle(true)
	}
}

// TestBroadcastOncePerRecipient: a broadcast goes once to each agent but
// its sender, also to the coordinator, and stays pending for the rest.
func TestBroadcastOncePerRecipient(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{From: "agent_a", Source: Peer, Text: "my answer"}, t0)
	if b := e.take(e.ib, "agent_a", "Bash", t0.Add(time.Second), 8000); !b.Empty() {
		t.Errorf("the sender got its own broadcast: %q", texts(b))
	}
	for _, r := range []string{"agent_b", "agent_c", Coordinator} {
		b := e.take(e.ib, r, "Bash", t0.Add(time.Second), 8000)
		if len(ids(b)) != 1 || b.Items[0].Message.ID != m.ID {
			t.Fatalf("%s got %q, want the broadcast", r, ids(b))
		}
		b.Settle(true)
		if again := e.take(e.ib, r, "Bash", t0.Add(2*time.Second), 8000); !again.Empty() {
			t.Errorf("%s got the broadcast twice", r)
		}
	}
	s := e.status(m.ID, t0.Add(3*time.Second))
	if !sameStrings(recipients(s.Delivered), []string{"agent_b", "agent_c", Coordinator}) {
		t.Errorf("delivered to %q", recipients(s.Delivered))
	}
	if !sameStrings(s.PendingFor, []string{"*"}) {
		t.Errorf("pending for %q, want [*] until it expires", s.PendingFor)
	}
	// A broadcast with no sender goes to everyone.
	n := e.send(Draft{Text: "from a person"}, t0)
	for _, r := range []string{"agent_a", Coordinator} {
		if b := e.take(e.ib, r, "Bash", t0.Add(time.Second), 8000); !sameStrings(ids(b), []string{n.ID}) {
			t.Errorf("%s got %q of a sender-less broadcast", r, ids(b))
		}
	}
}

func readReceiptFile(t *testing.T, path string) receipt {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r receipt
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("receipt %s: %v", data, err)
	}
	return r
}

// TestSettleConfirm: Settle(true) turns each claim into a delivered
// receipt (to, when, which hook, tool, session), removes a targeted
// message's token and keeps a broadcast's for the others.
func TestSettleConfirm(t *testing.T) {
	e := newEnv(t)
	tm := e.send(Draft{To: []string{"b"}, Text: "targeted"}, t0)
	bm := e.send(Draft{Text: "broadcast"}, t0.Add(time.Second))
	at := t0.Add(5 * time.Second)
	b := e.take(e.ib, "b", "Read", at, 8000)
	if len(ids(b)) != 2 {
		t.Fatalf("got %q", texts(b))
	}
	for _, id := range []string{tm.ID, bm.ID} {
		r := readReceiptFile(t, e.inboxPath(receiptsDir, id, "b.json"))
		if r.State != Claimed || r.To != "b" {
			t.Errorf("before Settle: receipt %+v, want claimed by b", r)
		}
	}
	b.Settle(true)
	for _, id := range []string{tm.ID, bm.ID} {
		r := readReceiptFile(t, e.inboxPath(receiptsDir, id, "b.json"))
		want := receipt{To: "b", State: Delivered, At: at, Via: Via{Event: "PostToolUse", Session: "s1", Tool: "Read"}}
		if !r.At.Equal(want.At) || r.To != want.To || r.State != want.State || r.Via != want.Via || r.Late {
			t.Errorf("receipt %+v, want %+v", r, want)
		}
	}
	if pathExists(t, e.inboxPath(pendingDir, "b", tm.ID)) {
		t.Error("the targeted token is still pending after delivery")
	}
	if !pathExists(t, e.inboxPath(pendingAll, bm.ID)) {
		t.Error("the broadcast token was removed after one delivery")
	}
	s := e.status(tm.ID, at)
	if len(s.PendingFor)+len(s.UndeliveredFor)+len(s.Claimed) != 0 || len(s.Delivered) != 1 || s.Delivered[0].Tool != "Read" || !s.Delivered[0].At.Equal(at) {
		t.Errorf("status %+v", s)
	}
}

// TestSettleRelease: Settle(false) releases the claims: the messages are
// pending again, nothing is recorded, and the next Take delivers them.
func TestSettleRelease(t *testing.T) {
	e := newEnv(t)
	tm := e.send(Draft{To: []string{"b"}, Text: "targeted"}, t0)
	bm := e.send(Draft{Text: "broadcast"}, t0.Add(time.Second))
	b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
	if len(ids(b)) != 2 {
		t.Fatalf("got %q", texts(b))
	}
	b.Settle(false)
	for _, id := range []string{tm.ID, bm.ID} {
		if pathExists(t, e.inboxPath(receiptsDir, id, "b.json")) {
			t.Errorf("receipt of %s kept after a release", id)
		}
		s := e.status(id, t0.Add(time.Minute))
		if len(s.Delivered)+len(s.Claimed) != 0 || len(s.PendingFor) != 1 {
			t.Errorf("after release: %+v", s)
		}
	}
	again := e.take(e.ib, "b", "Bash", t0.Add(2*time.Minute), 8000)
	if got := texts(again); !sameStrings(got, []string{"targeted", "broadcast"}) {
		t.Errorf("after a release the next Take got %q", got)
	}
	again.Settle(true)
	if got := texts(e.take(e.ib, "b", "Bash", t0.Add(3*time.Minute), 8000)); len(got) != 0 {
		t.Errorf("then again: %q", got)
	}
}

// TestTakeClaimed: a second Take (another hook, before the first settles)
// does not get what the first claimed, but gets what came after; the
// claim shows as claimed, not confirmed, until settled.
func TestTakeClaimed(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{To: []string{"b"}, Text: "first"}, t0)
	bm := e.send(Draft{Text: "broadcast"}, t0)
	first := e.take(e.ib, "b", "Bash", t0.Add(time.Second), 8000)
	if len(ids(first)) != 2 {
		t.Fatalf("first Take: %q", texts(first))
	}
	e.send(Draft{To: []string{"b"}, Text: "second"}, t0.Add(2*time.Second))
	other := e.other()
	second := e.take(other, "b", "Bash", t0.Add(3*time.Second), 8000)
	if got := texts(second); !sameStrings(got, []string{"second"}) {
		t.Errorf("second Take got %q, want only [second]", got)
	}
	for _, id := range []string{m.ID, bm.ID} {
		s := e.status(id, t0.Add(3*time.Second))
		if !sameStrings(recipients(s.Claimed), []string{"b"}) || len(s.Delivered) != 0 {
			t.Errorf("while claimed: claimed %v delivered %v", s.Claimed, s.Delivered)
		}
	}
	first.Settle(true)
	second.Settle(true)
	for _, id := range []string{m.ID, bm.ID} {
		s := e.status(id, t0.Add(4*time.Second))
		if len(s.Claimed) != 0 || !sameStrings(recipients(s.Delivered), []string{"b"}) {
			t.Errorf("after settle: claimed %v delivered %v", s.Claimed, s.Delivered)
		}
	}
}

// TestTakeStaleToken: a token left beside a delivered receipt (a hook
// stopped between the two steps) is not delivered again, and is cleaned.
func TestTakeStaleToken(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{To: []string{"b"}, Text: "once"}, t0)
	e.take(e.ib, "b", "Bash", t0, 8000).Settle(true)
	if err := touch(e.inboxPath(pendingDir, "b", m.ID)); err != nil {
		t.Fatal(err)
	}
	if s := e.status(m.ID, t0); len(s.PendingFor) != 0 {
		t.Errorf("a stale token shows as pending for %q", s.PendingFor)
	}
	if b := e.take(e.ib, "b", "Bash", t0.Add(time.Second), 8000); !b.Empty() {
		t.Errorf("delivered again: %q", texts(b))
	}
	if pathExists(t, e.inboxPath(pendingDir, "b", m.ID)) {
		t.Error("stale token not removed")
	}
}

// TestTakeCorruptMessage: a message file that does not parse, or holds
// another id, is noted and skipped; the others are delivered and the bad
// one stays where it was.
func TestTakeCorruptMessage(t *testing.T) {
	e := newEnv(t)
	e.send(Draft{To: []string{"b"}, Text: "one"}, t0)
	bad := e.send(Draft{To: []string{"b"}, Text: "two"}, t0.Add(time.Second))
	swapped := e.send(Draft{To: []string{"b"}, Text: "three"}, t0.Add(2*time.Second))
	e.send(Draft{To: []string{"b"}, Text: "four"}, t0.Add(3*time.Second))
	if err := os.WriteFile(e.inboxPath(messagesDir, bad.ID+".json"), []byte(`{"id":`), 0o600); err != nil {
		t.Fatal(err)
	}
	other, _ := json.Marshal(Message{ID: bad.ID, To: []string{"b"}, Source: Human, Strategy: UserMessage, Text: "forged"})
	if err := os.WriteFile(e.inboxPath(messagesDir, swapped.ID+".json"), other, 0o600); err != nil {
		t.Fatal(err)
	}
	b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"one", "four"}) {
		t.Errorf("got %q, want [one four]", got)
	}
	b.Settle(true)
	n := e.notes.String()
	if !strings.Contains(n, "message "+bad.ID+" is corrupt") || !strings.Contains(n, "message "+swapped.ID+" holds id \""+bad.ID+"\"") {
		t.Errorf("notes %q do not name both bad messages", n)
	}
	for _, id := range []string{bad.ID, swapped.ID} {
		if !pathExists(t, e.inboxPath(pendingDir, "b", id)) {
			t.Errorf("the token of bad message %s was dropped", id)
		}
	}
}

// TestTakeIgnoresStrays: files in the queue folders that are not tokens
// (temporary files, notes, folders, links) are ignored, not errors.
func TestTakeIgnoresStrays(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{To: []string{"b"}, Text: "real"}, t0)
	bm := e.send(Draft{Text: "real broadcast"}, t0)
	for _, p := range []string{
		e.inboxPath(pendingDir, "b", "README"),
		e.inboxPath(pendingDir, "b", ".tmp-123"),
		e.inboxPath(pendingDir, "b", m.ID+".json"),
		e.inboxPath(pendingAll, "zzz"),
		e.inboxPath(messagesDir, "notes.txt"),
		e.inboxPath(messagesDir, ".tmp-999"),
	} {
		writeFile(t, p, "stray")
	}
	// A folder and a symlink named like ids.
	dirID := "20261120T095959.000000000Z-0000000a"
	if err := os.MkdirAll(e.inboxPath(pendingDir, "b", dirID), 0o700); err != nil {
		t.Fatal(err)
	}
	linkID := "20261120T095959.000000000Z-0000000b"
	if err := os.Symlink(e.inboxPath(messagesDir, m.ID+".json"), e.inboxPath(pendingDir, "b", linkID)); err != nil {
		t.Fatal(err)
	}
	b := e.take(e.ib, "b", "Bash", t0.Add(time.Minute), 8000)
	if got := ids(b); !sameStrings(got, []string{m.ID, bm.ID}) && !sameStrings(got, []string{bm.ID, m.ID}) {
		t.Errorf("got %q, want the two real messages", got)
	}
	b.Settle(true)
	if n := e.notes.String(); n != "" {
		t.Errorf("strays were noted: %q", n)
	}
	if l := e.list(t0.Add(time.Minute)); len(l) != 2 {
		t.Errorf("List shows %d messages, want 2", len(l))
	}
}

// TestReadOnly: a dry run (explain) shows what would be delivered but
// claims, moves, copies and writes nothing: the runtime directory and the
// Codex file are byte-identical afterwards.
func TestReadOnly(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "f.txt"), "F")
	e.send(Draft{To: []string{"b"}, Text: "targeted"}, t0)
	e.send(Draft{Text: "broadcast", TTL: time.Hour}, t0.Add(time.Second))
	e.send(Draft{To: []string{"b"}, TTL: time.Minute, Text: "expired"}, t0.Add(2*time.Second))
	e.send(Draft{Text: "expired broadcast", TTL: time.Minute}, t0.Add(3*time.Second))
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "see " + ws + "/f.txt"}, t0.Add(4*time.Second))
	writeFile(t, filepath.Join(e.project, CodexFile), `{"inject":{"content":"codex"},"tool_matcher":"*","sequence":3}`)
	before := tree(t, e.project)

	ro := e.readOnly()
	at := t0.Add(2 * time.Minute)
	if p, err := ro.TakeMassGen(e.project, CodexPayload, "Bash", "s1", at, MaxText); err != nil || p != nil {
		t.Fatalf("a dry run takes MassGen's payload: %+v, %v", p, err)
	}
	b := e.take(ro, "b", "Bash", at, 8000)
	if got := texts(b); len(got) != 3 || got[0] != "targeted" || got[1] != "broadcast" || !strings.HasPrefix(got[2], "see ") || strings.Contains(got[2], ws) {
		t.Errorf("dry run shows %q, want targeted, broadcast and the peer answer with its path rewritten", got)
	}
	b.Settle(true)
	b = e.take(ro, "b", "Bash", at, 8000)
	b.Settle(false)
	l := e.takeLate(ro, "b", at, 8000)
	l.Settle(true)
	if _, err := ro.List(at); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, e.project); after != before {
		t.Errorf("a dry run changed the project:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// And for real, it was all still there to take.
	if got := texts(e.take(e.ib, "b", "Bash", at, 8000)); len(got) != 3 {
		t.Errorf("after the dry run, Take got %d messages, want 3", len(got))
	}
}
