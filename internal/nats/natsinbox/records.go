package natsinbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// recordsDir, in the runtime directory, holds the delivery records made
// here that the broker has not stored yet, one file each. A record is
// written (synced) before it is published and removed once the stream
// stored it: a broker that refuses it (a full stream), is down, or does
// not answer in time leaves it here, for the next hook that reaches the
// broker. Without it, `massgen-hook inbox` elsewhere would show the
// message pending for good, and an expired broadcast an agent here
// received would be handed over late elsewhere.
const recordsDir = "nats/records"

// recordsStatus, in the runtime directory, remembers that the broker
// refused records while it could be reached, so the user is told once,
// not on every call.
const recordsStatus = "nats/records-status.json"

// recordsBatch is how many records one publish sends before it reads the
// broker's answers.
const recordsBatch = 256

type recordsRefusal struct {
	Since time.Time `json:"since"`
	Error string    `json:"error"`
	Told  bool      `json:"told,omitempty"`
	// RetryAt: hooks leave the records alone until then, so a broker
	// that never confirms one costs a timeout every few seconds, not one
	// on every tool call.
	RetryAt time.Time `json:"retry_at,omitzero"`
}

// recordFile is the spool file of d: one per record, so the same record
// kept twice (a redelivered message's, published again) is one file.
func recordFile(d inbox.Delivery) string {
	kind := "r"
	if d.Claimed {
		kind = "c"
	}
	return kind + "_" + d.ID + "_" + Key(d.To) + ".json"
}

// recordMsgID is d's Nats-Msg-Id: the stream stores a record published
// twice within its duplicate window once. A claim's is its own, since a
// later confirmation is a record of its own.
func recordMsgID(d inbox.Delivery) string {
	kind := "r/"
	if d.Claimed {
		kind = "c/"
	}
	return kind + d.ID + "/" + Key(d.To)
}

// keepRecords writes ds to the spool, each synced, before any is
// published.
func (b *Broker) keepRecords(ds []inbox.Delivery) error {
	dir, err := b.State.Ensure(recordsDir)
	if err != nil {
		return err
	}
	for _, d := range ds {
		if !inbox.ValidID(d.ID) {
			continue
		}
		data, err := json.Marshal(d)
		if err != nil {
			return err
		}
		f, err := os.CreateTemp(dir, ".tmp-*")
		if err != nil {
			return err
		}
		_, werr := f.Write(data)
		if werr == nil {
			werr = f.Sync()
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Rename(f.Name(), filepath.Join(dir, recordFile(d)))
		}
		if werr != nil {
			os.Remove(f.Name())
			return werr
		}
	}
	return syncPath(dir)
}

// spooledRecord is a record in the spool and its file's name.
type spooledRecord struct {
	inbox.Delivery
	file string
}

// SpooledRecords lists the delivery records waiting in the spool, oldest
// first.
func (b *Broker) SpooledRecords() ([]inbox.Delivery, error) {
	rs, err := b.spooledRecords()
	out := make([]inbox.Delivery, len(rs))
	for i, r := range rs {
		out[i] = r.Delivery
	}
	return out, err
}

func (b *Broker) spooledRecords() ([]spooledRecord, error) {
	dir := filepath.Join(b.State.Path, recordsDir)
	var out []spooledRecord
	err := readSpool(dir, func(name string, data []byte) {
		var d inbox.Delivery
		if err := json.Unmarshal(data, &d); err != nil || !inbox.ValidID(d.ID) || recordFile(d) != name {
			b.note("spooled delivery record %s is corrupt; it stays in %s", name, dir)
			return
		}
		out = append(out, spooledRecord{Delivery: d, file: name})
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].file < out[j].file
	})
	return out, nil
}

// publishRecords publishes the spooled records, oldest first, and removes
// each the stream stored. It stops at the first the broker does not take,
// and returns how many it published.
func (b *Broker) publishRecords(c *natsclient.Conn, deadline time.Time) (int, error) {
	rs, err := b.spooledRecords()
	if err != nil || len(rs) == 0 {
		return 0, err
	}
	dir := filepath.Join(b.State.Path, recordsDir)
	n := 0
	for len(rs) > 0 {
		batch := rs[:min(recordsBatch, len(rs))]
		rs = rs[len(batch):]
		pubs := make([]natsclient.Pub, len(batch))
		for i, r := range batch {
			data, _ := json.Marshal(r.Delivery)
			pubs[i] = natsclient.Pub{Subject: b.receiptSubject(r.ID), Data: data,
				Options: natsclient.PublishOptions{MsgID: recordMsgID(r.Delivery)}}
		}
		acks, err := c.PublishJSAll(pubs, deadline)
		for i := range acks {
			if rerr := os.Remove(filepath.Join(dir, batch[i].file)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				return n, rerr
			}
			n++
		}
		if err != nil {
			if natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
				err = fmt.Errorf("the stream %s is full (%w)", b.Stream, err)
			}
			return n, err
		}
	}
	return n, nil
}

// recordsRefused remembers that the broker, reached, did not take the
// records still waiting, and notes it on stderr; the next tool call tells
// the user (recordsWarning).
func (b *Broker) recordsRefused(cause error, waiting int) {
	if waiting == 0 {
		return // another hook here published them meanwhile
	}
	msg := natsclient.RedactText(cause.Error())
	var rec recordsRefusal
	_ = b.State.UpdateJSON(recordsStatus, &rec, func() (bool, error) {
		if rec.Since.IsZero() {
			rec.Since = b.Now
		}
		rec.Error, rec.RetryAt = msg, b.Now.Add(backOff)
		return true, nil
	})
	b.note("%d delivery record(s) wait in %s: the broker did not take them (%s); the next hook here that reaches the broker publishes them",
		waiting, filepath.Join(b.State.Path, recordsDir), msg)
}

// settleRecords publishes the spooled records, unless a recent refusal
// says to wait, and keeps the refusal's record: a new one when the broker
// does not take them, none once the spool is empty again.
func (b *Broker) settleRecords(c *natsclient.Conn, deadline time.Time) {
	var rec recordsRefusal
	refused, err := b.State.ReadJSON(recordsStatus, &rec)
	if err == nil && refused && b.Now.Before(rec.RetryAt) {
		return
	}
	n, err := b.publishRecords(c, deadline)
	if err != nil {
		left, _ := b.spooledRecords()
		b.recordsRefused(err, len(left))
		return
	}
	if refused {
		if err := b.State.Remove(recordsStatus); err == nil {
			b.note("the broker takes delivery records again; %d spooled record(s) published", n)
		}
	}
}

// recordsWarning is what to tell the user, once, of records the broker
// refused ("" when there is nothing new to tell).
func (b *Broker) recordsWarning() string {
	var rec recordsRefusal
	if ok, err := b.State.ReadJSON(recordsStatus, &rec); err != nil || !ok || rec.Told {
		return ""
	}
	first := false
	_ = b.State.UpdateJSON(recordsStatus, &rec, func() (bool, error) {
		if rec.Since.IsZero() || rec.Told {
			return false, nil
		}
		first, rec.Told = true, true
		return true, nil
	})
	if !first {
		return ""
	}
	return fmt.Sprintf("massgen-hook: the inbox's NATS broker at %s does not take delivery records (%s). The messages were delivered here; their records wait in .claude/massgen-hook/nats/records and are published once it takes them (until then `massgen-hook inbox` on other machines shows those messages as pending). Told once; `massgen-hook inbox` here shows the state.",
		b.Server(), rec.Error)
}
