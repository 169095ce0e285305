package natsaudit

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/state"
)

// The stream the sink creates when it is missing. Limits retention with
// discard old: the stream is a shared copy for looking back, so when it is
// full the oldest lines go, never the new ones (a stream that refused new
// lines would leave every hook spooling); each machine's local trail keeps
// its own. Lines older than StreamMaxAge go too.
const (
	StreamMaxAge   = 30 * 24 * time.Hour
	StreamMaxBytes = 1 << 30
	// DuplicateWindow is how long the stream remembers message ids: a
	// line sent again within it (its acknowledgement was lost, the forward
	// cut short) is stored once.
	DuplicateWindow = 10 * time.Minute
)

// Backoff after a failure: no hook tries the broker again before
// FirstBackoff has passed on the hooks' clock, doubling with each failure
// in a row up to MaxBackoff.
const (
	FirstBackoff = 5 * time.Second
	MaxBackoff   = time.Minute
)

// healthRecord (a record of the runtime directory) holds the outage the
// sink is in, if any: when to try again and whether the user was told.
const healthRecord = SpoolFolder + "/audit-sink.json"

type health struct {
	Since    time.Time `json:"since"`
	RetryAt  time.Time `json:"retry_at"`
	Failures int       `json:"failures"`
	Noted    bool      `json:"noted"`
}

// Sink publishes audit lines to a JetStream subject (a state.AuditSink).
// One Sink serves one process: its connection and its time budget are the
// process's. It is not safe for concurrent use.
type Sink struct {
	Dir  *state.Dir
	Dial natsclient.Options
	// Stream is created with the subjects Prefix.> when it is missing;
	// lines go to Subject (Prefix.<project key>).
	Stream, Prefix, Subject string
	// Timeout bounds all the broker work of the process, from its first
	// line: dialling, creating the stream, forwarding the spool and
	// publishing.
	Timeout time.Duration
	// Now is the hooks' clock, for the backoff.
	Now func() time.Time
	// Notes gets the one-line notes for the user (stderr).
	Notes io.Writer
	// MaxSpool overrides MaxSpoolBytes (tests use a small one).
	MaxSpool int64
	// Setup, when set, is why the server cannot be reached at all (a
	// credentials file that is missing): every line is spooled and the
	// user told.
	Setup error

	conn     *natsclient.Conn
	deadline time.Time
	down     bool // this process met a failure or a backoff: spool the rest
	read     bool // the health record was read
	wasDown  bool // it said the sink was in an outage
	retryAt  time.Time
	created  bool
}

// Publish sends line to the broker, after any spooled lines, within the
// budget; what it cannot send is spooled. It never fails: what goes wrong
// is told on Notes once per outage.
func (s *Sink) Publish(line []byte) {
	e := entry{id: newID(), line: append([]byte(nil), line...)}
	if !s.down && s.backingOff() {
		s.down = true
	}
	if !s.down {
		err := s.send(e)
		if err == nil {
			s.recovered()
			return
		}
		s.failed(err)
	}
	s.keep(e)
}

// Close ends the connection.
func (s *Sink) Close() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

func (s *Sink) spool() spool {
	max := s.MaxSpool
	if max <= 0 {
		max = MaxSpoolBytes
	}
	return spool{dir: s.Dir, max: max}
}

// backingOff reads the health record (once a process) and reports
// whether its retry time is still to come.
func (s *Sink) backingOff() bool {
	if !s.read {
		s.read = true
		var h health
		ok, err := s.Dir.ReadJSON(healthRecord, &h)
		s.wasDown = ok || err != nil
		s.retryAt = h.RetryAt
	}
	return s.wasDown && s.now().Before(s.retryAt)
}

func (s *Sink) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// sinkError is an error of the sink's own (a constant: nothing is
// allocated at start-up by a process that never publishes).
type sinkError string

func (e sinkError) Error() string { return string(e) }

const errBudget = sinkError("the time allowed for the broker is spent")

