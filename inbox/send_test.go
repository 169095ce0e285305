package inbox

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/state"
)

// TestSendRejects: each draft that could not be delivered as given is a
// *DraftError saying what is wrong, and nothing is written: not even the
// inbox folder.
func TestSendRejects(t *testing.T) {
	long := strings.Repeat("a", MaxText+1)
	emoji := strings.Repeat("😀", MaxText/2+1) // 3001 emoji: 6002 UTF-16 units, 3001 runes
	cases := []struct {
		name string
		d    Draft
		want string
	}{
		{"empty", Draft{To: []string{"b"}, Text: ""}, "the message is empty"},
		{"blank", Draft{To: []string{"b"}, Text: " \n\t \r\n"}, "the message is empty"},
		{"too long", Draft{To: []string{"b"}, Text: long}, "the message is 6001 characters; at most 6000 fit whole"},
		{"emoji count two", Draft{To: []string{"b"}, Text: emoji}, "the message is 6002 characters; at most 6000"},
		{"unknown source", Draft{To: []string{"b"}, Source: "robot", Text: "hi"}, `--source "robot": want one of [human peer subagent background system]`},
		{"unknown strategy", Draft{To: []string{"b"}, Strategy: "inline", Text: "hi"}, `--strategy "inline": want tool_result or user_message`},
		{"unclosed bracket matcher", Draft{To: []string{"b"}, Matcher: "Edit[", Text: "hi"}, `--matcher "Edit[":`},
		{"stray bar matcher", Draft{To: []string{"b"}, Matcher: "Write|", Text: "hi"}, `--matcher "Write|":`},
		{"bad regexp matcher", Draft{To: []string{"b"}, Matcher: "re:(", Text: "hi"}, `--matcher "re:(":`},
		{"workspace without from", Draft{To: []string{"b"}, Source: Peer, Workspace: t.TempDir(), Text: "hi"}, "--workspace needs --from"},
		{"negative ttl", Draft{To: []string{"b"}, TTL: -time.Second, Text: "hi"}, "--ttl -1s: a time to live cannot be negative"},
		{"empty to", Draft{To: []string{""}, Text: "hi"}, "--to: an agent name cannot be empty"},
		{"blank to", Draft{To: []string{"b", "  "}, Text: "hi"}, "--to: an agent name cannot be empty"},
		{"nul in to", Draft{To: []string{"a\x00b"}, Text: "hi"}, `--to "a\x00b": an agent name cannot hold NUL or line breaks`},
		{"newline in to", Draft{To: []string{"a\nb"}, Text: "hi"}, `--to "a\nb": an agent name cannot hold NUL or line breaks`},
		{"carriage return in from", Draft{From: "a\rb", Text: "hi"}, `--from "a\rb": an agent name cannot hold NUL or line breaks`},
		{"newline in from", Draft{From: "x\ny", Text: "hi"}, `--from "x\ny": an agent name cannot hold NUL or line breaks`},
		{"long to", Draft{To: []string{strings.Repeat("n", 201)}, Text: "hi"}, "--to: an agent name is at most 200 bytes"},
		{"traversal to", Draft{To: []string{"../../etc"}, Text: "hi"}, `--to "../../etc": an agent name is not a path (no /, \, . or ..)`},
		{"dotdot to", Draft{To: []string{".."}, Text: "hi"}, `--to "..": an agent name is not a path (no /, \, . or ..)`},
		{"dot from", Draft{From: ".", Source: Peer, Text: "hi"}, `--from ".": an agent name is not a path (no /, \, . or ..)`},
		{"backslash from", Draft{From: `a\b`, Source: Peer, Text: "hi"}, `--from "a\\b": an agent name is not a path (no /, \, . or ..)`},
		{"slash from", Draft{From: "x/y", Source: Peer, Text: "hi"}, `--from "x/y": an agent name is not a path (no /, \, . or ..)`},
		{"comma to", Draft{To: []string{"a,b"}, Text: "hi"}, `--to "a,b": an agent name has no comma; repeat --to for several agents`},
		{"space to", Draft{To: []string{"a b"}, Text: "hi"}, `--to "a b": an agent name has no spaces or control characters; repeat --to for several agents`},
		{"tab from", Draft{From: "a\tb", Source: Peer, Text: "hi"}, `--from "a\tb": an agent name has no spaces or control characters; repeat --from for several agents`},
		{"escape to", Draft{To: []string{"a\x1bb"}, Text: "hi"}, `--to "a\x1bb": an agent name has no spaces or control characters; repeat --to for several agents`},
		{"invalid utf-8 to", Draft{To: []string{"a\xffb"}, Text: "hi"}, `--to "a\xffb": an agent name must be UTF-8`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			m, err := e.ib.Send(c.d, t0)
			var de *DraftError
			if !errors.As(err, &de) {
				t.Fatalf("Send: got %v (%T), message %v; want a *DraftError", err, err, m)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
			if m != nil {
				t.Errorf("Send returned message %+v with the error", m)
			}
			if pathExists(t, e.inboxPath()) {
				t.Errorf("a rejected draft created the inbox:\n%s", tree(t, e.st.Path))
			}
		})
	}
}

