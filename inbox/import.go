package inbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp/syntax"
	"slices"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// Prepare checks d and makes its message as Send would queue it (an id
// after every id issued here, a peer answer's revision) without queueing
// it: a broker carries it instead. A workspace snapshot is refused: it is
// copied into the recipients' project, which a broker's recipients on
// other machines do not share.
func (ib *Inbox) Prepare(d Draft, now time.Time) (*Message, error) {
	if d.Workspace != "" {
		return nil, draftErrorf("--workspace copies the sender's files into this machine's inbox, which agents on other machines do not see (inbox.backend is nats): send the answer's text, and share its files another way (a git remote, a shared volume)")
	}
	m, err := ib.newMessage(d, now)
	if err != nil {
		return nil, err
	}
	if err := ib.monotonic(m); err != nil {
		return nil, err
	}
	return m, nil
}

// CheckForeign checks a message that came from elsewhere (a broker) as
// send checks a draft, since anything a stream holds reaches this inbox's
// paths and an agent's context only through here: an id of the fixed
// shape, a known source and strategy, names a hook can resolve, a text
// that fits one hook output. What only this machine can have (a
// workspace snapshot, a MassGen Codex payload) is refused.
func CheckForeign(m *Message) error {
	switch {
	case !ValidID(m.ID):
		return fmt.Errorf("message id %q is not an id massgen-hook issues", m.ID)
	case !slices.Contains(Sources, m.Source):
		return fmt.Errorf("message %s: source %q is not one of %v", m.ID, m.Source, Sources)
	case m.Strategy != ToolResult && m.Strategy != UserMessage:
		return fmt.Errorf("message %s: strategy %q is not tool_result or user_message", m.ID, m.Strategy)
	case m.Workspace != "" || m.CodexSequence != nil:
		return fmt.Errorf("message %s carries a workspace or payload only its sender's machine has", m.ID)
	case protocol.UTF16Len(m.Text) > MaxText:
		return fmt.Errorf("message %s is longer than %d characters", m.ID, MaxText)
	}
	if err := checkForeignMatcher(m.Matcher); err != nil {
		return fmt.Errorf("message %s: %w", m.ID, err)
	}
	for _, to := range m.To {
		if err := ValidName("to", to); err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
	}
	if m.From != "" {
		if err := validLabel("from", m.From); err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
	}
	return nil
}

// A message's matcher is compiled at every tool call while it waits, so
// one from elsewhere is held to a size whose compiling costs nothing: a few
// hundred bytes of nested repeats take tens of milliseconds each time.
const (
	maxForeignMatcher      = 256
	maxForeignMatcherInsts = 500
)

func checkForeignMatcher(s string) error {
	if len(s) > maxForeignMatcher {
		return fmt.Errorf("its matcher is longer than %d bytes", maxForeignMatcher)
	}
	if _, err := match.Compile(s); err != nil {
		return err
	}
	if rest, ok := strings.CutPrefix(s, match.RegexPrefix); ok {
		re, err := syntax.Parse(rest, syntax.Perl)
		if err != nil {
			return err
		}
		if prog, err := syntax.Compile(re.Simplify()); err != nil || len(prog.Inst) > maxForeignMatcherInsts {
			return errors.New("its matcher's regular expression is too large")
		}
	}
	return nil
}