// send publishes the spool, then e. Network deadlines are on the real
// clock (Now may be a test's or a replay's fixed time).
func (s *Sink) send(e entry) error {
	if s.deadline.IsZero() {
		s.deadline = time.Now().Add(s.Timeout)
	}
	if s.Setup != nil {
		return s.Setup
	}
	if !time.Now().Before(s.deadline) {
		return errBudget
	}
	if s.conn == nil {
		ctx, cancel := context.WithDeadline(context.Background(), s.deadline)
		conn, err := natsclient.Dial(ctx, s.Dial)
		cancel()
		if err != nil {
			return err
		}
		s.conn = conn
	}
	sp := s.spool()
	if sp.pending() {
		if _, err := sp.forward(s.publishAll); err != nil {
			return err
		}
	}
	n, err := s.publishAll([]entry{e})
	if n == 1 {
		return nil
	}
	if err == nil {
		err = sinkError("the broker did not take the line")
	}
	return err
}

// window is how many publishes are in flight at once while forwarding.
const window = 256

// publishAll publishes entries in order, a window at a time, and returns
// how many from the front the stream acknowledged. A missing stream is
// created once and the window sent again.
//
// Before the first publish on a machine the stream is made sure of through
// the JetStream API (a mark in the runtime directory remembers it): through
// a leaf node, a publish no stream takes gets no answer at all, only a
// timeout, so it is not the way to find out.
func (s *Sink) publishAll(entries []entry) (int, error) {
	if !s.created && s.Dir != nil && !s.Dir.ReadOnly {
		var known map[string]bool
		if ok, err := s.Dir.ReadJSON(streamMark, &known); err != nil || !ok || !known[s.Stream] {
			if _, err := s.conn.StreamInfo(s.Stream, s.deadline); natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) {
				s.created = true
				if err := s.createStream(); err != nil {
					return 0, err
				}
			} else if err != nil {
				return 0, err
			}
			_ = s.Dir.UpdateJSON(streamMark, &known, func() (bool, error) {
				if known == nil {
					known = map[string]bool{}
				}
				known[s.Stream] = true
				return true, nil
			})
		}
	}
	done := 0
	for done < len(entries) {
		end := min(done+window, len(entries))
		n, err := s.publishWindow(entries[done:end])
		if errors.Is(err, errNoStream) && !s.created {
			s.created = true
			if err = s.createStream(); err == nil {
				n, err = s.publishWindow(entries[done:end])
			}
		}
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

const errNoStream = sinkError("no stream takes the subject")

// streamMark, in the runtime directory, lists the audit streams known to
// exist.
const streamMark = "nats/audit-streams.json"

// publishWindow sends entries together and then reads their
// acknowledgements; it returns how many in a row from the first were
// stored (or found stored: a duplicate is a success), or refused for good.
func (s *Sink) publishWindow(entries []entry) (int, error) {
	replies := make([]string, len(entries))
	sent := len(entries)
	var sendErr error
	for i, e := range entries {
		r := s.conn.NewReply()
		h := natsclient.Header{"Nats-Msg-Id": {e.id}}
		if err := s.conn.Publish(s.Subject, r, h, e.line); err != nil {
			if refusedForGood(err) {
				s.dropRefused(err)
				continue
			}
			sent, sendErr = i, err
			break
		}
		replies[i] = r
	}
	for i, r := range replies[:sent] {
		if r == "" {
			continue
		}
		m, err := s.conn.NextReply(r, s.deadline)
		if err == nil {
			err = pubAckError(m)
		}
		if refusedForGood(err) {
			s.dropRefused(err)
			continue
		}
		if err != nil {
			return i, err
		}
	}
	return sent, sendErr
}

// refusedForGood reports whether err refuses a line that will never be
// taken, however often it is sent: one over the server's or the stream's
// size limit. Kept in the spool, it would hold back every line after it.
func refusedForGood(err error) bool {
	return err != nil && (natsclient.IsAPIError(err, errCodeMsgTooLarge) || strings.Contains(err.Error(), "over the server's limit"))
}

// errCodeMsgTooLarge is JetStream's "message size exceeds maximum allowed".
const errCodeMsgTooLarge = 10054

// dropRefused notes a line dropped from the copy.
func (s *Sink) dropRefused(err error) {
	s.note("audit copy to NATS: the broker refuses a line for good (%s); it is left out of the copy (the local trail has it)", s.scrub(err.Error()))
}

// pubAckError is the error a publish's answer holds, if any.
func pubAckError(m *natsclient.Msg) error {
	if m.Status == 503 {
		return errNoStream
	}
	if m.Status != 0 {
		return &natsclient.StatusError{Code: m.Status, Description: m.Description}
	}
	var ack struct {
		Stream string               `json:"stream"`
		Error  *natsclient.APIError `json:"error"`
	}
	if err := json.Unmarshal(m.Data, &ack); err != nil {
		return fmt.Errorf("the broker's acknowledgement does not parse: %w", err)
	}
	if ack.Error != nil {
		return ack.Error
	}
	if ack.Stream == "" {
		return errors.New("the broker's acknowledgement names no stream")
	}
	return nil
}

// createStream creates the audit stream (see StreamMaxAge).
func (s *Sink) createStream() error {
	_, err := s.conn.AddStream(StreamConfig(s.Stream, s.Prefix), s.deadline)
	if err != nil {
		return fmt.Errorf("creating stream %s: %w", s.Stream, err)
	}
	return nil
}

// StreamConfig is the audit stream massgen-hook creates.
func StreamConfig(stream, prefix string) natsclient.StreamConfig {
	return natsclient.StreamConfig{
		Name: stream, Subjects: []string{prefix + ".>"}, Retention: "limits", Storage: "file",
		Discard: "old", MaxAge: StreamMaxAge, MaxBytes: StreamMaxBytes, MaxMsgs: -1,
		Duplicates: DuplicateWindow, Replicas: 1,
	}
}

// failed ends this process's tries, starts or extends the outage's
// backoff, and tells the user once per outage.
func (s *Sink) failed(err error) {
	s.down = true
	s.Close()
	now := s.now()
	var h health
	first := false
	uerr := s.Dir.UpdateJSON(healthRecord, &h, func() (bool, error) {
		h.Failures++
		if h.Since.IsZero() {
			h.Since = now
		}
		h.RetryAt = now.Add(backoff(h.Failures))
		first = !h.Noted
		h.Noted = true
		return true, nil
	})
	if uerr != nil {
		first = !s.wasDown
	}
	if first {
		s.note("audit copy to NATS %s failed: %s; lines are kept in %s and sent when the broker answers (the local trail has them all)",
			s.server(), s.scrub(err.Error()), s.spool().path())
	}
}

// recovered ends the outage the health record holds, so the next one is
// told again.
func (s *Sink) recovered() {
	if s.wasDown {
		s.wasDown = false
		if err := s.Dir.Remove(healthRecord); err != nil {
			s.note("audit copy to NATS: %v", err)
		}
	}
}

// keep spools e, noting what cannot be kept.
func (s *Sink) keep(e entry) {
	sp := s.spool()
	dropped, err := sp.add(e)
	if err != nil {
		s.note("audit copy to NATS: could not spool a line (the local trail has it): %s", s.scrub(err.Error()))
	}
	if dropped > 0 {
		s.note("audit copy to NATS: the spool %s reached %d MiB; dropped its %d oldest lines (the local trail has them)",
			sp.path(), sp.max>>20, dropped)
	}
}

func (s *Sink) note(format string, args ...any) {
	if s.Notes != nil {
		fmt.Fprintf(s.Notes, "massgen-hook: "+format+"\n", args...)
	}
}

// server is the configured server URLs, redacted.
func (s *Sink) server() string {
	out := make([]string, len(s.Dial.URLs))
	for i, u := range s.Dial.URLs {
		out[i] = natsclient.Redact(u)
	}
	return strings.Join(out, ",")
}

// scrub removes from text any user, password or token of the server URLs:
// errors from below are not trusted to have left them out.
func (s *Sink) scrub(text string) string {
	text = natsclient.RedactText(text)
	for _, raw := range s.Dial.URLs {
		text = strings.ReplaceAll(text, raw, natsclient.Redact(raw))
		u, err := url.Parse(raw)
		if err != nil || u.User == nil {
			continue
		}
		// The password, or a token (a user without one); a user name
		// beside a password is not secret, and may be a common word.
		secret, ok := u.User.Password()
		if !ok {
			secret = u.User.Username()
		}
		if secret != "" {
			text = strings.ReplaceAll(text, secret, "***")
		}
	}
	return text
}

func backoff(failures int) time.Duration {
	d := FirstBackoff
	for i := 1; i < failures && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// newID is a message id: 128 random bits, as 32 hex digits. It needs to
// be unique, not secret: math/rand's generator, seeded by the runtime,
// spares every hook crypto/rand's start-up.
func newID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}
