package natsinbox_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
	"github.com/massgen/massgen-hook/state"
)

// forge publishes m, as any client of the broker can, on subject.
func forge(t *testing.T, url, subject string, m *inbox.Message) {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dialT(t, url).PublishJS(subject, data, natsclient.PublishOptions{}, time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
}

// waitPending waits until consumer has n messages to give out: a pull that
// does not wait may come before the consumer has seen one just stored.
func waitPending(t *testing.T, url, consumer string, n uint64) {
	t.Helper()
	c := dialT(t, url)
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		ci, err := c.ConsumerInfo("INBOX", consumer, time.Now().Add(5*time.Second))
		if err == nil && ci.NumPending >= n {
			return
		}
	}
	t.Fatalf("consumer %s never had %d message(s) waiting", consumer, n)
}

// draft makes a message as send would, on a machine of its own.
func draft(t *testing.T, d inbox.Draft, now time.Time) *inbox.Message {
	t.Helper()
	m, err := inbox.Open(state.Open(t.TempDir())).Prepare(d, now)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A copy on one agent's subject is for that agent alone: a broadcast put
// there (by a client allowed to publish only to that agent) must not reach
// every agent of its machine through the local inbox.
func TestBroadcastOnOneAgentsSubjectIsNotQueuedForAll(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	agents := newMachine(t, s.URL())
	agents.call(t0, "alice", true) // the stream and alice's consumer exist
	forge(t, s.URL(), "mh.inbox.to.alice", draft(t, inbox.Draft{From: "mallory", Text: "to everyone, via alice"}, t0))
	waitPending(t, s.URL(), "to-alice", 1)
	agents.call(t0.Add(time.Second), "alice", true)
	if _, got := agents.call(t0.Add(2*time.Second), "bob", true); len(got) != 0 {
		t.Fatalf("bob got a message put on alice's subject: %q", got)
	}
	if !strings.Contains(agents.notes.String(), "not delivered") {
		t.Fatalf("the refusal is not noted: %s", agents.notes.String())
	}
}

// A message that reuses the id of another already here (a forged copy of
// a real message, addressed to someone else) is not queued under that id:
// its token would deliver the other message's text. The clash is told.
func TestMessageReusingAnIDHereIsNotQueued(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agents := newMachine(t, s.URL()), newMachine(t, s.URL())
	agents.call(t0, "alice", true)
	agents.call(t0, "carol", true)
	orig := sender.send(t0, inbox.Draft{To: []string{"alice"}, Text: "for alice"}).Message
	fake := *orig
	fake.To, fake.Text = []string{"carol"}, "for carol, under alice's id"
	forge(t, s.URL(), "mh.inbox.to.carol", &fake)
	waitPending(t, s.URL(), "to-carol", 1)
	waitPending(t, s.URL(), "to-alice", 1)
	if _, got := agents.call(t0.Add(time.Second), "carol", true); len(got) != 1 {
		t.Fatalf("carol: %q", got)
	}
	agents.call(t0.Add(2*time.Second), "alice", true)
	if !strings.Contains(agents.notes.String(), orig.ID+" from the broker differs") {
		t.Fatalf("the clash of ids is not told: %s", agents.notes.String())
	}
	if _, err := os.Lstat(filepath.Join(agents.st.Path, "inbox", "pending", "alice", orig.ID)); !os.IsNotExist(err) {
		t.Fatalf("a token for alice waits on another message's text: %v", err)
	}
}
