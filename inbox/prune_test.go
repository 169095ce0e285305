package inbox

import (
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// TestPrune: Prune removes the messages sent before the cutoff that
// nothing waits for (with their receipts, snapshots and leftover tokens),
// and keeps pending, undelivered and claimed ones, and newer ones.
func TestPrune(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "f"), "x")
	at := t0.Add(10 * time.Minute)

	done := e.send(Draft{To: []string{"b"}, Text: "done"}, t0)
	pending := e.send(Draft{To: []string{"b"}, Matcher: "Edit", Text: "pending"}, t0)
	undelivered := e.send(Draft{To: []string{"c"}, TTL: time.Minute, Text: "undelivered"}, t0)
	claimed := e.send(Draft{To: []string{"d"}, Text: "claimed"}, t0)
	partly := e.send(Draft{To: []string{"b", "e"}, Text: "b has it, e not yet"}, t0)
	live := e.send(Draft{From: "d", TTL: 10 * time.Hour, Text: "live broadcast"}, t0)
	bdone := e.send(Draft{From: "d", TTL: time.Minute, Text: "broadcast that reached b"}, t0)
	bnobody := e.send(Draft{From: "b", TTL: 10 * time.Second, Text: "broadcast nobody got"}, t0) // expired before any Take
	peer := e.send(Draft{Source: Peer, From: "agent_a", To: []string{"b"}, Workspace: ws, Text: "peer"}, t0)
	newer := e.send(Draft{To: []string{"b"}, Matcher: "NoSuchTool", Text: "newer, done"}, t0.Add(2*time.Hour))

	e.take(e.ib, "b", "Bash", t0.Add(30*time.Second), 8000).Settle(true) // done, partly, live, bdone, peer
	e.take(e.ib, "d", "Bash", t0.Add(30*time.Second), 8000)              // claimed, never settled
	// newer: delivered too, by hand-settling a Take with its matcher.
	e.take(e.ib, "b", "NoSuchTool", t0.Add(2*time.Hour), 8000).Settle(true)
	if !pathExists(t, e.inboxPath(snapshotsDir, peer.ID)) {
		t.Fatal("no snapshot")
	}
	// A stale token of a delivered message (a hook stopped between its
	// steps) does not keep it.
	if err := touch(e.inboxPath(pendingDir, "b", done.ID)); err != nil {
		t.Fatal(err)
	}

	if err := e.ib.Prune(t0.Add(time.Hour), t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if s := e.status(bnobody.ID, at); !sameStrings(s.UndeliveredFor, []string{"*"}) || len(s.Claimed)+len(s.Delivered) != 0 {
		t.Errorf("the broadcast nobody got: %+v", s)
	}
	var kept []string
	for _, s := range e.list(at) {
		kept = append(kept, s.Text)
	}
	sort.Strings(kept)
	want := []string{pending.Text, undelivered.Text, claimed.Text, partly.Text, live.Text, bnobody.Text, newer.Text}
	sort.Strings(want)
	if !sameStrings(kept, want) {
		t.Errorf("kept %q\nwant %q", kept, want)
	}
	for _, gone := range []*Message{done, bdone, peer} {
		for _, p := range []string{
			e.inboxPath(messagesDir, gone.ID+".json"),
			e.inboxPath(receiptsDir, gone.ID),
			e.inboxPath(snapshotsDir, gone.ID),
			e.inboxPath(pendingAll, gone.ID),
			e.inboxPath(pendingDir, "b", gone.ID),
		} {
			if pathExists(t, p) {
				t.Errorf("%q pruned but %s is left", gone.Text, p)
			}
		}
	}
	// What was kept still works: e gets its message, c its late one.
	if b := e.take(e.ib, "e", "Bash", t0.Add(3*time.Hour), 8000); !sameStrings(texts(b), []string{partly.Text, live.Text}) && !sameStrings(texts(b), []string{live.Text, partly.Text}) {
		t.Errorf("e got %q after the prune", texts(b))
	}
	// (c is the first at a turn boundary: the broadcast nobody got is its.)
	if l := e.takeLate(e.ib, "c", t0.Add(3*time.Hour), 8000); !sameStrings(texts(l), []string{undelivered.Text, bnobody.Text}) && !sameStrings(texts(l), []string{bnobody.Text, undelivered.Text}) {
		t.Errorf("c got %q late after the prune", texts(l))
	}
	// Nothing to prune in an empty inbox.
	if err := newEnv(t).ib.Prune(t0, t0); err != nil {
		t.Error(err)
	}
	// Prune made no note.
	if n := e.notes.String(); n != "" {
		t.Errorf("notes %q", n)
	}
}
