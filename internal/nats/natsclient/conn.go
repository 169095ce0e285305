// Package natsclient speaks the part of the NATS client protocol massgen-hook
// needs: connect (user and password, token, an nkey seed or a .creds file),
// publish with headers, request and reply, and subscriptions, read
// synchronously with deadlines. jetstream.go adds the JetStream API calls.
//
// It is not nats.go on purpose: nats.go links net/http, encoding/gob and
// compress/flate, whose package initialisation (about 100 KB) every hook
// process would pay at start-up, NATS configured or not. For the same
// reason it speaks no TLS: linking crypto/tls alone makes every process
// start 2.5 ms slower (measured on a bare Go program), so a broker reached
// over TLS is reached through a local nats-server leaf node, which holds
// the TLS connection (docs/across-machines.md). The protocol subset here is
// small, and its tests run it against the real nats-server.
package natsclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"
)

// Options say how to reach a server.
type Options struct {
	// URLs are tried in order: nats://host:port, tls://host:port, or
	// host:port. A URL may carry user:password@ or token@.
	URLs []string
	// Creds is a .creds file (a user JWT and its nkey seed).
	Creds string
	// Nkey is an nkey seed file, for a server that lists user nkeys.
	Nkey string
	// Name is the client name the server shows.
	Name string
	// Domain is the JetStream domain to use ("" the server's own): the
	// hub's, when the server connected to is a leaf node.
	Domain string
}

// Conn is one connection. It is not safe for concurrent use: a hook does
// one thing at a time.
type Conn struct {
	c       net.Conn
	r       *bufio.Reader
	w       *bufio.Writer
	info    serverInfo
	inbox   string // this connection's reply prefix, _INBOX.<random>
	next    int    // the next reply token
	nextSID int
	queued  []*Msg // messages read while waiting for another
	qbytes  int    // their payloads' size
	url     string // redacted
	domain  string
}

type serverInfo struct {
	ServerID     string `json:"server_id"`
	Version      string `json:"version"`
	Headers      bool   `json:"headers"`
	MaxPayload   int64  `json:"max_payload"`
	TLSRequired  bool   `json:"tls_required"`
	AuthRequired bool   `json:"auth_required"`
	Nonce        string `json:"nonce"`
	JetStream    bool   `json:"jetstream"`
}

// Msg is one message received.
type Msg struct {
	Subject string
	Reply   string
	Header  Header
	Data    []byte
	// Status is the status code of a status message (404 no messages,
	// 408 request expired, 503 no responders), else 0.
	Status      int
	Description string
	sid         int
}

// Header is a message's headers.
type Header map[string][]string

