package state

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// maxOpenFolders bounds the folders a Dir keeps open: a hook uses three or
// four (the runtime directory, sessions, its session's folder); a command
// that goes through many sessions opens the rest for each use.
const maxOpenFolders = 8

// openFolders are the folders of the runtime directory a Dir keeps open
// for the life of the process, each walked to once (one name at a time,
// without following a link) instead of from the project on every read and
// write. Reads and writes by a kept folder's descriptor reach the folder
// that was walked to, whatever its path leads to since. Two things are
// looked at again:
//   - a kept folder that was removed (a user's rm -rf) is not used: every
//     kept folder is forgotten and the walk made again, so a write makes
//     the folder anew and a read finds what another process made since;
//   - code that works by path (Ensure, CheckLinks) gets a fresh walk from
//     the project, so a folder swapped for a link since is refused.
type openFolders struct {
	anchor, path string // what they were opened for
	rel          string // path, relative to anchor, slash-separated
	byName       map[string]*hookfs.Dir
	// retired are folders forgotten while a caller may still use them:
	// closed only by Close.
	retired []*hookfs.Dir
	// ignoreChecked is set once the runtime directory's .gitignore was
	// checked (see keepIgnored).
	ignoreChecked bool
}

// Close closes the folders d keeps open. d stays usable: it opens them
// again when next used.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	o := d.open
	d.open = nil
	if o == nil {
		return nil
	}
	var errs []error
	for _, dir := range o.byName {
		errs = append(errs, dir.Close())
	}
	for _, dir := range o.retired {
		errs = append(errs, dir.Close())
	}
	return errors.Join(errs...)
}

// folders is d's open folders, set up on first use and again when Path or
// Anchor changed since. The caller holds d.mu.
func (d *Dir) folders() (*openFolders, error) {
	anchor := d.Anchor
	if anchor == "" {
		anchor = filepath.Dir(d.Path)
	}
	if o := d.open; o != nil && o.anchor == anchor && o.path == d.Path {
		return o, nil
	}
	rel, err := filepath.Rel(anchor, d.Path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("runtime directory %s is not inside %s", d.Path, anchor)
	}
	o := &openFolders{anchor: anchor, path: d.Path, rel: filepath.ToSlash(rel), byName: map[string]*hookfs.Dir{}}
	if d.open != nil {
		d.forgetLocked()
		o.retired = d.open.retired
	}
	d.open = o
	return o, nil
}

// forget drops the folders d keeps open, so the next use walks to them
// again: one was removed (a user's rm -rf) and a write must make it anew.
// A caller may still hold one: they are closed by Close.
func (d *Dir) forget() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forgetLocked()
}

func (d *Dir) forgetLocked() {
	if d.open != nil {
		d.open.forget()
	}
}

// forget retires every kept folder: the next use walks from the project.
func (o *openFolders) forget() {
	for name, dir := range o.byName {
		o.retired = append(o.retired, dir)
		delete(o.byName, name)
	}
	o.ignoreChecked = false
}

// borrow opens sub (a slash path, "" for the runtime directory itself) for
// the caller's use until it calls done, which closes it only if d does
// not keep it. With create, missing folders are made owner-only and the
// .gitignore is checked; without, a missing folder is fs.ErrNotExist.
func (d *Dir) borrow(sub string, create bool) (dir *hookfs.Dir, done func(), err error) {
	return d.borrowBy(sub, create, (*openFolders).open)
}

// borrowFresh is borrow by a fresh walk from the project, kept folders
// aside: for code that goes on to work by path, which must not lead
// through a folder swapped for a link since it was kept.
func (d *Dir) borrowFresh(sub string, create bool) (dir *hookfs.Dir, done func(), err error) {
	return d.borrowBy(sub, create, (*openFolders).openFresh)
}

