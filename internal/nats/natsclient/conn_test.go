package natsclient_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

func dial(t *testing.T, o natsclient.Options) *natsclient.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := natsclient.Dial(ctx, o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func soon() time.Time { return time.Now().Add(5 * time.Second) }

func TestPublishSubscribeWithHeaders(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	sub := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	pub := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	sid, err := sub.Subscribe("greet.>")
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Flush(soon()); err != nil {
		t.Fatal(err)
	}
	body := "hello\r\nMSG fake 1 3\r\nwith protocol text inside"
	if err := pub.Publish("greet.a", "", natsclient.Header{"X-One": {"1"}}, []byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := pub.Flush(soon()); err != nil {
		t.Fatal(err)
	}
	m, err := sub.NextMsg(sid, soon())
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "greet.a" || string(m.Data) != body || m.Header.Get("X-One") != "1" {
		t.Fatalf("got %q %q %v", m.Subject, m.Data, m.Header)
	}
	if _, err := sub.NextMsg(sid, time.Now().Add(50*time.Millisecond)); !errors.Is(err, natsclient.ErrTimeout) {
		t.Fatalf("no message: want ErrTimeout, got %v", err)
	}
}

func TestRequestWithoutResponderIs503(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	_, err := c.Request("nobody.home", nil, nil, soon())
	var se *natsclient.StatusError
	if !errors.As(err, &se) || se.Code != 503 {
		t.Fatalf("want status 503, got %v", err)
	}
}

func TestDialTriesEachURLAndRedactsThem(t *testing.T) {
	s := natstest.Start(t, natstest.Options{User: "agent", Password: "s3cret-pw"})
	dead := "nats://agent:s3cret-pw@127.0.0.1:1"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	good := strings.Replace(s.URL(), "nats://", "nats://agent:s3cret-pw@", 1)
	c, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{dead, good}})
	if err != nil {
		t.Fatalf("second URL should connect: %v", err)
	}
	if strings.Contains(c.Server(), "s3cret") || !strings.Contains(c.Server(), "***@") {
		t.Fatalf("Server() shows credentials: %s", c.Server())
	}
	c.Close()
	_, err = natsclient.Dial(ctx, natsclient.Options{URLs: []string{dead}})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("a dead URL: want an error without the password, got %v", err)
	}
	bad := strings.Replace(s.URL(), "nats://", "nats://agent:wrong-pw@", 1)
	_, err = natsclient.Dial(ctx, natsclient.Options{URLs: []string{bad}})
	var se *natsclient.ServerError
	if !errors.As(err, &se) || strings.Contains(err.Error(), "wrong-pw") {
		t.Fatalf("a wrong password: want the server's refusal without the password, got %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"nats://u:p@host:4222":   "nats://***@host:4222",
		"tls://tok@host":         "tls://***@host",
		"nats://host:4222":       "nats://host:4222",
		"u:p@h:1":                "***@h:1",
		"nats://a:b@c@host:4222": "nats://***@host:4222",
	} {
		if got := natsclient.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := natsclient.RedactText(`dial nats://u:p@h:1: refused; also "tls://tok@x/y" and nats://plain:4222`); got != `dial nats://***@h:1: refused; also "tls://***@x/y" and nats://plain:4222` {
		t.Errorf("RedactText: %s", got)
	}
	ctx := context.Background()
	_, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{"nats://u:p%zz@host"}})
	if err == nil || strings.Contains(err.Error(), "p%zz") {
		t.Fatalf("an unparsable URL: want an error without its secret, got %v", err)
	}
}

func TestNkeySeedAuthAgainstServer(t *testing.T) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	s := natstest.Start(t, natstest.Options{Configure: func(o *server.Options) {
		o.Nkeys = []*server.NkeyUser{{Nkey: pub}}
	}})
	path := filepath.Join(t.TempDir(), "user.nk")
	if err := os.WriteFile(path, append(seed, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}, Nkey: path})
	if err := c.Flush(soon()); err != nil {
		t.Fatal(err)
	}
	other, _ := nkeys.CreateUser()
	otherSeed, _ := other.Seed()
	if err := os.WriteFile(path, otherSeed, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{s.URL()}, Nkey: path}); err == nil {
		t.Fatal("an unknown nkey was accepted")
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestCredsSignatureVerifies(t *testing.T) {
	kp, _ := nkeys.CreateUser()
	seed, _ := kp.Seed()
	path := natstest.WriteCreds(t, t.TempDir(), "eyJ0eXAiOiJKV1QifQ.e30.sig", string(seed))
	jwt, sig, err := natsclient.SignWithCreds(path, "nonce-123")
	if err != nil {
		t.Fatal(err)
	}
	if jwt != "eyJ0eXAiOiJKV1QifQ.e30.sig" {
		t.Fatalf("jwt %q", jwt)
	}
	raw, err := decodeSig(sig)
	if err != nil {
		t.Fatal(err)
	}
	if err := kp.Verify([]byte("nonce-123"), raw); err != nil {
		t.Fatalf("signature does not verify: %v", err)
	}
	bad := natstest.WriteCreds(t, t.TempDir(), "x", string(seed[:10])+flip(seed[10])+string(seed[11:]))
	if _, _, err := natsclient.SignWithCreds(bad, "n"); err == nil {
		t.Fatal("a seed with a wrong checksum was accepted")
	}
}

func TestTLSServerIsRefusedWithTheWayRound(t *testing.T) {
	serverTLS, _ := natstest.SelfSigned(t)
	s := natstest.Start(t, natstest.Options{Configure: func(o *server.Options) {
		o.TLS, o.TLSConfig, o.TLSTimeout = true, serverTLS, 5
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, url := range []string{s.URL(), strings.Replace(s.URL(), "nats://", "tls://", 1)} {
		_, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{url}})
		if err == nil || !strings.Contains(err.Error(), "leaf node") {
			t.Errorf("%s: want the leaf node advice, got %v", url, err)
		}
	}
}

// A password or token holding a character URLs reserve (base64 tokens hold
// / and +) is taken whole, and no part of it appears in an error: url.Parse
// alone splits such a URL before the @ and quotes the piece as a host or
// port.
func TestSecretsWithURLDelimitersAreNeverShown(t *testing.T) {
	for _, raw := range []string{
		"nats://bob:Xs3cr/etZ@127.0.0.1:1",
		"nats://Xs3cr/et+Z==@127.0.0.1:1",
		"nats://bob:Xs3cr#etZ@127.0.0.1:1",
		"nats://bob:Xs3cr?etZ@127.0.0.1:1",
		"bob:Xs3cr/etZ@127.0.0.1:1",
		"nats://bob:Xs3cr%zz@127.0.0.1:1",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{raw}})
		cancel()
		if err == nil || strings.Contains(err.Error(), "Xs3cr") || strings.Contains(natsclient.Redact(raw), "Xs3cr") {
			t.Errorf("%s: want an error without the secret, got %v", raw, err)
		}
	}
	s := natstest.Start(t, natstest.Options{User: "agent", Password: "pw/with#odd?chars"})
	good := strings.Replace(s.URL(), "nats://", "nats://agent:pw/with#odd?chars@", 1)
	c := dial(t, natsclient.Options{URLs: []string{good}})
	if strings.Contains(c.Server(), "odd") {
		t.Fatalf("Server() shows the password: %s", c.Server())
	}
}
