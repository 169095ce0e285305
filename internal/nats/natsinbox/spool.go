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
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
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
// Messages an earlier send left in the spool go first, so order is kept.
// A draft that could not be delivered as given is an *inbox.DraftError and
// nothing is written.
func (b *Broker) Send(d inbox.Draft) (*SendResult, error) {
	m, err := b.Local.Prepare(d, b.Now)
	if err != nil {
		return nil, err
	}
	own, err := b.spool(m)
	if err != nil {
		return nil, fmt.Errorf("keeping the message before sending it: %w", err)
	}
	defer own.Close()
	res := &SendResult{Message: m, Spooled: true}
	deadline := b.deadline()
	c, err := b.connect(deadline)
	if err != nil {
		// The sender is told by its caller; hooks keep the outage record.
		res.Reason = natsclient.RedactText(err.Error())
		return res, nil
	}
	n, err := b.forward(c, deadline)
	res.Forwarded = n
	if err == nil {
		err = b.forwardOne(c, m, deadline)
	}
	if err != nil {
		res.Reason = natsclient.RedactText(err.Error())
		return res, nil
	}
	res.Spooled = false
	b.recovered(n)
	return res, nil
}

// spool writes m to the spool, synced, and returns it open and locked:
// while its sender holds the lock, another process forwarding the spool
// leaves it alone (it is a send in flight, not one left behind).
func (b *Broker) spool(m *inbox.Message) (*os.File, error) {
	dir, err := b.State.Ensure(spoolDir)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	// Written and locked under a name the spool's readers skip, then
	// renamed into place: nobody sees it before its sender holds it.
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	path := filepath.Join(dir, m.ID+".json")
	if err := os.Rename(f.Name(), path); err != nil {
		return fail(err)
	}
	if err := syncPath(dir); err != nil {
		f.Close()
		return nil, err // it is in place: forwarded later, or by this send
	}
	// f.Name() is still the temporary name; forwardOne removes by the
	// message's own.
	return f, nil
}

func syncPath(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Spooled lists the messages waiting in the spool, oldest first.
func (b *Broker) Spooled() ([]*inbox.Message, error) {
	dir := filepath.Join(b.State.Path, spoolDir)
	var out []*inbox.Message
	err := readSpool(dir, func(name string, data []byte) {
		id := strings.TrimSuffix(name, ".json")
		if !inbox.ValidID(id) {
			return
		}
		var m inbox.Message
		if err := json.Unmarshal(data, &m); err != nil || m.ID != id {
			b.note("spooled message %s is corrupt; it stays in %s", id, dir)
			return
		}
		out = append(out, &m)
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// readSpool hands each entry of a spool folder (a regular NAME.json file,
// not hidden) to each, with its content; a folder that is not there is an
// empty spool, and a file gone meanwhile was forwarded or published.
func readSpool(dir string, each func(name string, data []byte)) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		each(e.Name(), data)
	}
	return nil
}

// forward publishes what earlier sends left in the spool, oldest first,
// and removes each message once every copy of it is stored. It stops at
// the first failure, so messages arrive in the order they were sent. A
// message whose sender is still at work (it holds its lock) is left to it.
func (b *Broker) forward(c *natsclient.Conn, deadline time.Time) (int, error) {
	ms, err := b.Spooled()
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	n := 0
	for _, m := range ms {
		f, err := os.OpenFile(filepath.Join(b.State.Path, spoolDir, m.ID+".json"), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue // forwarded meanwhile
		}
		if err != nil {
			return n, err
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
			f.Close()
			continue // a send in flight
		}
		var st unix.Stat_t
		if unix.Fstat(int(f.Fd()), &st) == nil && st.Nlink == 0 {
			f.Close()
			continue // its sender finished between our read and our lock
		}
		err = b.forwardOne(c, m, deadline)
		f.Close()
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// forwardOne publishes spooled message m, whose file the caller holds
// locked, and removes it from the spool.
//
// The stream is made sure of first, once per machine (a mark in the
// runtime directory): through a leaf node a publish no stream takes gets
// no answer at all, only a timeout, so it is not the way to find out. A
// publish that fails so clears the mark.
func (b *Broker) forwardOne(c *natsclient.Conn, m *inbox.Message, deadline time.Time) error {
	const stream = "stream:"
	if !b.made(stream) {
		if err := b.ensureStream(c, deadline); err != nil {
			return err
		}
		b.mark(stream, true)
	}
	err := b.publish(c, m, deadline)
	if natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) || isNoStream(err) || errors.Is(err, natsclient.ErrTimeout) {
		b.mark(stream, false)
	}
	if natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) || isNoStream(err) {
		if err = b.ensureStream(c, deadline); err == nil {
			b.mark(stream, true)
			err = b.publish(c, m, deadline)
		}
	}
	if natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
		return fmt.Errorf("the stream %s is full (%w); the message waits in the spool until the broker has room (messages age out after a week, or raise the stream's max_bytes)", b.Stream, err)
	}
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(b.State.Path, spoolDir, m.ID+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// publish stores every copy of m: one per named recipient, or one for a
// broadcast, each with an id of its own.
func (b *Broker) publish(c *natsclient.Conn, m *inbox.Message, deadline time.Time) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	pubs := []natsclient.Pub{{Subject: b.allSubject(), Data: data, Options: natsclient.PublishOptions{MsgID: m.ID + "/all"}}}
	if !m.Broadcast() {
		pubs = pubs[:0]
		for _, to := range m.To {
			pubs = append(pubs, natsclient.Pub{Subject: b.toSubject(to), Data: data,
				Options: natsclient.PublishOptions{MsgID: m.ID + "/" + Key(to)}})
		}
	}
	_, err = c.PublishJSAll(pubs, deadline)
	return err
}

// isNoStream is a publish no stream took (the stream was never created).
func isNoStream(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no stream takes subject")
}
