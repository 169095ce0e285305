// Package natstest runs a real nats-server, with JetStream on a temporary
// store, inside a test. Only tests import it, so the server is never
// linked into massgen-hook.
package natstest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded nats-server with JetStream.
type Server struct {
	t     testing.TB
	opts  server.Options
	s     *server.Server
	Store string
}

// Options change the server a test starts.
type Options struct {
	// MaxStore bounds JetStream's file store, in bytes (0: no bound).
	MaxStore int64
	// Users, when set, requires a user and password.
	User, Password string
	// NoJetStream starts a server without JetStream (a leaf node that
	// forwards to its hub's).
	NoJetStream bool
	// Configure changes the server's options before it starts.
	Configure func(*server.Options)
}

// Start starts a server on a free loopback port and stops it when the test
// ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	store := t.TempDir()
	opts := server.Options{
		Host: "127.0.0.1", Port: FreePort(t), JetStream: !o.NoJetStream, StoreDir: filepath.Join(store, "js"),
		JetStreamMaxStore: o.MaxStore, JetStreamMaxMemory: 64 << 20, NoLog: true, NoSigs: true,
		Username: o.User, Password: o.Password,
	}
	if o.Configure != nil {
		o.Configure(&opts)
	}
	s := &Server{t: t, opts: opts, Store: store}
	s.start()
	t.Cleanup(s.Shutdown)
	return s
}

func (s *Server) start() {
	s.t.Helper()
	opts := s.opts
	srv, err := server.NewServer(&opts)
	if err != nil {
		s.t.Fatalf("nats-server: %v", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		s.t.Fatalf("nats-server did not start")
	}
	s.s = srv
}

// URL is the server's address.
func (s *Server) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", s.opts.Port) }

// Shutdown stops the server (its store stays).
func (s *Server) Shutdown() {
	if s.s != nil {
		s.s.Shutdown()
		s.s.WaitForShutdown()
		s.s = nil
	}
}

// Restart stops the server and starts it again on the same port and store.
func (s *Server) Restart() {
	s.t.Helper()
	s.Shutdown()
	s.start()
}

// LeafAddr is the host:port of the server's leaf node listener.
func (s *Server) LeafAddr() string {
	return fmt.Sprintf("%s:%d", s.opts.LeafNode.Host, s.opts.LeafNode.Port)
}

// WaitLeafConnected waits until the server's leaf node connections are up.
func (s *Server) WaitLeafConnected(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.s.NumLeafNodes() < len(s.opts.LeafNode.Remotes) {
		if time.Now().After(deadline) {
			t.Fatal("the leaf node did not connect to its hub")
		}
		time.Sleep(10 * time.Millisecond) // polling the server's own count: a condition, not a fixed wait
	}
}

// FreePort is a free TCP port on loopback.
func FreePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WriteCreds writes a .creds file for tests of credential parsing.
func WriteCreds(t testing.TB, dir, jwt, seed string) string {
	path := filepath.Join(dir, "user.creds")
	text := fmt.Sprintf("-----BEGIN NATS USER JWT-----\n%s\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n%s\n------END USER NKEY SEED------\n", jwt, seed)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Serve starts a server with JetStream on store, for a caller that has no
// testing.TB (a testscript command); the caller shuts it down.
func Serve(store string) (url string, shutdown func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: store,
		JetStreamMaxMemory: 64 << 20, NoLog: true, NoSigs: true})
	if err != nil {
		return "", nil, err
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return "", nil, fmt.Errorf("nats-server did not start")
	}
	return fmt.Sprintf("nats://127.0.0.1:%d", port), func() { srv.Shutdown(); srv.WaitForShutdown() }, nil
}
