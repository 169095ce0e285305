package inbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/protocol"

	"github.com/massgen/massgen-hook/state"
)

// Via says where a batch is delivered, for its receipts.
type Via struct {
	Event   string `json:"event"`
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
}

// Receipt states: claimed while the hook answers, delivered once its
// answer was written.
const (
	Claimed   = "claimed"
	Delivered = "delivered"
)

// receipt is one recipient's claim on one message.
type receipt struct {
	To    string    `json:"to"`
	State string    `json:"state"`
	At    time.Time `json:"at"`
	Via
	// Late: it expired before a tool call took it, and was handed over at
	// a turn boundary.
	Late bool `json:"late,omitempty"`
}

// Item is one message of a batch as its recipient sees it.
type Item struct {
	Message *Message
	// Sender is the name shown for the sender: an anonymous alias for a
	// peer, else From.
	Sender string
	// Text is the message's text with a peer's workspace paths and agent
	// ids rewritten for this recipient.
	Text string
	// Workspace is this recipient's copy of the sender's workspace, if any.
	Workspace string
	// Label is a peer answer's MassGen label, agent1.2 for agent1's second
	// answer ("" for an answer sent before labels were kept). OldLabel is
	// the label the recipient had from the same sender, and Update whether
	// it had one.
	Label, OldLabel string
	Update          bool

	token   string // the token to remove once delivered
	receipt string
}

// Batch is the messages claimed for one delivery. Settle it once the hook's
// answer is written (or could not be).
type Batch struct {
	ib    *Inbox
	To    string
	Items []Item
	late  bool
	via   Via
	now   time.Time
	used  int // UTF-16 units the items take, shown
	// Confirmed, when set, is told the deliveries once their receipts
	// are confirmed (a broker publishes them for other machines).
	Confirmed func([]Delivery)
}

// Empty reports whether there is nothing to deliver.
func (b *Batch) Empty() bool { return b == nil || len(b.Items) == 0 }

// entry is a token found in a queue folder.
type entry struct {
	id, path  string
	broadcast bool
}

