package natsinbox_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// fillStream stores filler messages on the stream until it refuses even
// a one-byte one: after that, no delivery record fits.
func fillStream(t *testing.T, c *natsclient.Conn) {
	t.Helper()
	for _, size := range []int{256, 16, 1} {
		for i := 0; ; i++ {
			if i > 10000 {
				t.Fatal("the stream never filled up")
			}
			_, err := c.PublishJS("mh.inbox.filler", []byte(strings.Repeat("f", size)), natsclient.PublishOptions{}, time.Now().Add(5*time.Second))
			if natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// makeRoom is an operator raising the stream's bound.
func makeRoom(t *testing.T, c *natsclient.Conn) {
	t.Helper()
	if _, err := c.Request("$JS.API.STREAM.UPDATE.INBOX", nil,
		[]byte(`{"name":"INBOX","subjects":["mh.inbox.>"],"retention":"limits","max_age":604800000000000,"max_bytes":1048576,"max_msgs":-1,"storage":"file","discard":"new","duplicate_window":3600000000000,"num_replicas":1}`),
		time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
}

// statusOf is the listing's entry of message id.
func statusOf(t *testing.T, list []inbox.Status, id string) inbox.Status {
	t.Helper()
	for _, s := range list {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("message %s is not listed: %+v", id, list)
	return inbox.Status{}
}

// A delivery whose record the full stream refuses: the record waits in the
// delivering machine's spool (its listing shows the message delivered,
// the record still to publish), the user is told once, and once an
// operator makes room the next hook publishes it, so a listing on any
// machine shows the message delivered.
func TestRecordsRefusedByAFullStreamArePublishedOnceThereIsRoom(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	var ids []string
	for i := range 3 {
		res := sender.send(t0, inbox.Draft{To: []string{"a"}, Text: fmt.Sprintf("message %d", i)})
		if res.Spooled {
			t.Fatalf("spooled with the broker up: %s", res.Reason)
		}
		ids = append(ids, res.Message.ID)
	}
	c := dialT(t, s.URL())
	// The stream as an operator bounds it, then full.
	if _, err := c.Request("$JS.API.STREAM.UPDATE.INBOX", nil,
		[]byte(`{"name":"INBOX","subjects":["mh.inbox.>"],"retention":"limits","max_age":604800000000000,"max_bytes":4096,"max_msgs":-1,"storage":"file","discard":"new","duplicate_window":3600000000000,"num_replicas":1}`),
		time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	fillStream(t, c)

	p, got := agent.call(t0.Add(time.Second), "a", true)
	if len(got) != 3 || p.Warning != "" {
		t.Fatalf("the agent should get its 3 messages: %q (warning %q)", got, p.Warning)
	}
	if !strings.Contains(agent.notes.String(), "delivery record") {
		t.Errorf("the refused records should be noted on stderr: %q", agent.notes.String())
	}
	_, here, err := agent.broker(t0.Add(2 * time.Second)).List()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		st := statusOf(t, here, id)
		if len(st.Delivered) != 1 || !st.Delivered[0].Unpublished || len(st.PendingFor) != 0 {
			t.Errorf("here, %s should be delivered with its record still to publish: %+v", id, st)
		}
	}
	_, there, err := sender.broker(t0.Add(2 * time.Second)).List()
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, there, ids[0]); len(st.PendingFor) != 1 {
		t.Fatalf("elsewhere, with no record on the stream, it is still pending: %+v", st)
	}

	p, _ = agent.call(t0.Add(3*time.Second), "a", true)
	if !strings.Contains(p.Warning, "delivery records") || !strings.Contains(p.Warning, "INBOX is full") {
		t.Fatalf("the next call should tell the user once: %q", p.Warning)
	}
	if p, _ = agent.call(t0.Add(4*time.Second), "a", true); p.Warning != "" {
		t.Fatalf("told twice: %q", p.Warning)
	}

	makeRoom(t, c)
	agent.call(t0.Add(time.Minute), "a", true) // after the back-off
	_, there, err = sender.broker(t0.Add(time.Minute)).List()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		st := statusOf(t, there, id)
		if len(st.Delivered) != 1 || st.Delivered[0].To != "a" || st.Delivered[0].Unpublished || len(st.PendingFor) != 0 {
			t.Errorf("once there is room, %s should show delivered to a on every machine: %+v", id, st)
		}
	}
	if left, err := agent.broker(t0).SpooledRecords(); err != nil || len(left) != 0 {
		t.Fatalf("the records' spool should be empty: %d, %v", len(left), err)
	}
}

// A message queued here before an outage is delivered during it: its
// record cannot reach the broker then, waits in the spool, and the first
// hook after the outage publishes it.
func TestRecordsOfDeliveriesInAnOutageArePublishedWhenItEnds(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	res := sender.send(t0, inbox.Draft{To: []string{"a"}, Matcher: "Edit", Text: "after an edit"})
	if _, got := agent.call(t0.Add(time.Second), "a", true); len(got) != 0 {
		t.Fatalf("a Bash call should only queue it here: %q", got)
	}
	s.Shutdown()
	b := agent.broker(t0.Add(2 * time.Second))
	p := b.Pull("a", true)
	if !strings.Contains(p.Warning, "cannot be reached") || !strings.Contains(p.Warning, "records of deliveries made here") {
		t.Fatalf("the outage should be told, records included: %q", p.Warning)
	}
	batch, err := inbox.Open(agent.st).Take("a", "Edit", t0.Add(2*time.Second), 8000, inbox.Via{Event: "PostToolUse", Tool: "Edit"})
	if err != nil || batch.Empty() {
		t.Fatalf("the queued message should be delivered in the outage: %+v %v", batch, err)
	}
	batch.Confirmed = p.Report
	batch.Settle(true)
	p.Settle(true)
	if waiting, err := agent.broker(t0).SpooledRecords(); err != nil || len(waiting) != 1 || waiting[0].ID != res.Message.ID {
		t.Fatalf("its record should wait in the spool: %+v %v", waiting, err)
	}

	s.Restart()
	agent.call(t0.Add(time.Minute), "a", true) // after the back-off
	_, there, err := sender.broker(t0.Add(time.Minute)).List()
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, there, res.Message.ID); len(st.Delivered) != 1 || st.Delivered[0].Tool != "Edit" || len(st.PendingFor) != 0 {
		t.Fatalf("after the outage the delivery should be on record everywhere: %+v", st)
	}
}

// swallowRecords relays connections to the server at url, except that it
// drops every publish to a delivery record's subject: a broker that never
// confirms a record in time.
func swallowRecords(t *testing.T, url string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", strings.TrimPrefix(url, "nats://"))
				if err != nil {
					return
				}
				defer s.Close()
				go io.Copy(c, s)
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					f := strings.Fields(line)
					if len(f) < 3 || (f[0] != "PUB" && f[0] != "HPUB") {
						s.Write([]byte(line))
						continue
					}
					size, _ := strconv.Atoi(f[len(f)-1])
					body := make([]byte, size+2)
					if _, err := io.ReadFull(r, body); err != nil {
						return
					}
					if !strings.Contains(f[1], ".receipt.") {
						s.Write(append([]byte(line), body...))
					}
				}
			}()
		}
	}()
	return "nats://" + l.Addr().String()
}

