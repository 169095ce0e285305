package natsaudit_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
	"github.com/massgen/massgen-hook/state"
)

// fixture is one project whose audit trail has a NATS sink.
type fixture struct {
	t       *testing.T
	project string
	url     string
	now     time.Time
	stderr  bytes.Buffer
	timeout time.Duration
	spool   int64
}

func newFixture(t *testing.T, url string) *fixture {
	return &fixture{t: t, project: t.TempDir(), url: url, now: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), timeout: 2 * time.Second}
}

// process is one hook process: a state.Dir with a fresh sink. Its Close
// is the process's end.
func (f *fixture) process() (*state.Dir, *natsaudit.Sink) {
	d := state.Open(f.project)
	s := &natsaudit.Sink{Dir: d, Dial: natsclient.Options{URLs: []string{f.url}}, Stream: "AUDIT", Prefix: "audit",
		Subject: natsaudit.Subject("audit", f.project), Timeout: f.timeout, Now: func() time.Time { return f.now },
		Notes: &f.stderr, MaxSpool: f.spool}
	d.AuditSink = s
	f.t.Cleanup(s.Close)
	return d, s
}

// audit writes records in one process.
func (f *fixture) audit(records ...map[string]any) {
	f.t.Helper()
	d, s := f.process()
	defer s.Close()
	for _, r := range records {
		if err := d.Audit(r); err != nil {
			f.t.Fatal(err)
		}
	}
}

// localLines are the lines of the local trail.
func (f *fixture) localLines() []string {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.project, state.DirName, state.AuditFile))
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func (f *fixture) spoolPath() string {
	return filepath.Join(f.project, state.DirName, natsaudit.SpoolFolder, natsaudit.SpoolFile)
}

func (f *fixture) spooled() int {
	data, err := os.ReadFile(f.spoolPath())
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return bytes.Count(data, []byte{'\n'})
}

// streamMsgs reads every message of the stream, in order.
func streamMsgs(t *testing.T, url string) []*natsclient.Msg {
	t.Helper()
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []*natsclient.Msg
	err = natsaudit.Tail(context.Background(), c, "AUDIT", "audit.>", 1<<20, false, 5*time.Second, func(m *natsclient.Msg) error {
		out = append(out, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func rec(i int) map[string]any {
	return map[string]any{"time": "2026-11-27T09:00:00Z", "event": "PreToolUse", "outcome": "allow", "n": i}
}

func datas(msgs []*natsclient.Msg) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Data)
	}
	return out
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func TestPublishedLinesAreTheLocalLines(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	f := newFixture(t, srv.URL())
	f.audit(rec(1), rec(2), map[string]any{"html": "<a&b>", "unicode": "é\u2028"})
	f.audit(rec(4))
	msgs := streamMsgs(t, srv.URL())
	if local := f.localLines(); !equal(datas(msgs), local) {
		t.Fatalf("stream lines differ from the local trail:\nstream %q\nlocal  %q", datas(msgs), local)
	}
	ids := map[string]bool{}
	for _, m := range msgs {
		if m.Subject != "audit."+natsaudit.ProjectKey(f.project) {
			t.Errorf("subject %q", m.Subject)
		}
		id := m.Header.Get("Nats-Msg-Id")
		if len(id) != 32 || ids[id] {
			t.Errorf("message id %q: want 32 hex digits, unique", id)
		}
		ids[id] = true
	}
	if f.stderr.Len() != 0 || f.spooled() != 0 {
		t.Fatalf("a healthy broker: want no notes and no spool, got %q, %d spooled", f.stderr.String(), f.spooled())
	}
	c, _ := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{srv.URL()}})
	defer c.Close()
	si, err := c.StreamInfo("AUDIT", time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	want := natsaudit.StreamConfig("AUDIT", "audit")
	if si.Config.Discard != "old" || si.Config.Retention != "limits" || si.Config.Storage != "file" ||
		si.Config.MaxAge != want.MaxAge || si.Config.Duplicates != want.Duplicates || si.Config.Subjects[0] != "audit.>" {
		t.Fatalf("stream config %+v", si.Config)
	}
}

func TestBrokerDownSpoolsOnceNotedThenForwardsInOrderOnce(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	f := newFixture(t, srv.URL())
	f.audit(rec(1)) // creates the stream
	srv.Shutdown()
	f.audit(rec(2), rec(3))
	f.now = f.now.Add(time.Second)
	f.audit(rec(4)) // in the backoff: spooled without a try
	if n := f.spooled(); n != 3 {
		t.Fatalf("spooled %d lines, want 3", n)
	}
	if n := strings.Count(f.stderr.String(), "\n"); n != 1 || !strings.Contains(f.stderr.String(), f.spoolPath()) {
		t.Fatalf("want one note naming the spool for the outage, got %q", f.stderr.String())
	}
	info, err := os.Stat(f.spoolPath())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("spool mode %v %v", info.Mode(), err)
	}
	srv.Restart()
	f.now = f.now.Add(natsaudit.FirstBackoff)
	f.audit(rec(5))
	msgs := streamMsgs(t, srv.URL())
	if local := f.localLines(); len(local) != 5 || !equal(datas(msgs), local) {
		t.Fatalf("after the outage the stream must hold the local lines once, in order:\nstream %q\nlocal  %q", datas(msgs), local)
	}
	if f.spooled() != 0 {
		t.Fatalf("spool left after forwarding: %d", f.spooled())
	}
	// A second outage is told again.
	srv.Shutdown()
	f.audit(rec(6))
	if n := strings.Count(f.stderr.String(), "\n"); n != 2 {
		t.Fatalf("want a note for the second outage, got %q", f.stderr.String())
	}
}

