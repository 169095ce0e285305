package state

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
)

// sessionsDir holds one folder per session, each with one JSON record per
// check, so checks never contend for one another's lock.
const sessionsDir = "sessions"

// SessionMaxAge is how long a session's records outlive its last update.
// Older folders are pruned when a new session writes its first record.
const SessionMaxAge = 7 * 24 * time.Hour

// SessionRecord names the record of one check (and key, such as an agent)
// in one session. Both parts pass through Key, so no event field can steer
// the path.
func SessionRecord(session, record string) string {
	return sessionsDir + "/" + Key(session) + "/" + Key(record) + ".json"
}

// ReadJSON reads record name into v without taking its lock (writers
// replace records atomically, so a reader sees a whole one). It reports
// whether the record exists; a corrupt one reads as absent, with a note.
func (d *Dir) ReadJSON(name string, v any) (bool, error) {
	return d.readJSON(name, v, true)
}

// Peek is ReadJSON without a word: false when the record is absent,
// unreadable or corrupt. It is for a look before an update that may not
// be needed, whose own read then says what is wrong.
func (d *Dir) Peek(name string, v any) bool {
	ok, err := d.readJSON(name, v, false)
	return ok && err == nil
}

func (d *Dir) readJSON(name string, v any, say bool) (bool, error) {
	sub, base := splitName(name)
	dir, done, err := d.borrow(sub, false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer done()
	data, err := readRecord(dir, base)
	if data == nil || err != nil {
		return false, err
	}
	if err := decodeRecord(data, v); err != nil {
		if say {
			d.note("state %s is corrupt (%v); ignoring it", filepath.Join(dir.Path(), base), err)
		}
		return false, nil
	}
	return true, nil
}

// UpdateJSON loads record name into v under the record's lock (v keeps
// its zero value when the record is absent), calls fn, and writes v back
// when fn reports a change. A record that does not parse is set aside as
// name.corrupt for a look, noted on stderr, and started afresh: a bad file
// must never crash the hook or wedge the agent.
func (d *Dir) UpdateJSON(name string, v any, fn func() (changed bool, err error)) error {
	return d.Update(name, func(old []byte) ([]byte, error) {
		corrupt := false
		if old != nil {
			if err := decodeRecord(old, v); err != nil {
				d.setAside(name, old, err)
				reflect.ValueOf(v).Elem().SetZero()
				corrupt = true
			}
		}
		changed, err := fn()
		if err != nil {
			return nil, err
		}
		if !changed && !corrupt {
			return old, nil
		}
		return encodeRecord(v)
	})
}

// decodeRecord is json.Unmarshal, calling v's own UnmarshalJSON directly
// when it has one. A record type that reads itself does so to spare a
// one-shot process encoding/json's reflection (the session's ledger),
// and Unmarshal would still pay a scan of the record and a reflective
// walk to find the method. Such a method checks its input as Unmarshal
// would (the ledger's falls back to Unmarshal for anything unusual).
func decodeRecord(data []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, v)
}

// encodeRecord is json.Marshal, calling v's own MarshalJSON directly when
// it has one: Marshal would scan and re-compact what the method wrote,
// which a record type that writes itself writes compact already.
func encodeRecord(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// UpdateSession is UpdateJSON for a session record. The first record a
// session writes prunes the folders of sessions idle for SessionMaxAge, so
// the runtime directory does not grow without bound and no call pays for a
// scan but a session's first.
func (d *Dir) UpdateSession(session, record string, v any, fn func() (bool, error)) error {
	first := !d.has(sessionsDir + "/" + Key(session))
	if err := d.UpdateJSON(SessionRecord(session, record), v, fn); err != nil {
		return err
	}
	if first && !d.ReadOnly {
		if err := d.PruneSessions(time.Now().Add(-SessionMaxAge)); err != nil {
			d.note("could not prune old sessions: %v", err)
		}
	}
	return nil
}

// setAside keeps a corrupt record beside the state for a look and says so.
func (d *Dir) setAside(name string, data []byte, why error) {
	path := filepath.Join(d.Path, filepath.FromSlash(name))
	if d.ReadOnly {
		d.note("state %s is corrupt (%v); ignoring it", path, why)
		return
	}
	sub, base := splitName(name)
	dir, done, err := d.borrow(sub, true)
	if err == nil {
		err = dir.WriteFile(base+".corrupt", data, 0o600, false)
		done()
	}
	if err != nil {
		d.note("state %s is corrupt (%v) and could not be set aside (%v); starting it afresh", path, why, err)
		return
	}
	d.note("state %s is corrupt (%v); set aside as %s.corrupt and started afresh", path, why, base)
}

// PruneSessions removes the folders of sessions not updated since before.
// The folders are removed within the sessions folder, never through a
// link out of it.
func (d *Dir) PruneSessions(before time.Time) error {
	dir, done, err := d.borrow(sessionsDir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer done()
	entries, err := dir.ReadDir()
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() || !info.ModTime().Before(before) {
			continue
		}
		errs = append(errs, dir.RemoveAll(e.Name()))
	}
	return errors.Join(errs...)
}

// listFolder lists sub of the runtime directory: nothing when it is absent.
func (d *Dir) listFolder(sub string) ([]fs.DirEntry, error) {
	dir, done, err := d.borrow(sub, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer done()
	return dir.ReadDir()
}

// SessionRecords lists the names of a session's records, sorted.
func (d *Dir) SessionRecords(session string) ([]string, error) {
	entries, err := d.listFolder(sessionsDir + "/" + Key(session))
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	return names, err
}

// Sessions lists the keys of the sessions with records, most recently
// updated first (a record's atomic replace touches its folder).
func (d *Dir) Sessions() ([]string, error) {
	entries, err := d.listFolder(sessionsDir)
	if err != nil {
		return nil, err
	}
	type dated struct {
		key string
		mod time.Time
	}
	var ds []dated
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() {
			ds = append(ds, dated{e.Name(), info.ModTime()})
		}
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].mod.After(ds[j].mod) })
	keys := make([]string, len(ds))
	for i, x := range ds {
		keys[i] = x.key
	}
	return keys, nil
}
