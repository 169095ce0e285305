package natsinbox_test

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natsinbox"
	"github.com/massgen/massgen-hook/state"
)

// silentServer accepts a connection, answers its connect, and then says
// nothing more: a broker wedged after the handshake.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); l.Close() })
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				nc.Write([]byte(`INFO {"headers":true}` + "\r\n"))
				r := bufio.NewReader(nc)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if strings.TrimSpace(line) == "PING" {
						nc.Write([]byte("PONG\r\n"))
						break
					}
				}
				<-stop
			}()
		}
	}()
	return "nats://" + l.Addr().String()
}

// The timeout bounds a hook's whole time on the broker before its answer,
// connecting and pulling together: a connect that took most of it leaves
// the pull only the rest. The clock here says the connect took an hour.
func TestPullSharesOneBudgetWithTheConnect(t *testing.T) {
	url := silentServer(t)
	b := natsinbox.New(natsinbox.Settings{Dial: natsclient.Options{URLs: []string{url}}, Stream: "INBOX", Subject: "mh.inbox",
		Timeout: 300 * time.Millisecond}, state.Open(t.TempDir()), t0)
	start, calls := time.Now(), 0
	natsinbox.SetClock(b, func() time.Time {
		calls++
		if calls == 1 {
			return start
		}
		return start.Add(time.Hour)
	})
	done := make(chan *natsinbox.Pull)
	go func() { done <- b.Pull("a", true) }()
	select {
	case p := <-done:
		if p.Warning == "" {
			t.Fatal("a silent broker: want the outage told")
		}
	case <-time.After(10 * time.Second):
		b.Close()
		t.Fatal("the pull did not end with the budget the connect started")
	}
}