// Get returns the first value of key.
func (h Header) Get(key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// errNoTLS is a server that wants TLS.
var errNoTLS = errors.New("the server requires TLS, which massgen-hook does not speak itself: connect to a local nats-server leaf node that holds the TLS connection (see docs/across-machines.md)")

// ErrTimeout is a deadline reached while waiting for the server.
var ErrTimeout = errors.New("nats: timed out")

// ServerError is an -ERR the server sent.
type ServerError struct{ Msg string }

func (e *ServerError) Error() string { return "nats: server error: " + e.Msg }

// Dial connects to the first URL that answers, before ctx ends.
func Dial(ctx context.Context, o Options) (*Conn, error) {
	if len(o.URLs) == 0 {
		return nil, errors.New("nats: no server URL")
	}
	var errs []error
	for _, raw := range o.URLs {
		u, err := parseURL(raw)
		if err != nil {
			return nil, err
		}
		c, err := dial(ctx, u, o)
		if err == nil {
			return c, nil
		}
		if len(o.URLs) > 1 {
			err = fmt.Errorf("%s: %w", u.redacted(), err)
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

func dial(ctx context.Context, u serverURL, o Options) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", u.hostport)
	if err != nil {
		return nil, err
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(10 * time.Second)
	}
	_ = nc.SetDeadline(deadline)
	c := &Conn{c: nc, r: bufio.NewReaderSize(nc, 32<<10), w: bufio.NewWriterSize(nc, 32<<10), url: u.redacted(), domain: o.Domain}
	if err := c.handshake(u, o); err != nil {
		nc.Close()
		return nil, err
	}
	_ = c.c.SetDeadline(time.Time{})
	return c, nil
}

// handshake reads INFO, upgrades to TLS if either side wants it, sends
// CONNECT and waits for the PONG that says the server accepted it.
func (c *Conn) handshake(u serverURL, o Options) error {
	line, err := c.readLine()
	if err != nil {
		return fmt.Errorf("reading the server's INFO: %w", err)
	}
	rest, ok := strings.CutPrefix(line, "INFO ")
	if !ok {
		return fmt.Errorf("not a NATS server (it said %.40q)", line)
	}
	if err := json.Unmarshal([]byte(rest), &c.info); err != nil {
		return fmt.Errorf("the server's INFO: %w", err)
	}
	if c.info.TLSRequired {
		return errNoTLS
	}
	connect := map[string]any{"verbose": false, "pedantic": false, "headers": true, "no_responders": true,
		"protocol": 1, "lang": "go-massgen-hook", "version": "1"}
	if o.Name != "" {
		connect["name"] = o.Name
	}
	switch {
	case u.user != "" && u.hasPassword:
		connect["user"], connect["pass"] = u.user, u.password
	case u.user != "":
		connect["auth_token"] = u.user
	}
	if o.Creds != "" {
		jwt, sig, err := signWithCreds(o.Creds, c.info.Nonce)
		if err != nil {
			return err
		}
		connect["jwt"], connect["sig"] = jwt, sig
	}
	if o.Nkey != "" {
		pub, sig, err := signWithSeedFile(o.Nkey, c.info.Nonce)
		if err != nil {
			return err
		}
		connect["nkey"], connect["sig"] = pub, sig
	}
	data, _ := json.Marshal(connect)
	c.w.WriteString("CONNECT ")
	c.w.Write(data)
	// The reply subscriptions go with the connect, before its PING: by
	// the PONG the server has them, and a server that forwards (a leaf
	// node) has begun passing their interest on before the first request.
	c.inbox = "_INBOX." + randomToken()
	c.nextSID = 3
	fmt.Fprintf(c.w, "\r\nSUB %s.* 1\r\nSUB %s.pull.* 2\r\nPING\r\n", c.inbox, c.inbox)
	if err := c.w.Flush(); err != nil {
		return err
	}
	for {
		line, err := c.readLine()
		if err != nil {
			return fmt.Errorf("waiting for the server to accept the connection: %w", err)
		}
		switch {
		case line == "PONG":
			return nil
		case strings.HasPrefix(line, "-ERR"):
			return &ServerError{Msg: errText(line)}
		case strings.HasPrefix(line, "INFO "), line == "+OK", line == "PING":
			if line == "PING" {
				c.w.WriteString("PONG\r\n")
			}
		default:
			return fmt.Errorf("unexpected %.40q while connecting", line)
		}
	}
}

// Server describes the server connected to, for users: its redacted URL
// and version.
func (c *Conn) Server() string { return c.url + " (nats-server " + c.info.Version + ")" }

// JetStream reports whether the server said it has JetStream.
func (c *Conn) JetStream() bool { return c.info.JetStream }

// Close ends the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Publish sends a message without waiting for anything. Flush makes sure
// the server has it.
func (c *Conn) Publish(subject, reply string, h Header, data []byte) error {
	if err := checkSubject(subject); err != nil {
		return err
	}
	if c.info.MaxPayload > 0 && int64(len(data)) > c.info.MaxPayload {
		return fmt.Errorf("nats: message of %d bytes is over the server's limit of %d", len(data), c.info.MaxPayload)
	}
	if reply != "" {
		reply = " " + reply
	}
	if len(h) == 0 {
		fmt.Fprintf(c.w, "PUB %s%s %d\r\n", subject, reply, len(data))
	} else {
		hdr := encodeHeader(h)
		fmt.Fprintf(c.w, "HPUB %s%s %d %d\r\n", subject, reply, len(hdr), len(hdr)+len(data))
		c.w.Write(hdr)
	}
	c.w.Write(data)
	_, err := c.w.WriteString("\r\n")
	return err
}

// Flush writes what is buffered and waits, until deadline, for the server
// to answer a PING: everything sent before it was processed.
func (c *Conn) Flush(deadline time.Time) error {
	defer c.writeBy(deadline)()
	c.w.WriteString("PING\r\n")
	if err := c.w.Flush(); err != nil {
		return err
	}
	_, err := c.read(deadline, func(*Msg) bool { return false }, true)
	return err
}

// SetWriteDeadline bounds the writes of the Publish calls that follow
// (the zero time: no bound). The calls that take a deadline bound their own
// writes with it: a server that stops reading fills the socket's buffers,
// and a write then waits for it.
func (c *Conn) SetWriteDeadline(t time.Time) { _ = c.c.SetWriteDeadline(t) }

// writeBy bounds writes by deadline until the function it returns puts
// back no bound.
func (c *Conn) writeBy(deadline time.Time) func() {
	_ = c.c.SetWriteDeadline(deadline)
	return func() { _ = c.c.SetWriteDeadline(time.Time{}) }
}

// NewReply returns a fresh reply subject of this connection.
func (c *Conn) NewReply() string {
	c.next++
	return c.inbox + "." + strconv.Itoa(c.next)
}

// Request publishes data with a fresh reply subject and returns the first
// answer. A request no service listens to is a *StatusError 503.
func (c *Conn) Request(subject string, h Header, data []byte, deadline time.Time) (*Msg, error) {
	defer c.writeBy(deadline)()
	reply := c.NewReply()
	if err := c.Publish(subject, reply, h, data); err != nil {
		return nil, err
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	m, err := c.read(deadline, func(m *Msg) bool { return m.Subject == reply }, false)
	if err != nil {
		return nil, err
	}
	if m.Status == 503 {
		return nil, &StatusError{Code: 503, Description: "no responders for " + subject}
	}
	return m, nil
}

// StatusError is a status message where data was expected.
type StatusError struct {
	Code        int
	Description string
}

func (e *StatusError) Error() string { return fmt.Sprintf("nats: status %d %s", e.Code, e.Description) }

// Subscribe subscribes to subject and returns its id for NextMsg.
func (c *Conn) Subscribe(subject string) (int, error) {
	sid := c.nextSID
	c.nextSID++
	fmt.Fprintf(c.w, "SUB %s %d\r\n", subject, sid)
	return sid, c.w.Flush()
}

// Unsubscribe ends subscription sid; messages of it already read are
// dropped.
func (c *Conn) Unsubscribe(sid int) {
	fmt.Fprintf(c.w, "UNSUB %d\r\n", sid)
	kept := c.queued[:0]
	for _, m := range c.queued {
		if m.sid != sid {
			kept = append(kept, m)
		} else {
			c.qbytes -= len(m.Data)
		}
	}
	c.queued = kept
}

// NextMsg returns the next message of subscription sid, or ErrTimeout at
// deadline.
func (c *Conn) NextMsg(sid int, deadline time.Time) (*Msg, error) {
	return c.read(deadline, func(m *Msg) bool { return m.sid == sid }, false)
}

// NextReply returns the next message sent to reply (a subject made by
// NewReply), or ErrTimeout at deadline.
func (c *Conn) NextReply(reply string, deadline time.Time) (*Msg, error) {
	defer c.writeBy(deadline)()
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	return c.read(deadline, func(m *Msg) bool { return m.Subject == reply }, false)
}

// read returns the first message want accepts (queued ones first), or,
// with pong, nil at the first PONG. Messages it does not want are queued
// for a later read, up to a bound (stale replies are dropped first).
func (c *Conn) read(deadline time.Time, want func(*Msg) bool, pong bool) (*Msg, error) {
	if !pong {
		for i, m := range c.queued {
			if want(m) {
				c.queued = append(c.queued[:i], c.queued[i+1:]...)
				c.qbytes -= len(m.Data)
				return m, nil
			}
		}
	}
	if c.w.Buffered() > 0 {
		defer c.writeBy(deadline)()
		if err := c.w.Flush(); err != nil {
			return nil, err
		}
	}
	_ = c.c.SetReadDeadline(deadline)
	defer c.c.SetReadDeadline(time.Time{})
	for {
		line, err := c.readLine()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, ErrTimeout
			}
			return nil, err
		}
		switch {
		case strings.HasPrefix(line, "MSG "), strings.HasPrefix(line, "HMSG "):
			m, err := c.readMsg(line)
			if err != nil {
				return nil, err
			}
			if want(m) {
				return m, nil
			}
			if len(c.queued) < maxQueued && c.qbytes+len(m.Data) <= maxQueuedBytes {
				c.queued = append(c.queued, m)
				c.qbytes += len(m.Data)
			}
		case line == "PING":
			c.w.WriteString("PONG\r\n")
			if err := c.w.Flush(); err != nil {
				return nil, err
			}
		case line == "PONG":
			if pong {
				return nil, nil
			}
		case strings.HasPrefix(line, "-ERR"):
			return nil, &ServerError{Msg: errText(line)}
		case line == "+OK", strings.HasPrefix(line, "INFO "):
		default:
			return nil, fmt.Errorf("nats: unexpected %.40q from the server", line)
		}
	}
}

// Messages read while waiting for another are kept up to these bounds;
// past them they are dropped (a pull's message dropped is given out again
// after its ack wait).
const (
	maxQueued      = 4096
	maxQueuedBytes = 16 << 20
)

// readMsg reads the payload of a MSG or HMSG line.
func (c *Conn) readMsg(line string) (*Msg, error) {
	f := strings.Fields(line)
	hmsg := f[0] == "HMSG"
	want := 4
	if hmsg {
		want = 5
	}
	if len(f) != want && len(f) != want+1 {
		return nil, fmt.Errorf("nats: malformed %.60q", line)
	}
	m := &Msg{Subject: f[1]}
	sid, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("nats: malformed %.60q", line)
	}
	m.sid = sid
	if len(f) == want+1 {
		m.Reply = f[3]
	}
	total, err := strconv.Atoi(f[len(f)-1])
	if err != nil || total < 0 || total > 64<<20 {
		return nil, fmt.Errorf("nats: malformed %.60q", line)
	}
	hlen := 0
	if hmsg {
		hlen, err = strconv.Atoi(f[len(f)-2])
		if err != nil || hlen < 0 || hlen > total {
			return nil, fmt.Errorf("nats: malformed %.60q", line)
		}
	}
	buf := make([]byte, total+2)
	if _, err := io.ReadFull(c.r, buf); err != nil {
		return nil, err
	}
	if !bytes.Equal(buf[total:], []byte("\r\n")) {
		return nil, fmt.Errorf("nats: the payload of %.60q does not end with CRLF", line)
	}
	if hlen > 0 {
		m.Header, m.Status, m.Description = decodeHeader(buf[:hlen])
	}
	m.Data = buf[hlen:total]
	return m, nil
}

// maxLine bounds a protocol line: a server's INFO (a cluster's lists its
// members' URLs) is far shorter, and a line without end is not read into
// memory until the deadline.
const maxLine = 1 << 20

func (c *Conn) readLine() (string, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			return "", fmt.Errorf("nats: a line from the server is too long (over %d bytes)", maxLine)
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return "", err
		}
		return strings.TrimRight(string(line), "\r\n"), nil
	}
}

