package inbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
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
}

// List reports every message in the inbox, oldest first. A message past
// its expiry that no hook has moved yet is shown as undelivered, as it will
// be.
func (ib *Inbox) List(now time.Time) ([]Status, error) {
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
	name := func(key string) string {
		if n, ok := byKey[key]; ok {
			return n
		}
		return key
	}
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
		case !ib.anyReceipt(m.ID):
			s.UndeliveredFor = append(s.UndeliveredFor, "*")
		}
	}
	for _, key := range ib.tokenHolders(undeliveredDir, m.ID) {
		s.UndeliveredFor = append(s.UndeliveredFor, name(key))
	}
	if exists(ib.path(undeliveredAll, m.ID)) {
		s.UndeliveredFor = append(s.UndeliveredFor, "*")
	}
	receipts, _ := os.ReadDir(ib.path(receiptsDir, m.ID))
	for _, r := range receipts {
		rec, err := readReceipt(ib.path(receiptsDir, m.ID, r.Name()))
		if err != nil {
			ib.note("%v", err)
			continue
		}
		if rec.To == "" {
			rec.To = name(strings.TrimSuffix(r.Name(), ".json"))
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
	s.PendingFor = without(s.PendingFor, s.Delivered)
	s.UndeliveredFor = without(s.UndeliveredFor, s.Delivered)
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

func without(names []string, delivered []Record) []string {
	var out []string
	for _, n := range names {
		done := false
		for _, d := range delivered {
			done = done || d.To == n
		}
		if !done {
			out = append(out, n)
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Prune removes the messages sent before before that nothing waits for any
// more (no pending or undelivered token, no claim in flight), with their
// receipts and snapshots, so the inbox does not grow without bound.
func (ib *Inbox) Prune(before, now time.Time) error {
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
	return errors.Join(errs...)
}