// borrowBy is borrow, with the folder opened by open.
func (d *Dir) borrowBy(sub string, create bool, open func(*openFolders, string, bool) (*hookfs.Dir, bool, error)) (dir *hookfs.Dir, done func(), err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, err := d.folders()
	if err != nil {
		return nil, nil, err
	}
	if create && !o.ignoreChecked {
		if err := d.checkIgnored(o); err != nil {
			return nil, nil, err
		}
	}
	dir, kept, err := open(o, folderName(sub), create)
	if err != nil {
		return nil, nil, fmt.Errorf("runtime directory: %w", err)
	}
	if create && !o.ignoreChecked {
		// The folders were removed since the check, and made anew by
		// this open: so is the .gitignore.
		if err := d.checkIgnored(o); err != nil {
			if !kept {
				dir.Close()
			}
			return nil, nil, err
		}
	}
	if kept {
		return dir, func() {}, nil
	}
	return dir, func() { dir.Close() }, nil
}

// folderName is sub without empty or "." names, the key of a kept
// folder. A ".." stays, for hookfs to refuse.
func folderName(sub string) string {
	names := strings.Split(sub, "/")
	kept := names[:0]
	for _, name := range names {
		if name != "" && name != "." {
			kept = append(kept, name)
		}
	}
	return strings.Join(kept, "/")
}

// checkIgnored makes the runtime directory, if missing, and checks its
// .gitignore (keepIgnored): once for d's open folders, which is once a
// process for a hook.
func (d *Dir) checkIgnored(o *openFolders) error {
	root, kept, err := o.open("", true)
	if err != nil {
		return fmt.Errorf("runtime directory: %w", err)
	}
	if !kept {
		defer root.Close()
	}
	if err := d.keepIgnored(root); err != nil {
		return err
	}
	o.ignoreChecked = true
	return nil
}

// open opens the folder name (a clean slash path, "" for the runtime
// directory) from the nearest kept folder above it, keeping what it opens
// while there is room. kept says whether o keeps the folder returned.
func (o *openFolders) open(name string, create bool) (dir *hookfs.Dir, kept bool, err error) {
	if dir, ok := o.byName[name]; ok {
		if !dir.Removed() {
			return dir, true, nil
		}
		o.forget()
	}
	if name == "" {
		dir, err = hookfs.OpenDir(o.anchor, o.rel, create, 0o700)
	} else {
		parentName, base := path.Split(name)
		var parent *hookfs.Dir
		var parentKept bool
		parent, parentKept, err = o.open(strings.TrimSuffix(parentName, "/"), create)
		if err != nil {
			return nil, false, err
		}
		dir, err = parent.Sub(base, create, 0o700)
		if !parentKept {
			parent.Close()
		}
	}
	if err != nil {
		return nil, false, err
	}
	if len(o.byName) < maxOpenFolders {
		o.byName[name] = dir
		return dir, true, nil
	}
	return dir, false, nil
}

// openFresh opens the folder name as open does, but walked to afresh from
// the anchor, one name at a time, kept folders aside; it keeps nothing.
func (o *openFolders) openFresh(name string, create bool) (*hookfs.Dir, bool, error) {
	dir, err := hookfs.OpenDir(o.anchor, path.Join(o.rel, name), create, 0o700)
	return dir, false, err
}

// folder opens sub as borrow does, as a Dir of the caller's own to close.
func (d *Dir) folder(sub string, create bool) (*hookfs.Dir, error) {
	dir, done, err := d.borrow(sub, create)
	if err != nil {
		return nil, err
	}
	defer done()
	own, err := dir.Folder("", false, 0)
	if err != nil {
		return nil, fmt.Errorf("runtime directory: %w", err)
	}
	return own, nil
}

// lockIn opens sub (made if missing) and takes the lock file name in it,
// for a write; fail describes a failure to lock, given the folder's path.
// A kept folder that was removed since it was opened (the lock file cannot
// be made in it) is forgotten and walked to again, once, so the write
// makes it anew as a fresh process would.
func (d *Dir) lockIn(sub, name string, fail func(folder string, err error) error) (dir *hookfs.Dir, release func(), err error) {
	for try := 0; ; try++ {
		dir, done, err := d.borrow(sub, true)
		if err != nil {
			return nil, nil, err
		}
		unlock, err := dir.Lock(name)
		if err == nil {
			return dir, func() { unlock(); done() }, nil
		}
		done()
		if try > 0 || !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fail(dir.Path(), err)
		}
		d.forget()
	}
}