func errText(line string) string {
	return strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "-ERR")), "'")
}

// encodeHeader is the NATS/1.0 header block.
func encodeHeader(h Header) []byte {
	var b bytes.Buffer
	b.WriteString("NATS/1.0\r\n")
	for k, vs := range h {
		for _, v := range vs {
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteString("\r\n")
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// decodeHeader reads a header block: its fields, and the status code and
// description of a status message ("NATS/1.0 404 No Messages").
func decodeHeader(b []byte) (Header, int, string) {
	lines := strings.Split(string(b), "\r\n")
	h := Header{}
	status, desc := 0, ""
	if first := strings.TrimSpace(strings.TrimPrefix(lines[0], "NATS/1.0")); first != "" {
		code, rest, _ := strings.Cut(first, " ")
		status, _ = strconv.Atoi(code)
		desc = rest
	}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if ok {
			h[strings.TrimSpace(k)] = append(h[strings.TrimSpace(k)], strings.TrimSpace(v))
		}
	}
	return h, status, desc
}

// checkSubject refuses a subject the protocol would misread: empty, or
// holding white space.
func checkSubject(s string) error {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("nats: invalid subject %q", s)
	}
	return nil
}

// randomToken names a connection's reply subjects. math/rand/v2's
// generator is seeded from the system's entropy; crypto/rand would add its
// start-up to every hook process.
func randomToken() string {
	return strconv.FormatUint(rand.Uint64(), 36) + strconv.FormatUint(rand.Uint64(), 36)
}

// SetDomain switches the JetStream domain the API calls go to.
func (c *Conn) SetDomain(domain string) { c.domain = domain }