func TestBackoffFollowsTheInjectedClock(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	f := newFixture(t, srv.URL())
	f.audit(rec(1))
	srv.Shutdown()
	f.audit(rec(2))
	srv.Restart()
	// The broker is back, but the hooks' clock has not passed the
	// backoff: no try, the line is spooled.
	f.now = f.now.Add(natsaudit.FirstBackoff - time.Millisecond)
	f.audit(rec(3))
	if got := len(streamMsgs(t, srv.URL())); got != 1 || f.spooled() != 2 {
		t.Fatalf("within the backoff: want 1 message and 2 spooled, got %d and %d", got, f.spooled())
	}
	f.now = f.now.Add(time.Millisecond)
	f.audit(rec(4))
	if got := datas(streamMsgs(t, srv.URL())); !equal(got, f.localLines()) {
		t.Fatalf("after the backoff: stream %q", got)
	}
}

func TestBackoffDoublesUpToItsMaximum(t *testing.T) {
	t.Parallel()
	f := newFixture(t, closedPort(t))
	var waits []time.Duration
	for range 6 {
		f.audit(rec(0))
		data, err := os.ReadFile(filepath.Join(f.project, state.DirName, natsaudit.SpoolFolder, "audit-sink.json"))
		if err != nil {
			t.Fatal(err)
		}
		var retry time.Time
		i := bytes.Index(data, []byte(`"retry_at":"`))
		retry, _ = time.Parse(time.RFC3339Nano, string(data[i+12:i+12+bytes.IndexByte(data[i+12:], '"')]))
		waits = append(waits, retry.Sub(f.now))
		f.now = retry
	}
	want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, time.Minute, time.Minute}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("backoffs %v, want %v", waits, want)
		}
	}
	if n := strings.Count(f.stderr.String(), "\n"); n != 1 {
		t.Fatalf("one outage, one note: got %q", f.stderr.String())
	}
}