// TestSendTextLimitUTF16: the limit is in UTF-16 units: 3000 emoji (6000
// units) and 6000 two-byte letters (12000 bytes) both fit.
func TestSendTextLimitUTF16(t *testing.T) {
	for _, text := range []string{strings.Repeat("😀", MaxText/2), strings.Repeat("é", MaxText), strings.Repeat("a", MaxText)} {
		e := newEnv(t)
		m, err := e.ib.Send(Draft{To: []string{"b"}, Text: text}, t0)
		if err != nil {
			t.Fatalf("Send of %d bytes: %v", len(text), err)
		}
		if m.Text != text {
			t.Errorf("text changed on send")
		}
	}
}

// TestSendDefaults: source human, strategy by source, a broadcast lives
// DefaultBroadcastTTL, a targeted message never expires, --ttl is counted
// from the send, duplicates in To are dropped (order kept).
func TestSendDefaults(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{To: []string{"b", "c", "b", "c", "d"}, Text: "hello"}, t0)
	if m.Source != Human || m.Strategy != UserMessage {
		t.Errorf("source %q strategy %q, want human / user_message", m.Source, m.Strategy)
	}
	if !reflect.DeepEqual(m.To, []string{"b", "c", "d"}) {
		t.Errorf("To = %q, want [b c d]", m.To)
	}
	if m.ExpiresAt != nil {
		t.Errorf("targeted message expires at %v, want never", m.ExpiresAt)
	}
	if !m.SentAt.Equal(t0) || m.SentAt.Location() != time.UTC {
		t.Errorf("SentAt %v, want %v in UTC", m.SentAt, t0)
	}

	strategies := map[string]string{Human: UserMessage, System: UserMessage, Peer: ToolResult, Subagent: ToolResult, Background: ToolResult}
	for src, want := range strategies {
		m := e.send(Draft{To: []string{"b"}, Source: src, Text: "x"}, t0)
		if m.Strategy != want {
			t.Errorf("source %s: strategy %q, want %q", src, m.Strategy, want)
		}
		// An explicit strategy wins.
		other := map[string]string{UserMessage: ToolResult, ToolResult: UserMessage}[want]
		m = e.send(Draft{To: []string{"b"}, Source: src, Strategy: other, Text: "x"}, t0)
		if m.Strategy != other {
			t.Errorf("source %s with --strategy %s: got %q", src, other, m.Strategy)
		}
	}

	b := e.send(Draft{Text: "everyone"}, t0)
	if !b.Broadcast() || b.ExpiresAt == nil || !b.ExpiresAt.Equal(t0.Add(DefaultBroadcastTTL)) {
		t.Errorf("broadcast expires at %v, want %v", b.ExpiresAt, t0.Add(DefaultBroadcastTTL))
	}
	if DefaultBroadcastTTL != time.Hour {
		t.Errorf("DefaultBroadcastTTL = %v, want 1h (send's help says so)", DefaultBroadcastTTL)
	}
	b = e.send(Draft{Text: "everyone", TTL: 5 * time.Minute}, t0)
	if b.ExpiresAt == nil || !b.ExpiresAt.Equal(t0.Add(5*time.Minute)) {
		t.Errorf("broadcast --ttl 5m expires at %v", b.ExpiresAt)
	}
	m = e.send(Draft{To: []string{"b"}, TTL: 10 * time.Minute, Text: "soon"}, t0)
	if m.ExpiresAt == nil || !m.ExpiresAt.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("targeted --ttl 10m expires at %v", m.ExpiresAt)
	}
}

