package natsinbox_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// The broker reached over TLS: massgen-hook does not link a TLS stack (it
// would slow every hook's start), so each machine runs a nats-server leaf
// node that holds the TLS connection to the hub, and the hooks talk to the
// leaf on loopback. JetStream stays on the hub.
func TestThroughALeafNodeOverTLS(t *testing.T) {
	serverTLS, clientTLS := natstest.SelfSigned(t)
	hub := natstest.Start(t, natstest.Options{Configure: func(o *server.Options) {
		o.JetStreamDomain = "hub"
		o.LeafNode.Host, o.LeafNode.Port = "127.0.0.1", natstest.FreePort(t)
		o.LeafNode.TLSConfig, o.LeafNode.TLSTimeout = serverTLS, 5
	}})
	leafURL, _ := url.Parse("nats-leaf://127.0.0.1:" + strings.TrimPrefix(hub.LeafAddr(), "127.0.0.1:"))
	leaf := func() *natstest.Server {
		return natstest.Start(t, natstest.Options{NoJetStream: true, Configure: func(o *server.Options) {
			o.LeafNode.Remotes = []*server.RemoteLeafOpts{{URLs: []*url.URL{leafURL}, TLS: true, TLSConfig: clientTLS, TLSTimeout: 5}}
		}})
	}
	leafA, leafB := leaf(), leaf()
	leafA.WaitLeafConnected(t)
	leafB.WaitLeafConnected(t)
	for _, l := range []*natstest.Server{leafA, leafB} {
		c := dialT(t, l.URL())
		c.SetDomain("hub")
		deadline := time.Now().Add(5 * time.Second)
		for {
			_, err := c.StreamInfo("NONE", time.Now().Add(time.Second))
			if err == nil || strings.Contains(err.Error(), "not found") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the hub's JetStream is not reachable through the leaf: %v", err)
			}
		}
	}
	sender, agent := newMachine(t, leafA.URL()), newMachine(t, leafB.URL())
	sender.domain, agent.domain = "hub", "hub"
	if res := sender.send(t0, inbox.Draft{To: []string{"reviewer"}, Text: "over TLS"}); res.Spooled {
		t.Fatalf("spooled: %s", res.Reason)
	}
	if _, got := agent.call(t0.Add(time.Second), "reviewer", true); strings.Join(got, "|") != "over TLS" {
		t.Fatalf("got %q; notes %s", got, agent.notes.String())
	}
}