// A forward cut short after the broker stored lines but before the spool
// was rewritten sends them again: their message ids keep them single.
func TestForwardRetriedAfterAnInterruptionIsNotDoubled(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	f := newFixture(t, srv.URL())
	f.audit(rec(0))
	srv.Shutdown()
	f.audit(rec(1), rec(2), rec(3), rec(4))
	srv.Restart()
	// The interruption: the first two spooled lines reach the stream
	// (with their ids) and the spool still holds them.
	data, err := os.ReadFile(f.spoolPath())
	if err != nil {
		t.Fatal(err)
	}
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{srv.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n")[:2] {
		id, body, _ := strings.Cut(line, "\t")
		if _, err := c.PublishJS("audit."+natsaudit.ProjectKey(f.project), []byte(body), natsclient.PublishOptions{MsgID: id}, time.Now().Add(5*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	f.now = f.now.Add(natsaudit.FirstBackoff)
	f.audit(rec(5))
	msgs := streamMsgs(t, srv.URL())
	if local := f.localLines(); len(msgs) != len(local) || len(local) != 6 {
		t.Fatalf("stream has %d messages for %d local lines:\n%q", len(msgs), len(local), datas(msgs))
	}
}

// A broker that accepts connections and never answers costs a hook its
// timeout, not more; the line is spooled.
func TestSilentBrokerCostsTheTimeout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "nats://"+natstest.Silent(t))
	f.timeout = 200 * time.Millisecond
	start := time.Now()
	f.audit(rec(1), rec(2), rec(3))
	if took := time.Since(start); took > f.timeout+2*time.Second {
		t.Fatalf("three lines took %v with a %v timeout", took, f.timeout)
	}
	if f.spooled() != 3 || len(f.localLines()) != 3 {
		t.Fatalf("spooled %d, local %d", f.spooled(), len(f.localLines()))
	}
}

func TestCredentialsInTheURLAreNeverShown(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{User: "alice", Password: "s3cret-pw"})
	for _, url := range []string{
		strings.Replace(srv.URL(), "nats://", "nats://alice:wrong-s3cret-pw@", 1), // refused by the server
		strings.Replace(closedPort(t), "nats://", "nats://alice:s3cret-pw@", 1),   // nobody there
		strings.Replace(closedPort(t), "nats://", "nats://tok3n-s3cret@", 1),      // a token
	} {
		f := newFixture(t, url)
		f.audit(rec(1))
		if f.stderr.Len() == 0 {
			t.Fatalf("%s: no note", natsclient.Redact(url))
		}
		everything := f.stderr.String()
		filepath.WalkDir(filepath.Join(f.project, state.DirName), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				everything += string(data)
			}
			return nil
		})
		if strings.Contains(everything, "s3cret") {
			t.Fatalf("a secret of the URL was shown or stored:\n%s", everything)
		}
		if !strings.Contains(f.stderr.String(), "***@127.0.0.1") {
			t.Fatalf("the note should name the server, redacted: %q", f.stderr.String())
		}
	}
	// The right password works.
	f := newFixture(t, strings.Replace(srv.URL(), "nats://", "nats://alice:s3cret-pw@", 1))
	f.audit(rec(1))
	if f.stderr.Len() != 0 || f.spooled() != 0 {
		t.Fatalf("with the right password: %q, %d spooled", f.stderr.String(), f.spooled())
	}
}

func TestSpoolIsBoundedDroppingTheOldest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, closedPort(t))
	f.spool = 4 << 10
	for i := range 100 {
		f.audit(rec(i))
	}
	info, err := os.Stat(f.spoolPath())
	if err != nil || info.Size() > f.spool {
		t.Fatalf("spool %v bytes over its bound %d (%v)", info.Size(), f.spool, err)
	}
	data, _ := os.ReadFile(f.spoolPath())
	if !bytes.HasSuffix(data, []byte(`"n":99,"outcome":"allow","time":"2026-11-27T09:00:00Z"}`+"\n")) {
		t.Fatalf("the newest line must be kept, spool ends %q", data[max(0, len(data)-80):])
	}
	if !strings.Contains(f.stderr.String(), "dropped its") || len(f.localLines()) != 100 {
		t.Fatalf("want a note of the dropped lines and every local line: %q", f.stderr.String())
	}
}