// queued lists the tokens of folders, oldest first across them.
func (ib *Inbox) queued(broadcastDir string, ownDir ...string) ([]entry, error) {
	var out []entry
	for _, f := range []struct {
		parts     []string
		broadcast bool
	}{{ownDir, false}, {[]string{broadcastDir}, true}} {
		ids, err := tokens(ib.path(f.parts...))
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			out = append(out, entry{id: id, path: ib.path(append(f.parts, id)...), broadcast: f.broadcast})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// Take claims the pending messages for recipient that a call of tool may
// carry, oldest first, as many as fit in budget (UTF-16 units; always at
// least one). Expired messages met on the way move to the undelivered list.
// A message another hook claimed first is skipped: each recipient gets each
// message once.
func (ib *Inbox) Take(recipient, tool string, now time.Time, budget int, via Via) (*Batch, error) {
	if there, err := ib.checkLinksIfAny(); err != nil || !there {
		return nil, err
	}
	rk := recipientKey(recipient)
	entries, err := ib.queued(pendingAll, pendingDir, rk)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	b := &Batch{ib: ib, To: recipient, via: via, now: now}
	for _, e := range entries {
		m, err := ib.read(e.id)
		if err != nil {
			ib.note("%v; it stays in the inbox (see massgen-hook inbox)", err)
			continue
		}
		if m.Expired(now) {
			ib.expire(m, e)
			continue
		}
		if !m.For(recipient) || !m.Matches(tool) {
			continue
		}
		if full, err := b.add(m, e.path, budget); err != nil {
			return b.claimFailed(m, err, "pending")
		} else if full {
			break // the rest wait for the next call, oldest first
		}
	}
	return b, nil
}

// claimFailed ends a batch whose claim of m failed. A claim fails when the
// runtime directory cannot be written (full, read-only), and then the next
// one would fail too: so the batch stops there. What was claimed already
// is delivered, with one note; an empty batch is an error, which the inbox
// rule turns into its fail-open warning. Either way m and the rest stay
// where they are.
func (b *Batch) claimFailed(m *Message, err error, stays string) (*Batch, error) {
	err = fmt.Errorf("could not claim message %s: %w; it and the rest stay %s", m.ID, err, stays)
	if len(b.Items) == 0 {
		return nil, err
	}
	b.ib.note("%v", err)
	return b, nil
}

// add claims m for the batch if it fits in budget as it will be shown
// (banner, sender, rewritten text and the strategy's frame all counted),
// and reports whether the batch is full. The first message always fits:
// send keeps each one well under the output's cap.
func (b *Batch) add(m *Message, token string, budget int) (full bool, err error) {
	ok, err := b.claim(m, token)
	if err != nil || !ok {
		return false, err
	}
	last := b.Items[len(b.Items)-1]
	cost := protocol.UTF16Len(render([]Item{last})) + frameCost
	if b.used > 0 && b.used+cost > budget {
		b.release(last)
		b.Items = b.Items[:len(b.Items)-1]
		return true, nil
	}
	b.used += cost
	return false, nil
}

// frameCost bounds what a strategy's frame (the separator block, the
// system-reminder tags) adds to a part.
const frameCost = 150

// TakeLate claims, at a turn boundary, the messages for recipient that
// expired before a tool call could carry them, oldest first, as many as fit
// in budget. An expired broadcast nobody received goes to the first agent
// that reaches a turn boundary.
func (ib *Inbox) TakeLate(recipient string, now time.Time, budget int, via Via) (*Batch, error) {
	if there, err := ib.checkLinksIfAny(); err != nil || !there {
		return nil, err
	}
	rk := recipientKey(recipient)
	if err := ib.sweep(recipient, now); err != nil {
		return nil, err
	}
	entries, err := ib.queued(undeliveredAll, undeliveredDir, rk)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	b := &Batch{ib: ib, To: recipient, via: via, now: now, late: true}
	for _, e := range entries {
		m, err := ib.read(e.id)
		if err != nil {
			ib.note("%v; it stays in the inbox (see massgen-hook inbox)", err)
			continue
		}
		if !m.For(recipient) {
			continue
		}
		path := e.path
		if e.broadcast && !ib.State.ReadOnly {
			// One agent takes it over: the move has one winner.
			moved, err := ib.move(e.path, undeliveredDir, rk, e.id)
			if err != nil || !moved {
				continue
			}
			path = ib.path(undeliveredDir, rk, e.id)
			// The folder's key may be a hash: the token names its holder.
			_ = hookfs.WriteOwnFile(path, []byte(recipient))
		}
		if full, err := b.add(m, path, budget); err != nil {
			return b.claimFailed(m, err, "undelivered")
		} else if full {
			break
		}
	}
	return b, nil
}

// sweep moves recipient's expired pending messages (and expired
// broadcasts) to the undelivered lists.
func (ib *Inbox) sweep(recipient string, now time.Time) error {
	entries, err := ib.queued(pendingAll, pendingDir, recipientKey(recipient))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if m, err := ib.read(e.id); err == nil && m.Expired(now) {
			ib.expire(m, e)
		}
	}
	return nil
}

// expire moves an expired message's token to the undelivered list. A
// broadcast delivered to at least one agent is done; one delivered to none
// becomes undelivered for whoever reaches a turn boundary first.
func (ib *Inbox) expire(m *Message, e entry) {
	if ib.State.ReadOnly {
		return
	}
	var err error
	switch {
	case !e.broadcast:
		// The token's folder is its recipient's key.
		_, err = ib.move(e.path, undeliveredDir, filepath.Base(filepath.Dir(e.path)), m.ID)
	case ib.anyDelivered(m.ID):
		err = removeToken(e.path)
	default:
		_, err = ib.move(e.path, undeliveredAll, m.ID)
	}
	if err != nil {
		ib.note("could not move expired message %s to the undelivered list: %v", m.ID, err)
	}
}

// claim creates recipient's receipt for m with O_EXCL: of hooks running at
// once, exactly one succeeds. It reports false, and claims nothing, when a
// receipt exists: the message was delivered, or is being delivered, by
// another hook. A stale token of a delivered message is removed.
func (b *Batch) claim(m *Message, token string) (bool, error) {
	if b.ib.State.ReadOnly {
		// A dry run (explain) shows what would be delivered, claiming
		// nothing.
		item, err := b.ib.prepare(m, b.To)
		if err == nil {
			b.Items = append(b.Items, item)
		}
		return err == nil, err
	}
	if _, err := b.ib.ensure(receiptsDir, m.ID); err != nil {
		return false, err
	}
	path := b.ib.path(receiptsDir, m.ID, recipientKey(b.To)+".json")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		r, rerr := readReceipt(path)
		if rerr != nil {
			// Nobody can tell whether it was delivered: it is not
			// delivered again, and not in silence either.
			b.ib.note("%v; message %s stays undelivered until that receipt is removed", rerr, m.ID)
		} else if r.State == Delivered && !isBroadcastToken(b.ib, token) {
			_ = removeToken(token)
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	data, _ := json.Marshal(receipt{To: b.To, State: Claimed, At: b.now.UTC(), Via: b.via, Late: b.late})
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	item, perr := b.ib.prepare(m, b.To)
	if werr == nil {
		werr = perr
	}
	if werr != nil {
		_ = os.Remove(path)
		return false, werr
	}
	item.token, item.receipt = token, path
	b.Items = append(b.Items, item)
	return true, nil
}

// Settle confirms every claim when the answer carrying the batch was
// written, or releases them when it was not, so the messages wait for the
// next chance. A confirmation that fails is noted: the message was
// delivered, only its record is stale.
func (b *Batch) Settle(delivered bool) {
	if b.Empty() || b.ib.State.ReadOnly {
		return
	}
	for _, it := range b.Items {
		if !delivered {
			b.release(it)
			continue
		}
		r := receipt{To: b.To, State: Delivered, At: b.now.UTC(), Via: b.via, Late: b.late}
		data, _ := json.Marshal(r)
		err := state.WriteFile(it.receipt, data, true)
		if err == nil && !isBroadcastToken(b.ib, it.token) {
			err = removeToken(it.token)
		}
		if err != nil {
			b.ib.note("message %s was delivered but its record could not be updated: %v", it.Message.ID, err)
		}
	}
	if delivered && b.Confirmed != nil {
		b.Confirmed(b.Deliveries())
	}
}

// release gives up a claim: the message waits for the next chance.
func (b *Batch) release(it Item) {
	if b.ib.State.ReadOnly {
		return
	}
	if err := os.Remove(it.receipt); err != nil {
		b.ib.note("could not release message %s (%v): it shows as claimed; remove %s to send it again", it.Message.ID, err, it.receipt)
		return
	}
	if m := it.Message; m.Broadcast() && !b.late && !exists(b.ib.path(pendingAll, m.ID)) && !b.ib.anyDelivered(m.ID) {
		// It expired while this claim was held, and another hook retired
		// it seeing the claim: with the claim gone, nobody has it, so it
		// is undelivered, not lost.
		_, err := b.ib.ensure(undeliveredAll)
		if err == nil {
			err = touch(b.ib.path(undeliveredAll, m.ID))
		}
		if err != nil {
			b.ib.note("message %s was released after it expired, and could not be put on the undelivered list: %v", m.ID, err)
		}
	}
}

// isBroadcastToken reports whether token is a live broadcast's, which stays
// for the other agents.
func isBroadcastToken(ib *Inbox, token string) bool {
	return filepath.Dir(token) == ib.path(pendingAll)
}

// anyDelivered reports whether message id was delivered to anyone (a
// claim still in flight may yet be released, so it does not count).
func (ib *Inbox) anyDelivered(id string) bool {
	for _, name := range receiptNames(ib.path(receiptsDir, id)) {
		if r, err := readReceipt(ib.path(receiptsDir, id, name)); err == nil && r.State == Delivered {
			return true
		}
	}
	return false
}

func readReceipt(path string) (receipt, error) {
	var r receipt
	data, err := hookfs.ReadOwnFile(path, maxSmallBytes)
	if err != nil {
		return r, err
	}
	if len(data) == 0 {
		// Created, not yet written: a claim in flight.
		return receipt{State: Claimed}, nil
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("receipt %s is corrupt: %w", path, err)
	}
	return r, nil
}