// A broker that takes messages and acknowledgements but confirms no
// delivery record in time: the records wait in the spool, the user is
// told once, and a later hook that gets them confirmed publishes them.
func TestRecordsNotConfirmedInTimeWaitInTheSpool(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, swallowRecords(t, s.URL()))
	agent.timeout = 300 * time.Millisecond
	res := sender.send(t0, inbox.Draft{To: []string{"a"}, Text: "one"})
	if _, got := agent.call(t0.Add(time.Second), "a", true); len(got) != 1 {
		t.Fatalf("the agent should get its message: %q", got)
	}
	if !strings.Contains(agent.notes.String(), "1 delivery record(s) wait in") || !strings.Contains(agent.notes.String(), "timed out") {
		t.Fatalf("the record not confirmed should be noted: %q", agent.notes.String())
	}
	if p, _ := agent.call(t0.Add(2*time.Second), "a", true); !strings.Contains(p.Warning, "does not take delivery records") {
		t.Fatalf("the next call should tell the user: %q", p.Warning)
	}
	if n := strings.Count(agent.notes.String(), "delivery record(s) wait in"); n != 1 {
		t.Fatalf("within the back-off a hook should not try the records again (%d tries): %q", n, agent.notes.String())
	}
	c := dialT(t, s.URL())
	ci, err := c.ConsumerInfo("INBOX", "to-a", time.Now().Add(5*time.Second))
	if err != nil || ci.NumAckPending != 0 || ci.NumPending != 0 {
		t.Fatalf("the message itself should be acknowledged: %+v %v", ci, err)
	}
	// The broker confirms again; the next call comes after the back-off.
	agent.url, agent.timeout = s.URL(), 0
	if p, _ := agent.call(t0.Add(time.Minute), "a", true); p.Warning != "" {
		t.Fatalf("told twice: %q", p.Warning)
	}
	_, there, err := sender.broker(t0.Add(time.Minute)).List()
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, there, res.Message.ID); len(st.Delivered) != 1 || len(st.PendingFor) != 0 {
		t.Fatalf("once confirmed, the delivery should be on record everywhere: %+v", st)
	}
}

// A spool that cannot be written (its folder is a file): the records are
// published straight away, and the user is told they are not kept.
func TestRecordsTheSpoolCannotKeepArePublishedAtOnce(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	res := sender.send(t0, inbox.Draft{To: []string{"a"}, Text: "one"})
	if err := os.MkdirAll(filepath.Join(agent.st.Path, "nats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent.st.Path, "nats", "records"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, got := agent.call(t0.Add(time.Second), "a", true); len(got) != 1 {
		t.Fatalf("the agent should get its message: %q", got)
	}
	if !strings.Contains(agent.notes.String(), "could not be kept on this machine") {
		t.Fatalf("the spool's failure should be said: %q", agent.notes.String())
	}
	_, there, err := sender.broker(t0.Add(2 * time.Second)).List()
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, there, res.Message.ID); len(st.Delivered) != 1 || len(st.PendingFor) != 0 {
		t.Fatalf("the record should be published at once: %+v", st)
	}
}
