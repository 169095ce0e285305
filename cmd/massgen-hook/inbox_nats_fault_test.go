package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// Faults of the inbox over NATS, each with real hook processes and a real
// nats-server: what the hook does, and that every message still reaches
// its agent exactly once.

func natsConn(t *testing.T, url string) *natsclient.Conn {
	t.Helper()
	ctx, cancel := contextWithTimeout(5 * time.Second)
	defer cancel()
	c, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// deliveredTo runs the agent's hooks until every message in want has
// arrived (failing on one that arrives twice), or the bound passes; got
// holds what arrived before, and gets what arrives now.
func deliveredTo(t *testing.T, bin string, env []string, project, agent string, got map[string]int, want []string, bound time.Duration) map[string]int {
	t.Helper()
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		missing := 0
		for _, w := range want {
			if got[w] == 0 {
				missing++
			}
		}
		if missing == 0 {
			return got
		}
		r, msgs, err := postToolUse(bin, env, project, agent)
		if err != nil || r.code != 0 {
			t.Fatalf("post-tool-use: %v, exit %d, stderr %q", err, r.code, r.stderr)
		}
		for _, m := range msgs {
			if got[m]++; got[m] > 1 {
				t.Errorf("%s delivered twice", m)
			}
		}
		if len(msgs) == 0 {
			time.Sleep(100 * time.Millisecond) // the agent's next tool call
		}
	}
	t.Fatalf("not every message arrived within %v: got %v", bound, got)
	return nil
}