func TestProjectKey(t *testing.T) {
	t.Parallel()
	a, b := natsaudit.ProjectKey("/home/x/my.project"), natsaudit.ProjectKey("/srv/my.project")
	if a == b || !strings.HasPrefix(a, "my_project-") || len(a) != len("my_project-")+8 {
		t.Fatalf("keys %q %q", a, b)
	}
	if natsaudit.ProjectKey("/home/x/my.project/") != a {
		t.Fatal("the key must not depend on a trailing slash")
	}
	long := natsaudit.ProjectKey("/p/" + strings.Repeat("ü", 50))
	if strings.ContainsAny(long, ". *>") || len(long) > 32+9 {
		t.Fatalf("long key %q", long)
	}
}

// closedPort is the URL of a port nobody listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "nats://" + addr
}

// A line the stream refuses for good (over its maximum message size) is
// left out of the copy with a note, and does not hold back the lines
// after it.
func TestALineRefusedForGoodDoesNotHoldBackTheRest(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{srv.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := natsaudit.StreamConfig("AUDIT", "audit")
	cfg.MaxMsgSize = 300
	if _, err := c.AddStream(cfg, time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	f := newFixture(t, srv.URL())
	big := rec(2)
	big["pad"] = strings.Repeat("x", 400)
	f.audit(rec(1), big, rec(3))
	local := f.localLines()
	got := datas(streamMsgs(t, srv.URL()))
	if !equal(got, []string{local[0], local[2]}) || f.spooled() != 0 {
		t.Fatalf("stream %q, %d spooled", got, f.spooled())
	}
	if !strings.Contains(f.stderr.String(), "refuses a line for good") || strings.Count(f.stderr.String(), "\n") != 1 {
		t.Fatalf("want one note of the line left out, got %q", f.stderr.String())
	}
}

// cuttingProxy relays connections to a server and, while cut is set, ends
// each connection after relaying that many messages from the server:
// acknowledgements lost on the way, after the server stored the lines.
type cuttingProxy struct {
	l   net.Listener
	to  string
	cut atomic.Int64 // 0: never
}

func startProxy(t *testing.T, to string) *cuttingProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cuttingProxy{l: l, to: strings.TrimPrefix(to, "nats://")}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.relay(c, p.cut.Load())
		}
	}()
	return p
}

func (p *cuttingProxy) url() string { return "nats://" + p.l.Addr().String() }

func (p *cuttingProxy) relay(c net.Conn, cut int64) {
	defer c.Close()
	s, err := net.Dial("tcp", p.to)
	if err != nil {
		return
	}
	defer s.Close()
	go io.Copy(s, c)
	r := bufio.NewReader(s)
	for msgs := int64(0); cut == 0 || msgs < cut; {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if _, err := c.Write([]byte(line)); err != nil {
			return
		}
		if strings.HasPrefix(line, "MSG ") {
			payload, err := r.ReadString('\n')
			if err != nil {
				return
			}
			c.Write([]byte(payload))
			msgs++
		}
	}
}

