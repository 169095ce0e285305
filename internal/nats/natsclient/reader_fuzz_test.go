package natsclient_test

import (
	"testing"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// FuzzReader feeds the reader what a broken or hostile server could send:
// it must end in an error, never panic, and every message it returns must
// hold no more than its line announced.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{
		"MSG a.b 1 3\r\nabc\r\n",
		"MSG a.b 1 reply.to 3\r\nabc\r\n",
		"HMSG a.b 2 $JS.ACK.S.C.1.2.3.1700000000000000000.0 12 15\r\nNATS/1.0\r\n\r\nabc\r\n",
		"HMSG _INBOX.x.pull.1 2 28 28\r\nNATS/1.0 404 No Messages\r\n\r\n\r\n",
		"HMSG _INBOX.x.pull.1 2 16 16\r\nNATS/1.0 409\r\n\r\n\r\n",
		"HMSG a 2 $JS.ACK.dom.acc.S.C.1.2.3.4.5.tok 24 24\r\nNATS/1.0\r\nK: v\r\nK:w\r\n\r\n\r\n",
		"HMSG a 1 5 3\r\nabc\r\n",
		"HMSG a 1 -1 3\r\nabc\r\n",
		"MSG a 1 -3\r\nabc\r\n",
		"MSG a 1 99999999999999999999\r\n",
		"MSG a x 3\r\nabc\r\n",
		"MSG a 1 3\r\nabcXYPING\r\n",
		"MSG\r\n",
		"HMSG a 1 3\r\n",
		"PING\r\nPONG\r\n+OK\r\nINFO {}\r\n-ERR 'Permissions Violation'\r\n",
		"MSG $JS.ACK 1 $JS.ACK....... 0\r\n\r\n",
		"HMSG a 1 4 4\r\n\r\n\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, err := natsclient.ReadStream(data)
		if err == nil {
			t.Fatal("a stream that ends must end in an error")
		}
		for _, m := range msgs {
			if len(m.Data) > len(data) {
				t.Fatalf("a payload of %d bytes from %d bytes read", len(m.Data), len(data))
			}
			_, _ = m.Meta()
			_ = m.Header.Get("Nats-Msg-Id")
		}
	})
}
