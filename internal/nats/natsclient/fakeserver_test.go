package natsclient_test

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
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

// A line that never ends (a server gone wrong, or not a server) is refused
// once it is longer than any the protocol has, not read into memory until
// the deadline.
func TestOverlongLineIsRefused(t *testing.T) {
	stop := make(chan struct{})
	url := fakeServer(t, "", false, func(nc net.Conn, _ *bufio.Reader) {
		nc.Write([]byte("INFO {"))
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 256 { // 16 MiB, without a newline
			if _, err := nc.Write(chunk); err != nil {
				return
			}
		}
		<-stop
	})
	t.Cleanup(func() { close(stop) })
	within(t, 10*time.Second, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := natsclient.Dial(ctx, natsclient.Options{URLs: []string{url}})
		if err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("want the line refused as too long, got %v", err)
		}
	})
}

// A message's payload is followed by CRLF; one that is not is a stream out
// of step, whose next "line" would be read from inside a payload.
func TestMessageWithoutItsCRLFIsRefused(t *testing.T) {
	url := fakeServer(t, `INFO {"headers":true}`+"\r\n", true, func(nc net.Conn, r *bufio.Reader) {
		r.ReadString('\n') // the client's PING
		nc.Write([]byte("MSG _INBOX.x.1 1 3\r\nabcXYPONG\r\n"))
		r.ReadString('\n')
	})
	c := dialFake(t, url)
	within(t, 10*time.Second, func() {
		if err := c.Flush(time.Now().Add(5 * time.Second)); err == nil {
			t.Error("want an error for a payload not followed by CRLF")
		}
	})
}

// Messages read while waiting for another (for a subscription nobody reads
// now, or never made) are kept for a later read up to a bound in bytes, not
// only in count: 4096 messages of the largest payload are gigabytes.
func TestMessagesForOthersAreKeptWithinABound(t *testing.T) {
	payload := strings.Repeat("p", 1<<20)
	url := fakeServer(t, `INFO {"headers":true,"max_payload":8388608}`+"\r\n", true, func(nc net.Conn, r *bufio.Reader) {
		r.ReadString('\n') // the client's PING
		w := bufio.NewWriter(nc)
		for range 20 { // past the 16 MiB bound
			w.WriteString("MSG stray 99 1048576\r\n" + payload + "\r\n")
		}
		w.WriteString("PONG\r\n")
		w.Flush()
		r.ReadString('\n')
	})
	c := dialFake(t, url)
	within(t, 60*time.Second, func() {
		if err := c.Flush(time.Now().Add(30 * time.Second)); err != nil {
			t.Error(err)
		}
	})
	if n := natsclient.QueuedBytes(c); n > 16<<20 {
		t.Fatalf("%d bytes kept of messages nobody waits for", n)
	}
}