// A forward cut short after the broker stored lines whose
// acknowledgements never came: the lines not acknowledged stay in the
// spool, are sent again, and are stored once.
func TestForwardCutShortByTheBrokerIsRetriedOnce(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{srv.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddStream(natsaudit.StreamConfig("AUDIT", "audit"), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	proxy := startProxy(t, srv.URL())
	f := newFixture(t, closedPort(t))
	for i := range 10 {
		f.audit(rec(i))
	}
	if f.spooled() != 10 {
		t.Fatalf("spooled %d", f.spooled())
	}
	f.url = proxy.url()
	// 5 answers: the stream check a machine makes once before its first
	// publish, then 4 acknowledgements.
	proxy.cut.Store(5)
	f.now = f.now.Add(natsaudit.FirstBackoff)
	f.audit(rec(10))
	if n := f.spooled(); n != 7 {
		t.Fatalf("after a forward cut after 4 acknowledgements: %d spooled, want the 6 unacknowledged and the new line", n)
	}
	proxy.cut.Store(0)
	f.now = f.now.Add(time.Minute)
	f.audit(rec(11))
	msgs := streamMsgs(t, srv.URL())
	if local := f.localLines(); len(local) != 12 || !equal(datas(msgs), local) || f.spooled() != 0 {
		t.Fatalf("%d stream messages for %d local lines, %d spooled:\n%q", len(msgs), len(local), f.spooled(), datas(msgs))
	}
}

// Hooks at once, each a process of its own with a sink of its own, while
// the broker goes away and comes back: afterwards the stream holds every
// local line exactly once.
func TestConcurrentHooksThroughAnOutageLoseAndDoubleNothing(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	project := t.TempDir()
	base := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	var stderr syncBuffer
	hook := func(now time.Time, r map[string]any) {
		d := state.Open(project)
		s := &natsaudit.Sink{Dir: d, Dial: natsclient.Options{URLs: []string{srv.URL()}}, Stream: "AUDIT", Prefix: "audit",
			Subject: natsaudit.Subject("audit", project), Timeout: 2 * time.Second, Now: func() time.Time { return now }, Notes: &stderr}
		defer s.Close()
		d.AuditSink = s
		if err := d.Audit(r); err != nil {
			t.Error(err)
		}
	}
	const workers, each = 6, 20
	done := make(chan struct{}, workers*each)
	for w := range workers {
		go func() {
			for i := range each {
				// Each line past any backoff: every hook tries the broker.
				hook(base.Add(time.Duration(i)*2*natsaudit.MaxBackoff), map[string]any{"w": w, "i": i})
				done <- struct{}{}
			}
		}()
	}
	for range 30 {
		<-done
	}
	srv.Shutdown()
	for range 30 {
		<-done
	}
	srv.Restart()
	for range workers*each - 60 {
		<-done
	}
	hook(base.Add(time.Hour), map[string]any{"last": true}) // forwards what is left
	local := localLinesOf(t, project)
	msgs := streamMsgs(t, srv.URL())
	got := datas(msgs)
	slices.Sort(local)
	slices.Sort(got)
	if len(local) != workers*each+1 || !equal(got, local) {
		t.Fatalf("%d local lines, %d in the stream (want the same lines once)", len(local), len(got))
	}
	if _, err := os.Stat(filepath.Join(project, state.DirName, natsaudit.SpoolFolder, natsaudit.SpoolFile)); !os.IsNotExist(err) {
		t.Fatalf("spool left: %v", err)
	}
}

func localLinesOf(t *testing.T, project string) []string {
	f := &fixture{t: t, project: project}
	return f.localLines()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// A stream an operator made to refuse new lines when full (discard new):
// the line the broker refuses after the local trail has it is spooled,
// said once, and published in order once there is room, never dropped.
func TestLinesAFullStreamRefusesWaitForRoom(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{})
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{srv.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cfg := natsaudit.StreamConfig("AUDIT", "audit")
	cfg.Discard, cfg.MaxBytes = "new", 1024
	if _, err := c.AddStream(cfg, time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, srv.URL())
	for i := 1; f.spooled() == 0; i++ {
		if i > 100 {
			t.Fatal("the stream never filled up")
		}
		f.audit(rec(i))
	}
	f.now = f.now.Add(time.Second)
	f.audit(rec(1000)) // in the backoff: spooled without a try
	if f.spooled() != 2 || strings.Count(f.stderr.String(), "\n") != 1 || !strings.Contains(f.stderr.String(), "maximum bytes") {
		t.Fatalf("want 2 lines spooled and one note of the full stream, got %d and %q", f.spooled(), f.stderr.String())
	}
	cfg.MaxBytes = 1 << 20
	if _, err := c.Request("$JS.API.STREAM.UPDATE.AUDIT", nil, mustJSON(t, cfg), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(natsaudit.MaxBackoff)
	f.audit(rec(1001))
	if local, got := f.localLines(), datas(streamMsgs(t, srv.URL())); !equal(got, local) || f.spooled() != 0 {
		t.Fatalf("once there is room the stream must hold the local lines once, in order:\nstream %q\nlocal  %q", got, local)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