// TestSendWritesMessageAndTokens: the message file holds what Send
// returned; each named recipient has a pending token, a broadcast one
// shared token.
func TestSendWritesMessageAndTokens(t *testing.T) {
	e := newEnv(t)
	m := e.send(Draft{To: []string{"agent_b", "plugin:reviewer"}, From: "agent_a", Matcher: "Bash|Read", Text: "look"}, t0)
	data, err := os.ReadFile(e.inboxPath(messagesDir, m.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk Message
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&onDisk, m) {
		t.Errorf("on disk %+v\nreturned %+v", onDisk, *m)
	}
	for _, to := range []string{"agent_b", "plugin:reviewer"} {
		if !pathExists(t, e.inboxPath(pendingDir, recipientKey(to), m.ID)) {
			t.Errorf("no pending token for %s", to)
		}
	}
	if recipientKey("plugin:reviewer") == "plugin:reviewer" || !strings.HasPrefix(recipientKey("plugin:reviewer"), "h-") {
		t.Errorf("a name with ':' must be hashed into its folder name, got %q", recipientKey("plugin:reviewer"))
	}
	if pathExists(t, e.inboxPath(pendingAll, m.ID)) {
		t.Error("a targeted message has a broadcast token")
	}
	b := e.send(Draft{Text: "all"}, t0)
	if !pathExists(t, e.inboxPath(pendingAll, b.ID)) {
		t.Error("no broadcast token")
	}
	// Nothing else was left behind: no temporary files.
	entries, _ := os.ReadDir(e.inboxPath(messagesDir))
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	sort.Strings(names)
	want := []string{m.ID + ".json", b.ID + ".json"}
	sort.Strings(want)
	if !sameStrings(names, want) {
		t.Errorf("messages/ holds %q, want %q", names, want)
	}
}

// TestSendIDs: ids have the documented shape (UTC send time to the
// nanosecond, random hex), are unique, and sort in the order the sends
// were made, even when the clock goes back between them: such a send is
// given the last id's time plus a nanosecond.
func TestSendIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	paris := time.FixedZone("CET", 3600)
	times := []time.Time{t0, t0.Add(time.Nanosecond), t0.Add(time.Second).In(paris), t0.Add(999 * time.Millisecond), t0.Add(2 * time.Second)}
	var got []string
	for _, at := range times {
		m := e.send(Draft{To: []string{"b"}, Text: "x"}, at)
		if !ValidID(m.ID) {
			t.Errorf("id %q does not have the id shape", m.ID)
		}
		got = append(got, m.ID)
	}
	for i, want := range []string{
		"20261120T100000.000000000Z-",
		"20261120T100000.000000001Z-",
		"20261120T100001.000000000Z-", // CET in, UTC out
		"20261120T100001.000000001Z-", // the clock went back: after the last
		"20261120T100002.000000000Z-",
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("id %d is %q, want prefix %q", i, got[i], want)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("id order %q is not send order", got)
	}
	// Many sends at the same instant get distinct ids.
	seen := map[string]bool{}
	for range 200 {
		m := e.send(Draft{To: []string{"b"}, Text: "x"}, t0)
		if seen[m.ID] {
			t.Fatalf("id %s given twice", m.ID)
		}
		seen[m.ID] = true
	}
	for _, bad := range []string{"", "../x", "20261120T100000.000000000Z-0000000g", "20261120T100000.000000000Z-000000001", "20261120T100000Z-00000000", "20261120T100000.000000000Z-00000000.json"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

// TestOwnerOnly: every folder and file under the runtime directory, after
// sends (with a workspace snapshot), deliveries (workspace copies, aliases,
// receipts), a late delivery and a Codex import, is owner-only, even with
// a umask of 0.
func TestOwnerOnly(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "a.txt"), "A")
	writeFile(t, filepath.Join(ws, "sub", "b.sh"), "#!/bin/sh")
	if err := os.Chmod(filepath.Join(ws, "sub", "b.sh"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(ws, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "see " + ws + "/a.txt"}, t0)
	e.send(Draft{To: []string{"agent_b"}, Text: "hi"}, t0)
	e.send(Draft{To: []string{"agent_c"}, TTL: time.Minute, Text: "late"}, t0)
	for _, r := range []string{"agent_b", "agent_c"} {
		b := e.take(e.ib, r, "Bash", t0.Add(2*time.Minute), 8000)
		if b.Empty() {
			t.Fatalf("nothing delivered to %s", r)
		}
		b.Settle(true)
	}
	late := e.takeLate(e.ib, "agent_c", t0.Add(3*time.Minute), 8000)
	if late.Empty() {
		t.Fatal("no late message for agent_c")
	}
	late.Settle(true)
	writeFile(t, filepath.Join(e.project, CodexFile), `{"inject":{"content":"codex says hi"},"tool_matcher":"*","sequence":1}`)
	p, err := e.ib.TakeMassGen(e.project, CodexPayload, "Bash", "s1", t0.Add(4*time.Minute), MaxText)
	if err != nil || p == nil {
		t.Fatalf("MassGen payload: %+v, %v", p, err)
	}
	p.Settle(true)

	n := 0
	err = filepath.WalkDir(e.st.Path, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n++
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v, want owner-only", path, info.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		e.inboxPath(snapshotsDir),
		filepath.Join(e.st.Path, WorkspacesDir, "agent_b", "agent1", "sub", "b.sh"),
		filepath.Join(e.st.Path, WorkspacesDir, "agent_c", "agent1", "a.txt"),
		e.inboxPath(seenDir, "agent_b.json"),
		e.inboxPath("peers.json"),
		filepath.Join(e.st.Path, filepath.FromSlash(state.SessionRecord("s1", massgenRecordName))),
	} {
		if !pathExists(t, want) {
			t.Errorf("%s was not made; the mode check missed it", want)
		}
	}
	if n < 30 {
		t.Errorf("only %d paths checked", n)
	}
}

// TestSendToStar: "*" is how the inbox lists every agent (a broadcast's
// pending_for); `send --to '*'` must not queue a message for an agent
// literally called "*" that no hook will ever be, listed as pending for
// every agent: it is refused, or it is a broadcast.
func TestSendToStar(t *testing.T) {
	e := newEnv(t)
	m, err := e.ib.Send(Draft{To: []string{"*"}, Text: "to all?"}, t0)
	var de *DraftError
	if errors.As(err, &de) {
		return // refused: fine
	}
	if err != nil {
		t.Fatal(err)
	}
	// Regression, a bug found and fixed: message.go ValidName accepts "*", so this queues a targeted
	// message for a recipient named "*": no agent gets it (agent_b's Take
	// below is empty) while `massgen-hook inbox` shows it pending for
	// "every agent", exactly like a live broadcast, until it is pruned.
	// Fix: refuse "*" (and other glob characters) in ValidName for --to,
	// or treat --to '*' as a broadcast.
	if !m.Broadcast() {
		b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
		t.Errorf("--to '*' queued a message for an agent named %q (agent_b got %d messages), listed as pending for %q", m.To, len(ids(b)), e.status(m.ID, t0).PendingFor)
	}
}
