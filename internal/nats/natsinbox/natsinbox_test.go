package natsinbox_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natsinbox"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
	"github.com/massgen/massgen-hook/state"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// machine is one project on one machine: its runtime directory, sharing a
// server with the others.
type machine struct {
	t      *testing.T
	st     *state.Dir
	url    string
	notes  *syncBuf
	ack    time.Duration
	domain string
	// timeout is the broker timeout (0: 5s).
	timeout time.Duration
}

func newMachine(t *testing.T, url string) *machine {
	st := state.Open(t.TempDir())
	n := &syncBuf{}
	st.Notes = n
	return &machine{t: t, st: st, url: url, notes: n}
}

func (m *machine) broker(now time.Time) *natsinbox.Broker {
	timeout := m.timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	b := natsinbox.New(natsinbox.Settings{Dial: natsclient.Options{URLs: []string{m.url}, Domain: m.domain}, Stream: "INBOX", Subject: "mh.inbox",
		Timeout: timeout, AckWait: m.ack}, m.st, now)
	b.Notes = m.notes
	return b
}

func (m *machine) send(now time.Time, d inbox.Draft) *natsinbox.SendResult {
	m.t.Helper()
	b := m.broker(now)
	defer b.Close()
	res, err := b.Send(d)
	if err != nil {
		m.t.Fatalf("send: %v", err)
	}
	return res
}

// call is one post-tool-use hook of recipient: pull, take, answer, settle.
func (m *machine) call(now time.Time, recipient string, answered bool) (*natsinbox.Pull, []string) {
	m.t.Helper()
	b := m.broker(now)
	p := b.Pull(recipient, true)
	ib := inbox.Open(m.st)
	batch, err := ib.Take(recipient, "Bash", now, 8000, inbox.Via{Event: "PostToolUse", Tool: "Bash"})
	if err != nil {
		m.t.Fatalf("take: %v", err)
	}
	var texts []string
	if batch != nil {
		batch.Confirmed = p.Report
		for _, it := range batch.Items {
			texts = append(texts, it.Message.Text)
		}
		batch.Settle(answered)
	}
	p.Settle(answered)
	return p, texts
}

func TestSendPullDeliversOnceAcrossMachines(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	res := sender.send(t0, inbox.Draft{To: []string{"reviewer"}, Text: "use PostgreSQL"})
	if res.Spooled {
		t.Fatalf("spooled with the broker up: %s", res.Reason)
	}
	if _, got := agent.call(t0.Add(time.Second), "coordinator", true); len(got) != 0 {
		t.Fatalf("coordinator got %q", got)
	}
	_, got := agent.call(t0.Add(time.Second), "reviewer", true)
	if strings.Join(got, "|") != "use PostgreSQL" {
		t.Fatalf("reviewer got %q", got)
	}
	if _, again := agent.call(t0.Add(2*time.Second), "reviewer", true); len(again) != 0 {
		t.Fatalf("delivered twice: %q", again)
	}
	st, list, err := sender.broker(t0.Add(3 * time.Second)).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || len(list[0].Delivered) != 1 || list[0].Delivered[0].To != "reviewer" || len(list[0].PendingFor) != 0 {
		t.Fatalf("listing: %+v", list)
	}
	if len(st.Consumers) != 2 {
		t.Fatalf("want the two agents' consumers, got %+v", st.Consumers)
	}
}

func TestUnansweredPullIsRedeliveredAndRecognised(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	agent.ack = 200 * time.Millisecond
	sender.send(t0, inbox.Draft{To: []string{"a"}, Text: "one"})
	// The hook wrote its answer (the local receipt is confirmed) and was
	// killed before it acknowledged: the broker gives the message out
	// again, and the local inbox knows it.
	b := agent.broker(t0)
	p := b.Pull("a", true)
	ib := inbox.Open(agent.st)
	batch, _ := ib.Take("a", "Bash", t0, 8000, inbox.Via{Event: "PostToolUse"})
	if batch == nil || len(batch.Items) != 1 {
		t.Fatal("first delivery")
	}
	batch.Settle(true)
	b.Close() // no ack
	_ = p
	waitRedelivery(t, s.URL(), "to-a")
	p2, got := agent.call(t0.Add(time.Second), "a", true)
	if len(got) != 0 {
		t.Fatalf("a redelivered message was delivered again: %q", got)
	}
	if p2.Imported != 0 {
		t.Fatalf("a redelivered message was queued again (%d)", p2.Imported)
	}
	c := dialT(t, s.URL())
	ci, err := c.ConsumerInfo("INBOX", "to-a", time.Now().Add(5*time.Second))
	if err != nil || ci.NumAckPending != 0 || ci.NumPending != 0 {
		t.Fatalf("the redelivery was not acknowledged: %+v %v", ci, err)
	}
}

