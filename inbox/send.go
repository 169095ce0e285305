package inbox

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// Draft is a message as send is asked for it.
type Draft struct {
	// To lists recipients; empty broadcasts.
	To       []string
	From     string
	Source   string
	Strategy string
	Matcher  string
	// TTL is how long it stays deliverable at a tool call; 0 is the
	// default (none for named recipients, DefaultBroadcastTTL for a
	// broadcast).
	TTL  time.Duration
	Text string
	// Workspace is a peer's workspace folder to snapshot for the
	// recipients (needs From).
	Workspace string
}

// Send queues d and returns the message. The message file is written and
// synced before any recipient's token appears, so a hook that sees a token
// always finds the whole message. A draft that could not be delivered as
// given (bad source, matcher or name, too long) is a *DraftError and
// nothing is written.
func (ib *Inbox) Send(d Draft, now time.Time) (*Message, error) {
	m, err := ib.newMessage(d, now)
	if err != nil {
		return nil, err
	}
	var snapshot func() error
	if d.Workspace != "" {
		abs, err := filepath.Abs(d.Workspace)
		if err != nil {
			return nil, draftErrorf("--workspace %s: %v", d.Workspace, err)
		}
		m.Workspace = abs
		if err := ib.fitsRewritten(m); err != nil {
			return nil, err
		}
		snapshot = func() error { return ib.snapshot(m.ID, abs) }
	}
	if err := ib.queue(m, snapshot); err != nil {
		return nil, err
	}
	return m, nil
}

// newMessage checks d and makes its message for this inbox: a peer
// answer is counted among its sender's (its revision).
func (ib *Inbox) newMessage(d Draft, now time.Time) (*Message, error) {
	m, err := d.message(now)
	if err != nil {
		return nil, err
	}
	if err := ib.checkLinks(); err != nil {
		return nil, err
	}
	if m.Source == Peer && m.From != "" {
		rev, err := ib.addPeer(m.From, m.To)
		if err != nil {
			return nil, fmt.Errorf("recording peer %s: %w", m.From, err)
		}
		m.Revision = rev
	}
	return m, nil
}

// message checks d and makes its message.
func (d Draft) message(now time.Time) (*Message, error) {
	if err := checkText(d.Text); err != nil {
		return nil, err
	}
	if d.Source == "" {
		d.Source = Human
	}
	if !slices.Contains(Sources, d.Source) {
		return nil, draftErrorf("--source %q: want one of %v", d.Source, Sources)
	}
	switch d.Strategy {
	case "":
		d.Strategy = defaultStrategy(d.Source)
	case ToolResult, UserMessage:
	default:
		return nil, draftErrorf("--strategy %q: want tool_result or user_message", d.Strategy)
	}
	if d.Matcher != "" {
		if _, err := match.Compile(d.Matcher); err != nil {
			return nil, draftErrorf("--matcher %q: %v", d.Matcher, err)
		}
	}
	for _, to := range d.To {
		if err := ValidName("--to", to); err != nil {
			return nil, err
		}
	}
	if d.From != "" {
		// A peer is an agent (its id is anonymised, its workspace named
		// for it); any other sender is a label, only shown.
		check := validLabel
		if d.Source == Peer || d.Workspace != "" {
			check = ValidName
		}
		if err := check("--from", d.From); err != nil {
			return nil, err
		}
	}
	if d.Workspace != "" && d.From == "" {
		return nil, draftErrorf("--workspace needs --from: the sender is who the recipients' copy is named for")
	}
	if d.TTL < 0 {
		return nil, draftErrorf("--ttl %s: a time to live cannot be negative", d.TTL)
	}
	m := &Message{ID: newID(now, rand.Uint32()), From: d.From, Source: d.Source, Strategy: d.Strategy,
		Matcher: d.Matcher, Text: d.Text, SentAt: now.UTC()}
	for _, to := range d.To {
		if !slices.Contains(m.To, to) {
			m.To = append(m.To, to)
		}
	}
	ttl := d.TTL
	if ttl == 0 && m.Broadcast() {
		ttl = DefaultBroadcastTTL
	}
	if ttl > 0 {
		at := m.SentAt.Add(ttl)
		m.ExpiresAt = &at
	}
	return m, nil
}

// queue writes m, runs before (the workspace snapshot, under m's final
// id), and then writes its tokens: no hook sees the message until all of
// it is in place. An id already taken (two sends in one nanosecond drawing
// the same random part) gets a fresh random part.
func (ib *Inbox) queue(m *Message, before func() error) error {
	dir, err := ib.ensure(messagesDir)
	if err != nil {
		return err
	}
	if err := ib.monotonic(m); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		ok, err := publish(ib.path(messagesDir, m.ID+".json"), data)
		if err != nil {
			return fmt.Errorf("writing message %s: %w", m.ID, err)
		}
		if ok {
			break
		}
		if attempt == 10 {
			return fmt.Errorf("writing message: no free id after %d attempts", attempt)
		}
		m.ID = newID(idTime(m.ID), rand.Uint32())
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	if before != nil {
		if err := before(); err != nil {
			_ = os.Remove(ib.path(messagesDir, m.ID+".json"))
			return err
		}
	}
	folders := [][]string{{pendingAll}}
	if !m.Broadcast() {
		folders = folders[:0]
		for _, to := range m.To {
			folders = append(folders, []string{pendingDir, recipientKey(to)})
		}
	}
	for _, f := range folders {
		tdir, err := ib.ensure(f...)
		if err != nil {
			return err
		}
		if err := touch(ib.path(append(f, m.ID)...)); err != nil {
			return fmt.Errorf("queueing message %s: %w", m.ID, err)
		}
		if err := syncDir(tdir); err != nil {
			return fmt.Errorf("syncing %s: %w", tdir, err)
		}
	}
	return nil
}

// fitsRewritten checks that a peer answer still fits one hook output once
// its workspace paths point at the longest copy path a recipient can have
// (<runtime>/workspaces/<recipient key>/<alias>), so it is never cut on
// delivery.
func (ib *Inbox) fitsRewritten(m *Message) error {
	longest := filepath.Join(ib.State.Path, WorkspacesDir, strings.Repeat("k", maxKeyLen), "agent9999")
	n := protocol.UTF16Len(rewritePaths(m.Text, m.Workspace, longest))
	if n > MaxText {
		return draftErrorf("the message is %d characters once its paths point at the recipients' copies of the workspace; at most %d fit whole in one hook output. Shorten it, or mention fewer paths", n, MaxText)
	}
	return nil
}

// maxKeyLen is the longest recipient key: a plain name up to 100 bytes is
// kept as it is (state.Key), anything else is a 34-byte hash.
const maxKeyLen = 100

// lastIDRecord, in the runtime directory, holds the time part of the
// newest id issued.
const lastIDRecord = dirName + "/last-id.json"

// monotonic moves m's id after every id issued before it. Ids are send
// times, and the order of ids is the order of delivery and which answer a
// peer's workspace copy keeps; a clock stepped back (NTP, a restored VM)
// must not make a newer message look older.
func (ib *Inbox) monotonic(m *Message) error {
	var last struct {
		At time.Time `json:"at"`
	}
	err := ib.State.UpdateJSON(lastIDRecord, &last, func() (bool, error) {
		at := idTime(m.ID)
		if !at.After(last.At) {
			at = last.At.Add(time.Nanosecond)
		}
		last.At = at
		m.ID = newID(at, rand.Uint32())
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("writing message: giving it an id after the last one sent: %w", err)
	}
	return nil
}
