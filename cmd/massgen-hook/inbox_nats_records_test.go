package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// updateInboxStream sets the bound of the inbox's stream, as an operator
// does (nats stream edit).
func updateInboxStream(t *testing.T, c *natsclient.Conn, maxBytes int) {
	t.Helper()
	cfg := fmt.Sprintf(`{"name":"MASSGEN_INBOX","subjects":["massgen.inbox.>"],"retention":"limits","max_age":604800000000000,"max_bytes":%d,"max_msgs":-1,"storage":"file","discard":"new","duplicate_window":3600000000000,"num_replicas":1}`, maxBytes)
	m, err := c.Request("$JS.API.STREAM.UPDATE.MASSGEN_INBOX", nil, []byte(cfg), time.Now().Add(5*time.Second))
	if err != nil || strings.Contains(string(m.Data), `"error"`) {
		t.Fatalf("updating the stream: %v %s", err, m.Data)
	}
}

// fillInboxStream stores filler on the stream until it refuses even one
// byte: no delivery record fits after that.
func fillInboxStream(t *testing.T, c *natsclient.Conn) {
	t.Helper()
	for _, size := range []int{256, 16, 1} {
		for i := 0; ; i++ {
			if i > 10000 {
				t.Fatal("the stream never filled up")
			}
			_, err := c.PublishJS("massgen.inbox.filler", []byte(strings.Repeat("f", size)), natsclient.PublishOptions{}, time.Now().Add(5*time.Second))
			if natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestNATSFullStreamDeliveryRecords: the stream is full when the agent's
// hook delivers the 3 messages it holds, so the stream refuses their
// delivery records. The records wait in the agent machine's spool (its
// `inbox` shows the messages delivered, records still to publish), the
// next tool call tells the user once, and once an operator makes room the
// next hook publishes them: `inbox` on the sender's machine then shows the
// 3 messages DELIVERED.
func TestNATSFullStreamDeliveryRecords(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{})
	sender, agent := natsProject(t, srv.URL(), ""), natsProject(t, srv.URL(), "")
	senderEnv, agentEnv := realClockEnv(sender), realClockEnv(agent)
	for i := range 3 {
		if r := inboxRun(bin, senderEnv, sender, "", "send", "--to", "agent_d", fmt.Sprintf("msg-%04d", i)); r.code != 0 {
			t.Fatalf("send: exit %d, stderr %q", r.code, r.stderr)
		}
	}
	c := natsConn(t, srv.URL())
	updateInboxStream(t, c, 4096)
	fillInboxStream(t, c)

	r, msgs, err := postToolUse(bin, agentEnv, agent, "agent_d")
	if err != nil || r.code != 0 || len(msgs) != 3 {
		t.Fatalf("the agent should get its 3 messages from the full stream: %q, %v, exit %d, stderr %q", msgs, err, r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "delivery record(s) wait in") {
		t.Errorf("the refused records should be said on stderr: %q", r.stderr)
	}
	here := listNATS(t, bin, agentEnv, agent)
	if len(here.SpooledRecords) != 3 {
		t.Errorf("the agent's machine should list 3 spooled records, got %d", len(here.SpooledRecords))
	}
	for _, m := range here.Messages {
		if len(m.Delivered) != 1 || !m.Delivered[0].Unpublished || len(m.PendingFor) != 0 {
			t.Errorf("on the agent's machine %s should be delivered, its record to publish: %+v", m.Text, m)
		}
	}
	text := inboxRun(bin, agentEnv, agent, "", "inbox")
	if !strings.Contains(text.stdout, "DELIVERED (3)") || !strings.Contains(text.stdout, "DELIVERY RECORDS SPOOLED HERE, NOT YET ON THE BROKER (3;") {
		t.Errorf("inbox on the agent's machine: %s", text.stdout)
	}

	told := 0
	for range 2 {
		r := inboxRun(bin, agentEnv, agent, inboxEvent, "post-tool-use", "--agent", "agent_d")
		if r.code != 0 {
			t.Fatalf("post-tool-use: exit %d, stderr %q", r.code, r.stderr)
		}
		if strings.Contains(r.stdout, "does not take delivery records") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the refusal was told %d times over two calls, want once", told)
	}
	if there := listNATS(t, bin, senderEnv, sender); len(there.Messages) != 3 || len(there.Messages[0].PendingFor) != 1 {
		t.Fatalf("on the sender's machine, with no record on the stream, they are pending: %+v", there.Messages)
	}

	updateInboxStream(t, c, 1<<20) // an operator makes room
	// The next tool call after the hooks' back-off (5 s on their clock).
	later := append(append([]string{}, agentEnv...), "MASSGEN_HOOK_NOW="+time.Now().Add(time.Minute).UTC().Format(time.RFC3339))
	if r := inboxRun(bin, later, agent, inboxEvent, "post-tool-use", "--agent", "agent_d"); r.code != 0 {
		t.Fatalf("post-tool-use: exit %d, stderr %q", r.code, r.stderr)
	}
	there := listNATS(t, bin, senderEnv, sender)
	for _, m := range there.Messages {
		if len(m.Delivered) != 1 || m.Delivered[0].To != "agent_d" || m.Delivered[0].Unpublished || len(m.PendingFor) != 0 {
			t.Errorf("on the sender's machine %s should show delivered: %+v", m.Text, m)
		}
	}
	text = inboxRun(bin, senderEnv, sender, "", "inbox")
	if !strings.Contains(text.stdout, "DELIVERED (3)") || strings.Contains(text.stdout, "PENDING") {
		t.Fatalf("inbox on the sender's machine: %s", text.stdout)
	}
	if here := listNATS(t, bin, agentEnv, agent); len(here.SpooledRecords) != 0 {
		t.Fatalf("the agent's spool should be empty: %d", len(here.SpooledRecords))
	}
	t.Log("full stream: 3 delivered, 3 records refused and spooled, told once, all 3 on record elsewhere once there was room")
}
