package natsclient_test

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/natsclient"
)

// fakeServer is a server that misbehaves: it sends info as its INFO, takes
// the connect up to its PING (answered with PONG unless handshake is
// false), then hands the connection to then.
func fakeServer(t *testing.T, info string, handshake bool, then func(net.Conn, *bufio.Reader)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { l.Close(); <-done })
	go func() {
		defer close(done)
		nc, err := l.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		r := bufio.NewReader(nc)
		if info != "" {
			nc.Write([]byte(info))
		}
		if handshake {
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if strings.TrimSpace(line) == "PING" {
					break
				}
			}
			nc.Write([]byte("PONG\r\n"))
		}
		if then != nil {
			then(nc, r)
		}
	}()
	return "nats://" + l.Addr().String()
}

// within runs f and fails the test if it has not returned by limit: a
// hang detector, not a timing assertion (f's own deadline is far shorter).
func within(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("still waiting after %s: a deadline was not kept", limit)
	}
}

func dialFake(t *testing.T, url string) *natsclient.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{url}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A server that stops reading (a broker wedged, a link gone silent) fills
// the socket's buffers: writing a request must still end at its deadline.
func TestRequestToAServerThatStopsReadingEndsAtTheDeadline(t *testing.T) {
	stop := make(chan struct{})
	url := fakeServer(t, `INFO {"max_payload":67108864,"headers":true}`+"\r\n", true, func(net.Conn, *bufio.Reader) { <-stop })
	t.Cleanup(func() { close(stop) })
	c := dialFake(t, url)
	big := make([]byte, 32<<20)
	within(t, 10*time.Second, func() {
		_, err := c.Request("svc", nil, big, time.Now().Add(200*time.Millisecond))
		if err == nil {
			t.Error("want an error from a server that reads nothing")
		}
	})
	within(t, 10*time.Second, func() {
		if err := c.Ack([]*natsclient.Msg{{Reply: "$JS.ACK.S.C.1.1.1.1.0"}}, time.Now().Add(200*time.Millisecond)); err == nil {
			t.Error("want an error from a server that reads nothing")
		}
	})
}