// Import queues messages a broker fetched for recipient in this inbox, as
// send would have, so the inbox's rules (exactly once, expiry, hand-over
// at a turn boundary, listing) apply to them unchanged. A message is
// queued for recipient at most once, however often it is fetched: one
// recipient already has (a receipt) or waits for (a token) is left alone.
// That is how a redelivered message is told apart. A peer answer's sender
// and recipients join the roster, so peers are numbered here as where they
// were sent. Everything is on disk and synced when Import returns nil.
func (ib *Inbox) Import(ms []*Message, recipient string) error {
	if len(ms) == 0 {
		return nil
	}
	if err := ib.checkLinks(); err != nil {
		return err
	}
	dir, err := ib.ensure(messagesDir)
	if err != nil {
		return err
	}
	var kept []*Message
	for _, m := range ms {
		if err := CheckForeign(m); err != nil {
			return err
		}
		if !m.For(recipient) {
			return fmt.Errorf("message %s is not for %s", m.ID, recipient)
		}
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		created, err := publish(ib.path(messagesDir, m.ID+".json"), data)
		if err != nil {
			return fmt.Errorf("keeping message %s: %w", m.ID, err)
		}
		if !created && !ib.holds(m.ID, data) {
			// Another message holds this id here (a forged copy, first
			// or second): the one here stays and this one is not
			// queued, since its token would deliver the other's text.
			ib.note("message %s from the broker differs from the message of that id already here; it is not queued (compare them with massgen-hook inbox)", m.ID)
			continue
		}
		kept = append(kept, m)
	}
	ms = kept
	if err := syncDir(dir); err != nil {
		return err
	}
	tokenDirs := map[string]bool{}
	for _, m := range ms {
		if m.Source == Peer && m.From != "" {
			if err := ib.notePeer(m.From, m.To); err != nil {
				return fmt.Errorf("recording peer %s: %w", m.From, err)
			}
		}
		folder := ib.tokenFolder(m, recipient)
		if folder == nil {
			continue
		}
		tdir, err := ib.ensure(folder...)
		if err != nil {
			return err
		}
		if err := touch(ib.path(append(folder, m.ID)...)); err != nil {
			return fmt.Errorf("queueing message %s: %w", m.ID, err)
		}
		tokenDirs[tdir] = true
	}
	for d := range tokenDirs {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// holds reports whether the message stored as id is the one data encodes.
func (ib *Inbox) holds(id string, data []byte) bool {
	here, err := ib.read(id)
	if err != nil {
		return false
	}
	hdata, err := json.MarshalIndent(here, "", "  ")
	return err == nil && bytes.Equal(hdata, data)
}

// tokenFolder is where m's token for recipient goes, or nil when m is
// already queued, delivered or handed over for it here.
func (ib *Inbox) tokenFolder(m *Message, recipient string) []string {
	rk := recipientKey(recipient)
	if exists(ib.path(receiptsDir, m.ID, rk+".json")) {
		return nil
	}
	if !m.Broadcast() {
		if exists(ib.path(pendingDir, rk, m.ID)) || exists(ib.path(undeliveredDir, rk, m.ID)) {
			return nil
		}
		return []string{pendingDir, rk}
	}
	// A broadcast has one token for every agent here: if it is pending or
	// undelivered, or was retired (it expired after someone here had it,
	// or an agent took it over late), it is not queued again.
	if exists(ib.path(pendingAll, m.ID)) || exists(ib.path(undeliveredAll, m.ID)) ||
		len(receiptNames(ib.path(receiptsDir, m.ID))) > 0 || len(ib.tokenHolders(undeliveredDir, m.ID)) > 0 {
		return nil
	}
	return []string{pendingAll}
}

// Has reports whether message id is in this inbox.
func (ib *Inbox) Has(id string) bool {
	if !ValidID(id) {
		return false
	}
	_, err := os.Lstat(ib.path(messagesDir, id+".json"))
	return !errors.Is(err, os.ErrNotExist)
}

// Delivery is one message delivered to one recipient, as a record other
// machines can read. Claimed marks a claim never confirmed (a hook stopped
// between claiming and answering): it may not have arrived.
type Delivery struct {
	ID string `json:"id"`
	Record
	Claimed bool `json:"claimed,omitempty"`
}

// Deliveries are the batch's deliveries, as they are recorded once its
// answer is written.
func (b *Batch) Deliveries() []Delivery {
	if b.Empty() {
		return nil
	}
	out := make([]Delivery, len(b.Items))
	for i, it := range b.Items {
		out[i] = Delivery{ID: it.Message.ID, Record: Record{To: b.To, At: b.now.UTC(), Via: b.via, Late: b.late}}
	}
	return out
}

// DeliveryOf is the record of message id's delivery to recipient, when it
// was delivered or claimed here.
func (ib *Inbox) DeliveryOf(id, recipient string) (Delivery, bool) {
	if !ValidID(id) {
		return Delivery{}, false
	}
	r, err := readReceipt(ib.path(receiptsDir, id, recipientKey(recipient)+".json"))
	if err != nil {
		return Delivery{}, false
	}
	return Delivery{ID: id, Record: Record{To: recipient, At: r.At, Via: r.Via, Late: r.Late}, Claimed: r.State != Delivered}, true
}