// waitRedelivery waits until the consumer's unacknowledged message is
// available again, by a pull that waits for it (no sleep), then gives it
// back.
func waitRedelivery(t *testing.T, url, consumer string) {
	t.Helper()
	c := dialT(t, url)
	msgs, err := c.Fetch("INBOX", consumer, 1, 5*time.Second, time.Now().Add(6*time.Second))
	if err != nil || len(msgs) != 1 {
		t.Fatalf("no redelivery: %v", err)
	}
	if err := c.Nak(msgs, time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
}

func dialT(t *testing.T, url string) *natsclient.Conn {
	t.Helper()
	b := natsinbox.New(natsinbox.Settings{Dial: natsclient.Options{URLs: []string{url}}}, state.Open(t.TempDir()), t0)
	c, err := natsinbox.Connect(b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestBrokerDownSpoolsThenForwardsOnce(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	s.Shutdown()
	r1 := sender.send(t0, inbox.Draft{To: []string{"a"}, Text: "first"})
	r2 := sender.send(t0.Add(time.Second), inbox.Draft{To: []string{"a"}, Text: "second"})
	if !r1.Spooled || !r2.Spooled {
		t.Fatal("with the broker down a send must be spooled")
	}
	p, got := agent.call(t0.Add(2*time.Second), "a", true)
	if len(got) != 0 || !strings.Contains(p.Warning, "cannot be reached") {
		t.Fatalf("down: got %q, warning %q", got, p.Warning)
	}
	if p, _ := agent.call(t0.Add(3*time.Second), "a", true); p.Warning != "" {
		t.Fatalf("told twice: %q", p.Warning)
	}
	s.Restart()
	// Within the back-off the hook does not try; after it, it does.
	r3 := sender.send(t0.Add(10*time.Second), inbox.Draft{To: []string{"a"}, Text: "third"})
	if r3.Spooled || r3.Forwarded != 2 {
		t.Fatalf("back: spooled %v, forwarded %d (%s)", r3.Spooled, r3.Forwarded, r3.Reason)
	}
	_, got = agent.call(t0.Add(20*time.Second), "a", true)
	if strings.Join(got, "|") != "first|second|third" {
		t.Fatalf("after the outage: %q", got)
	}
	spooled, _ := sender.broker(t0).Spooled()
	if len(spooled) != 0 {
		t.Fatalf("spool not emptied: %d", len(spooled))
	}
}

func TestExpiredBroadcastSomeoneReceivedIsNotHandedOverLate(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, m1, m2 := newMachine(t, s.URL()), newMachine(t, s.URL()), newMachine(t, s.URL())
	sender.send(t0, inbox.Draft{Text: "everyone", TTL: time.Minute})
	if _, got := m1.call(t0.Add(time.Second), "a", true); len(got) != 1 {
		t.Fatalf("a: %q", got)
	}
	// b's first call comes after the broadcast expired, on another machine.
	b := m2.broker(t0.Add(time.Hour))
	b.Pull("b", true).Settle(true)
	late, err := inbox.Open(m2.st).TakeLate("b", t0.Add(time.Hour), 8000, inbox.Via{Event: "Stop"})
	if err != nil || !late.Empty() {
		t.Fatalf("b got a broadcast a already had, late: %+v %v", late, err)
	}
}

// Sends running at once on one machine share its spool: none forwards
// another's message in flight (it is not left behind), and each is stored
// once.
func TestConcurrentSendsLeaveEachOthersSpoolAlone(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sender, agent := newMachine(t, s.URL()), newMachine(t, s.URL())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var problems []string
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				b := sender.broker(t0.Add(time.Duration(g*100+i) * time.Millisecond))
				res, err := b.Send(inbox.Draft{To: []string{"a"}, Text: "x"})
				b.Close()
				if err != nil || res.Spooled || res.Forwarded != 0 {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("send: %v %+v", err, res))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	total := 0
	for i := 0; i < 10 && total < 100; i++ {
		_, got := agent.call(t0.Add(time.Hour), "a", true) // an answer carries as many as fit
		total += len(got)
	}
	if total != 100 {
		t.Fatalf("delivered %d, want 100", total)
	}
}
