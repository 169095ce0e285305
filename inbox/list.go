package inbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/state"
)

// Status is where one message stands, for `massgen-hook inbox`.
type Status struct {
	Message
	// PendingFor lists named recipients still waiting for a tool call;
	// for a live broadcast it is ["*"] (every agent that has not had it).
	PendingFor []string `json:"pending_for,omitempty"`
	// UndeliveredFor lists recipients for whom it expired first; "*" is an
	// expired broadcast nobody received, for the first turn boundary.
	UndeliveredFor []string `json:"undelivered_for,omitempty"`
	Delivered      []Record `json:"delivered,omitempty"`
	// Claimed lists claims a hook made but never confirmed (it was killed
	// between claiming and answering): the message may not have arrived.
	Claimed []Record `json:"claimed_unconfirmed,omitempty"`
}

// Record is one recipient's receipt.
type Record struct {
	To string    `json:"to"`
	At time.Time `json:"at"`
	Via
	Late bool `json:"late,omitempty"`
	// Unpublished, in a listing of the inbox over NATS, is a delivery
	// made on this machine whose record waits here to be published: other
	// machines do not see it yet.
	Unpublished bool `json:"record_unpublished,omitempty"`
}

// List reports every message in the inbox, oldest first. A message past
// its expiry that no hook has moved yet is shown as undelivered, as it will
// be.
func (ib *Inbox) List(now time.Time) ([]Status, error) {
	if err := ib.checkLinks(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(ib.path(messagesDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Status
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !ValidID(id) {
			continue
		}
		m, err := ib.read(id)
		if err != nil {
			ib.note("%v", err)
			continue
		}
		out = append(out, ib.status(m, now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (ib *Inbox) status(m *Message, now time.Time) Status {
	s := Status{Message: *m}
	byKey := map[string]string{}
	for _, to := range m.To {
		byKey[recipientKey(to)] = to
	}
	// A folder's key is the name itself for plain names; a hashed one is
	// named by m.To, or by the name a late broadcast's taker wrote in its
	// token.
	name := func(key string) string {
		if n, ok := byKey[key]; ok {
			return n
		}
		return key
	}
	display := name
	for _, key := range ib.tokenHolders(pendingDir, m.ID) {
		if m.Expired(now) {
			s.UndeliveredFor = append(s.UndeliveredFor, name(key))
		} else {
			s.PendingFor = append(s.PendingFor, name(key))
		}
	}
	if exists(ib.path(pendingAll, m.ID)) {
		switch {
		case !m.Expired(now):
			s.PendingFor = append(s.PendingFor, "*")
		case !ib.anyDelivered(m.ID):
			s.UndeliveredFor = append(s.UndeliveredFor, "*")
		}
	}
	for _, key := range ib.tokenHolders(undeliveredDir, m.ID) {
		n := name(key)
		if written, err := hookfs.ReadOwnFile(ib.path(undeliveredDir, key, m.ID), maxSmallBytes); err == nil && len(written) > 0 && recipientKey(string(written)) == key {
			n = string(written)
		}
		s.UndeliveredFor = append(s.UndeliveredFor, n)
	}
	if exists(ib.path(undeliveredAll, m.ID)) {
		s.UndeliveredFor = append(s.UndeliveredFor, "*")
	}
	for _, name := range receiptNames(ib.path(receiptsDir, m.ID)) {
		rec, err := readReceipt(ib.path(receiptsDir, m.ID, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // released while we looked
		}
		if err != nil {
			ib.note("%v", err)
			continue
		}
		if rec.To == "" {
			rec.To = display(strings.TrimSuffix(name, ".json"))
		}
		record := Record{To: rec.To, At: rec.At, Via: rec.Via, Late: rec.Late}
		if rec.State == Delivered {
			s.Delivered = append(s.Delivered, record)
		} else {
			s.Claimed = append(s.Claimed, record)
		}
	}
	// A token left beside a confirmed receipt (a hook stopped between the
	// two steps) is not pending any more.
	s.PendingFor = without(without(s.PendingFor, s.Delivered), s.Claimed)
	s.UndeliveredFor = without(without(s.UndeliveredFor, s.Delivered), s.Claimed)
	return s
}

// tokenHolders lists the recipient folders of kind that hold id's token.
func (ib *Inbox) tokenHolders(kind, id string) []string {
	dirs, _ := os.ReadDir(ib.path(kind))
	var keys []string
	for _, d := range dirs {
		if d.IsDir() && exists(ib.path(kind, d.Name(), id)) {
			keys = append(keys, d.Name())
		}
	}
	return keys
}

// without is names less the recipients of records.
func without(names []string, records []Record) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(records, func(r Record) bool { return r.To == n }) {
			out = append(out, n)
		}
	}
	return out
}

// receiptNames lists the receipts in a message's receipts folder: the
// recipients' <key>.json files, not the temporary file of a confirmation
// being written.
func receiptNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	return names
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Prune removes the messages sent before before that nothing waits for any
// more (no pending or undelivered token, no claim in flight), with their
// receipts and snapshots, so the inbox does not grow without bound.
//
// It lists the whole inbox, so it runs at most once an hour (by the clock
// send is given): a busy orchestrator's sends stay cheap.
func (ib *Inbox) Prune(before, now time.Time) error {
	marker := ib.path(".pruned")
	if data, err := hookfs.ReadOwnFile(marker, maxSmallBytes); err == nil {
		if last, err := time.Parse(time.RFC3339Nano, string(data)); err == nil && !now.Before(last) && now.Sub(last) < pruneEvery {
			return nil
		}
	}
	all, err := ib.List(now)
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range all {
		if !s.SentAt.Before(before) || len(s.PendingFor)+len(s.UndeliveredFor)+len(s.Claimed) > 0 {
			continue
		}
		for _, p := range []string{ib.path(receiptsDir, s.ID), ib.path(snapshotsDir, s.ID), ib.path(pendingAll, s.ID)} {
			errs = append(errs, os.RemoveAll(p))
		}
		errs = append(errs, os.Remove(ib.path(messagesDir, s.ID+".json")))
		for _, key := range ib.tokenHolders(pendingDir, s.ID) {
			errs = append(errs, removeToken(filepath.Join(ib.path(pendingDir, key), s.ID)))
		}
	}
	if _, err := ib.ensure(); err == nil {
		errs = append(errs, state.WriteFile(marker, []byte(now.UTC().Format(time.RFC3339Nano)), false))
	}
	return errors.Join(errs...)
}

// pruneEvery is how often send prunes the inbox.
const pruneEvery = time.Hour
