// Package natstest runs a real nats-server, with JetStream on a temporary
// store, inside a test or a bench program. Only tests and bench programs
// import it, so the server is never linked into massgen-hook.
package natstest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded nats-server with JetStream.
type Server struct {
	// t is the test of a server from Start, nil for one from Run.
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
	s := newServer(t.TempDir(), server.RANDOM_PORT, o)
	s.t = t
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// Run starts a server on a free loopback port outside a test (a bench
// program), its store in dir. The caller stops it with Shutdown.
func Run(dir string, o Options) (*Server, error) {
	s := newServer(dir, server.RANDOM_PORT, o)
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

func newServer(store string, port int, o Options) *Server {
	opts := server.Options{
		Host: "127.0.0.1", Port: port, JetStream: !o.NoJetStream, StoreDir: filepath.Join(store, "js"),
		JetStreamMaxStore: o.MaxStore, JetStreamMaxMemory: 64 << 20, NoLog: true, NoSigs: true,
		Username: o.User, Password: o.Password,
	}
	if o.Configure != nil {
		o.Configure(&opts)
	}
	return &Server{opts: opts, Store: store}
}

func (s *Server) start() error {
	opts := s.opts
	srv, err := server.NewServer(&opts)
	if err != nil {
		return fmt.Errorf("nats-server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return errors.New("nats-server did not start")
	}
	// The server binds a port of its own choosing, the first time: a
	// port found free and handed over could be taken meanwhile (a hook
	// process's outgoing connection), and the server then never listened.
	// A restart takes the same port again (and writes nothing: tests read
	// the URL meanwhile).
	if s.opts.Port == server.RANDOM_PORT {
		s.opts.Port = srv.Addr().(*net.TCPAddr).Port
	}
	s.s = srv
	return nil
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

// Restart stops the server of a test (from Start) and starts it again on
// the same port and store.
func (s *Server) Restart() {
	s.t.Helper()
	s.Shutdown()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
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
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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

// Silent listens on loopback, accepts every connection and never answers:
// a broker that is up at the TCP level and silent. It returns its host:port;
// the listener and the connections close when the test ends.
func Silent(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}
