package natsclient

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"time"
)

// SignWithCreds is signWithCreds, for tests.
var SignWithCreds = signWithCreds

// QueuedBytes is what c holds of messages read while waiting for others.
func QueuedBytes(c *Conn) int {
	n := 0
	for _, m := range c.queued {
		n += len(m.Data)
	}
	return n
}

// ReadStream reads what a server sent, data, as a connection reads it,
// until the first error: every message, for every subscription.
func ReadStream(data []byte) ([]*Msg, error) {
	near, far := net.Pipe()
	defer near.Close()
	defer far.Close()
	c := &Conn{c: near, r: bufio.NewReader(bytes.NewReader(data)), w: bufio.NewWriter(io.Discard)}
	var out []*Msg
	for {
		m, err := c.read(time.Now().Add(time.Minute), func(*Msg) bool { return true }, false)
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

// ReplyPrefix is c's reply subjects' prefix, which any client that sees
// its requests learns.
func ReplyPrefix(c *Conn) string { return c.inbox }