// TestNATSBrokerRestartMidStream: the broker stops in the middle of a
// stream of sends and comes back. Sends made while it is down are spooled
// (exit 0, said on stderr) and forwarded once it is back; the agent's
// hooks keep answering (exit 0), say the outage once, and in the end the
// agent has every message exactly once.
func TestNATSBrokerRestartMidStream(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	sender, agent := natsProject(t, srv.URL(), ""), natsProject(t, srv.URL(), "")
	senderEnv, agentEnv := realClockEnv(sender), realClockEnv(agent)
	var want []string
	send := func(i int, down bool) {
		text := fmt.Sprintf("msg-%04d", i)
		want = append(want, text)
		r := inboxRun(bin, senderEnv, sender, "", "send", "--to", "agent_r", text)
		spooled := strings.Contains(r.stderr, "is spooled on this machine")
		if r.code != 0 || spooled != down {
			t.Fatalf("send %s (broker down %v): exit %d, stderr %q", text, down, r.code, r.stderr)
		}
	}
	for i := range 20 {
		send(i, false)
	}
	got := deliveredTo(t, bin, agentEnv, agent, "agent_r", map[string]int{}, want[:10], time.Minute)
	srv.Shutdown()
	for i := 20; i < 30; i++ {
		send(i, true)
	}
	warned := 0
	for range 3 {
		r := inboxRun(bin, agentEnv, agent, inboxEvent, "post-tool-use", "--agent", "agent_r")
		if r.code != 0 {
			t.Fatalf("a hook with the broker down: exit %d, stderr %q", r.code, r.stderr)
		}
		for _, m := range inboxMsgRe.FindAllString(r.stdout, -1) {
			got[m]++ // what was queued here before still arrives
		}
		if strings.Contains(r.stdout, "cannot be reached") {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("the outage was told %d times over three calls, want once", warned)
	}
	srv.Restart()
	for i := 30; i < 40; i++ {
		send(i, false)
	}
	deliveredTo(t, bin, agentEnv, agent, "agent_r", got, want, 2*time.Minute)
	for m, n := range got {
		if n > 1 {
			t.Errorf("%s delivered %d times", m, n)
		}
	}
	l := listNATS(t, bin, senderEnv, sender)
	if len(l.Spooled) != 0 || len(l.Messages) != len(want) {
		t.Errorf("after the restart: %d spooled, %d on the stream; want 0 and %d", len(l.Spooled), len(l.Messages), len(want))
	}
	t.Logf("broker restart: %d sent (10 while down, spooled), %d delivered, duplicates 0", len(want), len(want))
}

// holdProxy passes TCP between hooks and the server, except that the
// first acknowledgement (+ACK) a hook sends, and everything that hook sends
// after it, is held: it never reaches the server.
type holdProxy struct {
	ln     net.Listener
	target string
	held   atomic.Bool
	pulled chan struct{}
}

func startHoldProxy(t *testing.T, target string) *holdProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &holdProxy{ln: ln, target: strings.TrimPrefix(target, "nats://"), pulled: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *holdProxy) URL() string { return "nats://" + p.ln.Addr().String() }

func (p *holdProxy) serve(c net.Conn) {
	defer c.Close()
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer s.Close()
	go io.Copy(c, s)
	holding := false
	buf := make([]byte, 32<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 && !holding {
			if bytes.Contains(buf[:n], []byte("+ACK")) && p.held.CompareAndSwap(false, true) {
				holding = true
				close(p.pulled)
				continue
			}
			s.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// TestNATSKillBetweenDeliveryAndAck: a hook is killed (SIGKILL) after its
// answer carried a message and before its acknowledgement reached the
// broker. The broker gives the message out again after its ack wait; the
// next hooks recognise it by its id (the local inbox has it delivered) and
// acknowledge it without showing it again. The agent saw it once, and the
// stream's listing shows it delivered once.
func TestNATSKillBetweenDeliveryAndAck(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	proxy := startHoldProxy(t, srv.URL())
	sender := natsProject(t, srv.URL(), "")
	agent := natsProject(t, proxy.URL(), "  ack_wait: 1s\n")
	env := realClockEnv(agent)
	if r := inboxRun(bin, realClockEnv(sender), sender, "", "send", "--to", "agent_k", "msg-0001"); r.code != 0 {
		t.Fatalf("send: exit %d, stderr %q", r.code, r.stderr)
	}

	cmd := exec.Command(bin, "post-tool-use", "--agent", "agent_k")
	cmd.Dir, cmd.Env, cmd.Stdin = agent, env, strings.NewReader(inboxEvent)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answer, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(answer, "msg-0001") {
		t.Fatalf("the first hook's answer: %q, %v", answer, err)
	}
	<-proxy.pulled
	// The answer is out, the local inbox has recorded the delivery, and the
	// acknowledgement is held in the proxy.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	c := natsConn(t, srv.URL())
	ci, err := c.ConsumerInfo("MASSGEN_INBOX", "to-agent_k", time.Now().Add(5*time.Second))
	if err != nil || ci.NumAckPending != 1 {
		t.Fatalf("after the kill the broker should still wait for the acknowledgement: %+v, %v", ci, err)
	}
	// Later tool calls: the redelivery is recognised, never shown again.
	deadline := time.Now().Add(time.Minute)
	for {
		r, msgs, err := postToolUse(bin, env, agent, "agent_k")
		if err != nil || r.code != 0 || len(msgs) != 0 {
			t.Fatalf("a later hook: msgs %q, %v, exit %d, stderr %q", msgs, err, r.code, r.stderr)
		}
		ci, err := c.ConsumerInfo("MASSGEN_INBOX", "to-agent_k", time.Now().Add(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if ci.NumAckPending == 0 && ci.NumPending == 0 && ci.AckFloor.Stream >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the redelivered message was never acknowledged: %+v", ci)
		}
		time.Sleep(200 * time.Millisecond) // the broker's ack wait (1s) runs
	}
	l := listNATS(t, bin, realClockEnv(sender), sender)
	if len(l.Messages) != 1 || len(l.Messages[0].Delivered) != 1 || l.Messages[0].Delivered[0].To != "agent_k" || len(l.Messages[0].PendingFor) != 0 {
		t.Fatalf("the listing should show it delivered once to agent_k: %+v", l.Messages)
	}
	t.Log("kill -9 between delivery and ack: sent 1, shown 1, redelivered by the broker and recognised, duplicates 0")
}

// TestNATSExpiry: a message that expires before the agent's next tool
// call is not delivered at a tool call; the agent's next stop blocks once
// with it (handed over late), and the stream shows it delivered late. The
// clock is the injected one.
func TestNATSExpiry(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	sender, agent := natsProject(t, srv.URL(), ""), natsProject(t, srv.URL(), "")
	at := func(env []string, when string) []string {
		return append(realClockEnv("")[:0:0], append(env, "MASSGEN_HOOK_NOW="+when)...)
	}
	senderEnv := at(realClockEnv(sender), "2026-11-20T10:00:00Z")
	if r := inboxRun(bin, senderEnv, sender, "", "send", "--ttl", "10m", "--to", "agent_e", "msg-0001"); r.code != 0 {
		t.Fatalf("send: exit %d, stderr %q", r.code, r.stderr)
	}
	later := at(realClockEnv(agent), "2026-11-20T11:00:00Z")
	r, msgs, err := postToolUse(bin, later, agent, "agent_e")
	if err != nil || r.code != 0 || len(msgs) != 0 {
		t.Fatalf("an expired message was delivered at a tool call: %q, exit %d, %v", msgs, r.code, err)
	}
	stop := `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false,"cwd":"/tmp"}`
	r = inboxRun(bin, append(later, "MASSGEN_AGENT_ID=agent_e"), agent, stop, "stop")
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"block"`) || !strings.Contains(r.stdout, "msg-0001") {
		t.Fatalf("the stop should block once with the expired message: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	l := listNATS(t, bin, senderEnv, sender)
	if len(l.Messages) != 1 || len(l.Messages[0].Delivered) != 1 || !l.Messages[0].Delivered[0].Late {
		t.Fatalf("the listing should show it delivered late: %+v", l.Messages)
	}
}

// TestNATSFullStore: the stream is full. A send is refused by the broker,
// spooled (exit 0, the reason on stderr), never dropped, and nothing old
// is dropped either (the stream refuses new messages, it does not discard
// old ones); once there is room the next send forwards the spooled ones
// first, and the agent gets each message once, in order.
func TestNATSFullStore(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	sender, agent := natsProject(t, srv.URL(), "  max_bytes: 2048\n"), natsProject(t, srv.URL(), "")
	senderEnv := realClockEnv(sender)
	var want []string
	full := 0
	for i := 0; i < 40 && full < 3; i++ {
		text := fmt.Sprintf("msg-%04d %s", i, strings.Repeat("x", 200))
		want = append(want, fmt.Sprintf("msg-%04d", i))
		r := inboxRun(bin, senderEnv, sender, "", "send", "--to", "agent_f", text)
		if r.code != 0 {
			t.Fatalf("send %d: exit %d, stderr %q", i, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "is full") {
			full++
		}
	}
	if full != 3 {
		t.Fatalf("the stream never filled up")
	}
	l := listNATS(t, bin, senderEnv, sender)
	if len(l.Spooled) != 3 {
		t.Fatalf("%d spooled, want the 3 the full stream refused", len(l.Spooled))
	}
	// An operator makes room.
	c := natsConn(t, srv.URL())
	if _, err := c.Request("$JS.API.STREAM.UPDATE.MASSGEN_INBOX", nil,
		[]byte(`{"name":"MASSGEN_INBOX","subjects":["massgen.inbox.>"],"retention":"limits","max_age":604800000000000,"max_bytes":1048576,"max_msgs":-1,"storage":"file","discard":"new","duplicate_window":3600000000000,"num_replicas":1}`),
		time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	want = append(want, "msg-0099")
	if r := inboxRun(bin, senderEnv, sender, "", "send", "--to", "agent_f", "msg-0099"); r.code != 0 || !strings.Contains(r.stderr, "3 message(s) an earlier send left in the spool were forwarded first") {
		t.Fatalf("with room again: exit %d, stderr %q", r.code, r.stderr)
	}
	got := deliveredTo(t, bin, realClockEnv(agent), agent, "agent_f", map[string]int{}, want, time.Minute)
	if len(got) != len(want) {
		t.Fatalf("got %d distinct, want %d", len(got), len(want))
	}
	t.Logf("full store: sent %d (3 refused by the full stream and spooled), delivered %d, lost 0, duplicates 0", len(want), len(got))
}

// TestNATSBlackholeBroker: a broker that accepts connections and never
// answers. The hook still answers (exit 0) within its timeout and a
// margin, says so once, and the next call, inside the back-off, does not
// wait at all.
func TestNATSBlackholeBroker(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	silent := natstest.Silent(t)
	agent := natsProject(t, "nats://u:hunter2@"+silent, "")
	writeFile(t, agent, ".claude/massgen-hook.yaml", "inbox:\n  backend: nats\n  url: nats://u:hunter2@"+silent+"\n  timeout: 300ms\n")
	env := realClockEnv(agent)
	start := time.Now()
	r := inboxRun(bin, env, agent, inboxEvent, "post-tool-use", "--agent", "agent_b")
	took := time.Since(start)
	if r.code != 0 || !strings.Contains(r.stdout, "cannot be reached") || !strings.Contains(r.stderr, "timeout") {
		t.Fatalf("blackholed broker: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "hunter2") {
		t.Fatalf("the URL's password reached the output: %q %q", r.stdout, r.stderr)
	}
	if took > 5*time.Second {
		t.Errorf("the hook took %v with a 300ms broker timeout", took)
	}
	r = inboxRun(bin, env, agent, inboxEvent, "post-tool-use", "--agent", "agent_b")
	if r.code != 0 || r.stdout != "" || strings.Contains(r.stderr, "timeout") {
		t.Fatalf("inside the back-off the hook should not try the broker: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
