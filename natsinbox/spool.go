package natsinbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/natsclient"
	"github.com/massgen/massgen-hook/state"
)

// spoolDir, in the runtime directory, holds messages sent from this
// machine that the broker has not confirmed: each is written and synced
// here first, removed once every copy is stored, so a send is never lost
// whatever the broker does.
const spoolDir = "nats/spool"

// SendResult is what became of a send.
type SendResult struct {
	Message *inbox.Message
	// Spooled: the broker has not confirmed it; it waits in the spool and
	// is forwarded by the next send or hook here that reaches the broker.
	Spooled bool
	// Why it is spooled, for the user.
	Reason string
	// Forwarded counts older spooled messages forwarded with it.
	Forwarded int
}

// Send queues d on the broker: checked and given its id here, spooled,
// then published with its id as Nats-Msg-Id (the stream stores one copy
// per id, so a send retried after a lost confirmation is not doubled).
// A draft that could not be delivered as given is an *inbox.DraftError and
// nothing is written.
func (b *Broker) Send(d inbox.Draft) (*SendResult, error) {
	m, err := b.Local.Prepare(d, b.Now)
	if err != nil {
		return nil, err
	}
	if err := b.spool(m); err != nil {
		return nil, fmt.Errorf("keeping the message before sending it: %w", err)
	}
	res := &SendResult{Message: m}
	c, err := b.connect()
	if err != nil {
		b.outage(err, false)
		res.Spooled, res.Reason = true, natsclient.RedactText(err.Error())
		return res, nil
	}
	n, err := b.forward(c, b.deadline())
	if err != nil {
		res.Reason = natsclient.RedactText(err.Error())
	}
	res.Spooled = b.spooled(m.ID)
	if res.Spooled {
		res.Forwarded = n
	} else {
		res.Forwarded = n - 1
		b.recovered(n - 1)
	}
	return res, nil
}

// spool writes m to the spool, synced.
func (b *Broker) spool(m *inbox.Message) error {
	dir, err := b.State.Ensure(spoolDir)
	if err != nil {
		return err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return state.WriteFile(filepath.Join(dir, m.ID+".json"), data, true)
}

func (b *Broker) spooled(id string) bool {
	_, err := os.Lstat(filepath.Join(b.State.Path, spoolDir, id+".json"))
	return err == nil
}

// Spooled lists the messages waiting in the spool, oldest first.
func (b *Broker) Spooled() ([]*inbox.Message, error) {
	dir := filepath.Join(b.State.Path, spoolDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*inbox.Message
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !inbox.ValidID(id) || !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var m inbox.Message
		if err := json.Unmarshal(data, &m); err != nil || m.ID != id {
			b.note("spooled message %s is corrupt; it stays in %s", id, dir)
			continue
		}
		out = append(out, &m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// forward publishes the spool, oldest first, and removes each message
// once every copy of it is stored. It stops at the first failure, so
// messages arrive in the order they were sent. Two processes forwarding at
// once publish the same ids, which the stream stores once.
func (b *Broker) forward(c *natsclient.Conn, deadline time.Time) (int, error) {
	ms, err := b.Spooled()
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	n := 0
	for i, m := range ms {
		err := b.publish(c, m, deadline)
		if natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) || isNoStream(err) {
			if err = b.ensureStream(c, deadline); err == nil {
				err = b.publish(c, m, deadline)
			}
		}
		if err != nil {
			if natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
				err = fmt.Errorf("the stream %s is full (%w); %d message(s) wait in the spool until the broker has room (old messages age out after a week, or raise the stream's max_bytes)", b.Stream, err, len(ms)-i)
			}
			return n, err
		}
		if err := os.Remove(filepath.Join(b.State.Path, spoolDir, m.ID+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, err
		}
		n++
	}
	return n, nil
}

// publish stores every copy of m: one per named recipient, or one for a
// broadcast, each with an id of its own.
func (b *Broker) publish(c *natsclient.Conn, m *inbox.Message, deadline time.Time) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	type copy struct{ subject, id string }
	copies := []copy{{b.allSubject(), m.ID + "/all"}}
	if !m.Broadcast() {
		copies = copies[:0]
		for _, to := range m.To {
			copies = append(copies, copy{b.toSubject(to), m.ID + "/" + Key(to)})
		}
	}
	for _, cp := range copies {
		if _, err := c.PublishJS(cp.subject, data, natsclient.PublishOptions{MsgID: cp.id}, deadline); err != nil {
			return err
		}
	}
	return nil
}

// isNoStream is a publish no stream took (the stream was never created).
func isNoStream(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no stream takes subject")
}
