// Package natsinbox carries the inbox between machines over NATS
// JetStream. `send` publishes each message to a stream; each agent's hooks
// pull what is for it from a durable consumer of its own and queue it in
// the local inbox (package inbox), whose rules then deliver it exactly as
// a message sent on this machine: exactly once, expiry, hand-over at a turn
// boundary, listing. A fetched message is acknowledged only after the
// hook's answer was written; one redelivered (a hook killed before it
// acknowledged) is recognised by its id in the local inbox and not
// delivered again.
//
// The broker is never in the way: each hook's work on it is bounded by a
// timeout, a send the broker does not take waits in a local spool and is
// forwarded later (with its id, so never twice), and an outage is told to
// the user once.
package natsinbox

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/state"
)

// Settings say which server, stream and subjects.
type Settings struct {
	Dial natsclient.Options
	// Stream is the JetStream stream; Subject the subjects' prefix.
	Stream, Subject string
	// MaxBytes bounds a stream created here (0: no bound but the
	// server's).
	MaxBytes int64
	// Timeout bounds each step's work on the broker (connecting and
	// pulling; then acknowledging after the answer).
	Timeout time.Duration
	// AckWait is how long the broker waits for a hook to confirm a
	// message it fetched.
	AckWait time.Duration
}

// Broker is one process's use of the inbox's NATS stream.
type Broker struct {
	Settings
	// Local is this machine's inbox, where fetched messages are queued.
	Local *inbox.Inbox
	State *state.Dir
	// Now is the injected clock (message times, expiry, back-off).
	Now time.Time
	// Notes gets one line for each thing worth telling that stops nothing.
	Notes io.Writer

	conn    *natsclient.Conn
	connErr error
	// Real time bounds network waits; Now is not advanced by them.
	clock func() time.Time
}

// New returns a broker for st's inbox.
func New(s Settings, st *state.Dir, now time.Time) *Broker {
	if s.Timeout <= 0 {
		s.Timeout = 500 * time.Millisecond
	}
	if s.AckWait <= 0 {
		s.AckWait = 30 * time.Second
	}
	return &Broker{Settings: s, Local: inbox.Open(st), State: st, Now: now, Notes: st.Notes, clock: time.Now}
}

func (b *Broker) note(format string, args ...any) {
	if b.Notes != nil {
		fmt.Fprintf(b.Notes, "massgen-hook: inbox: "+format+"\n", args...)
	}
}

// Server is the server URLs as they may be shown (credentials hidden).
func (b *Broker) Server() string {
	shown := make([]string, len(b.Dial.URLs))
	for i, u := range b.Dial.URLs {
		shown[i] = natsclient.Redact(u)
	}
	return strings.Join(shown, ",")
}

// deadline is the end of a step that starts now.
func (b *Broker) deadline() time.Time { return b.clock().Add(b.Timeout) }

// connect dials once per process, by deadline (the step's, so connecting
// and the work after it share one timeout); a failure is kept, so a step
// after it does not wait out another timeout.
func (b *Broker) connect(deadline time.Time) (*natsclient.Conn, error) {
	if b.conn != nil || b.connErr != nil {
		return b.conn, b.connErr
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	// A leaf node says it has no JetStream and forwards to its hub's: so
	// JetStream is judged by the API's answers, not the server's INFO.
	b.conn, b.connErr = natsclient.Dial(ctx, b.Dial)
	return b.conn, b.connErr
}

// Close ends the connection.
func (b *Broker) Close() {
	if b.conn != nil {
		b.conn.Close()
		b.conn = nil
	}
}

// streamConfig is the stream created when there is none: every subject
// under the prefix, kept a week (as long as the local inbox keeps a
// message), and, when full, refusing new messages rather than dropping
// old ones a recipient has not had.
func (b *Broker) streamConfig() natsclient.StreamConfig {
	maxBytes := b.MaxBytes
	if maxBytes == 0 {
		maxBytes = -1
	}
	return natsclient.StreamConfig{Name: b.Stream, Subjects: []string{b.Subject + ".>"}, Retention: "limits",
		MaxAge: 7 * 24 * time.Hour, MaxBytes: maxBytes, MaxMsgs: -1, Storage: "file", Discard: "new",
		Duplicates: time.Hour, Replicas: 1}
}

// ensureStream creates the stream if it does not exist.
func (b *Broker) ensureStream(c *natsclient.Conn, deadline time.Time) error {
	_, err := c.StreamInfo(b.Stream, deadline)
	if natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) {
		_, err = c.AddStream(b.streamConfig(), deadline)
	}
	return err
}

// Subjects: a named message has one copy per recipient, to.<key>; a
// broadcast one, all; a delivery's record goes to receipt.<id>.
func (b *Broker) toSubject(recipient string) string { return b.Subject + ".to." + Key(recipient) }
func (b *Broker) allSubject() string                { return b.Subject + ".all" }
func (b *Broker) receiptSubject(id string) string {
	return b.Subject + ".receipt." + strings.ReplaceAll(id, ".", "_")
}

// consumerName is recipient's durable consumer.
func consumerName(recipient string) string { return "to-" + Key(recipient) }

// Key is recipient's token in subjects and consumer names: the runtime
// directory's key (state.Key), which is letters, digits, - and _ only, the
// name itself when it is plain, else a hash, since names may hold dots
// and colons (gpt-4.1, plugin:reviewer) that a subject cannot.
func Key(recipient string) string { return state.Key(recipient) }
