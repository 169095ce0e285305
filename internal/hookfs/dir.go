// Package hookfs opens the files massgen-hook keeps in a project, where the
// agent it guards can put a symbolic link, a FIFO or a huge file in their
// place.
//
// A Dir is a folder reached from a trusted one (the project) one name at a
// time, each opened with O_NOFOLLOW: a link anywhere below the project is
// refused, so no append to the audit trail can land in ~/.bashrc. Files in
// a Dir are opened relative to it (openat), never by path, so a folder
// swapped for a link after the walk changes nothing. Reads take regular
// files only, opened non-blocking (a FIFO cannot hang the hook), up to a
// size the caller sets.
package hookfs

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// LinkError says a folder on the way to a file is a symbolic link:
// massgen-hook does not write or read through it.
type LinkError struct{ Path string }

func (e *LinkError) Error() string {
	return e.Path + " is a symbolic link; massgen-hook does not follow links below the project (remove it)"
}

// NotRegularError says a file is a FIFO, a device, a folder or a link
// where a regular file must be.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string { return e.Path + " is " + e.What() }

// What says what the path is instead of a regular file.
func (e *NotRegularError) What() string {
	switch {
	case e.Mode.IsDir():
		return "a directory"
	case e.Mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case e.Mode&fs.ModeNamedPipe != 0:
		return "a FIFO"
	}
	return "not a regular file"
}

// TooLargeError says a file is over the size its reader accepts.
type TooLargeError struct {
	Path      string
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is too large (%s; at most %s is read)", e.Path, sizeText(e.Size), sizeText(e.Max))
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	if n >= 1<<10 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Dir is an open folder reached without following links. It holds the
// bare descriptor, not an os.File: making one costs a fcntl, and a hook
// opens a folder for every name on the way to a record.
type Dir struct {
	fd   int // -1 once closed
	path string
}

// Removed reports whether d's folder was removed since it was opened (its
// link count is 0): its descriptor still works, but nothing in it can be
// made, and its path may lead to another folder by now. A folder that
// cannot be asked counts as removed.
func (d *Dir) Removed() bool {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return true
	}
	return st.Nlink == 0
}

// newDir wraps fd, a folder just opened at path.
func newDir(fd int, path string) *Dir { return &Dir{fd: fd, path: path} }

// OpenDir opens the folder rel (a slash path, "" or "." for anchor itself)
// under anchor. anchor is taken as it is, links and all (the user chose
// it); below it every name is opened with O_NOFOLLOW, and one that is a
// link or not a folder is a *LinkError. With create, missing folders are
// made with perm; without, a missing one is fs.ErrNotExist.
func OpenDir(anchor, rel string, create bool, perm fs.FileMode) (*Dir, error) {
	fd, err := unix.Open(anchor, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: anchor, Err: err}
	}
	d := newDir(fd, anchor)
	defer d.Close()
	return d.Folder(rel, create, perm)
}

// Folder opens the folder rel (a slash path; "" or "." is d again) in d,
// as OpenDir does.
func (d *Dir) Folder(rel string, create bool, perm fs.FileMode) (*Dir, error) {
	cur := d // not ours to close until a Sub replaces it
	for _, name := range strings.Split(rel, "/") {
		if name == "" || name == "." {
			continue
		}
		sub, err := cur.Sub(name, create, perm)
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = sub
	}
	if cur != d {
		return cur, nil
	}
	// d itself, as a Dir of the caller's own to close.
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	return newDir(fd, d.path), nil
}

// Sub opens the folder name, one name, in d, as OpenDir does.
func (d *Dir) Sub(name string, create bool, perm fs.FileMode) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	for tries := 0; ; tries++ {
		fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		switch {
		case err == nil:
			return newDir(fd, path), nil
		case err == unix.ENOENT && create && tries < 3:
			// Made by us or by a hook running beside us: open it either way.
			if err := unix.Mkdirat(d.fd, name, uint32(perm.Perm())); err != nil && err != unix.EEXIST {
				return nil, &fs.PathError{Op: "mkdir", Path: path, Err: err}
			}
			continue
		case err == unix.ELOOP || err == unix.EMLINK || err == unix.ENOTDIR && d.isLink(name):
			// O_NOFOLLOW on a link: ELOOP (EMLINK on some BSDs), or
			// ENOTDIR where O_DIRECTORY is looked at first.
			return nil, &LinkError{Path: path}
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
}

// isLink reports whether name in d is a symbolic link.
func (d *Dir) isLink(name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// checkName refuses anything but one plain name: a caller's bug, never a
// way out of d.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return fmt.Errorf("hookfs: %q is not a file name", name)
	}
	return nil
}

// Path is d's path, for messages.
func (d *Dir) Path() string { return d.path }

// Close closes d. Closing it again is an error, never a close of a
// descriptor reused since.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return &fs.PathError{Op: "close", Path: d.path, Err: os.ErrClosed}
	}
	fd := d.fd
	d.fd = -1
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: d.path, Err: err}
	}
	return nil
}

// OpenFile opens name in d with flag and perm as os.OpenFile would, but
// never through a link (a link there is a *NotRegularError) and never
// waiting on a FIFO. Creating, it makes a regular file; opening an
// existing name, it accepts only a regular file.
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := d.OpenRegular(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(f.release()), f.path), nil
}

// ReadFile reads name in d: a regular file of at most max bytes.
func (d *Dir) ReadFile(name string, max int64) ([]byte, error) {
	f, err := d.OpenRegular(name, unix.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.readAll(max)
}

// Exists reports whether d holds name, whatever it is (a link included).
func (d *Dir) Exists(name string) (bool, error) {
	if err := checkName(name); err != nil {
		return false, err
	}
	var st unix.Stat_t
	switch err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err {
	case nil:
		return true, nil
	case unix.ENOENT:
		return false, nil
	default:
		return false, &fs.PathError{Op: "lstat", Path: filepath.Join(d.path, name), Err: err}
	}
}

// ErrChanged says a file was not the one its caller read: another size
// (written since by someone who did not take its lock), or a file with
// another name too (a hard link planted at its name).
var ErrChanged = errors.New("changed since it was read")

// Append adds data at the end of name, a regular file in d (never
// followed if a link) that its caller read, under its lock, at size
// bytes; ErrChanged, writing nothing, when it is another size now or has
// another name (the caller then replaces the name, which a rename does). A
// write that fails partway is undone (the file cut back to size), so the
// file holds what it held or all of data. Nothing replaces the file: no
// temporary file is made, no rename done. Not synced: after a crash the
// end of data may be missing.
func (d *Dir) Append(name string, data []byte, size int64) error {
	f, err := d.OpenRegular(name, unix.O_WRONLY|unix.O_APPEND, 0)
	if err != nil {
		return err
	}
	if f.Size() != size || f.Linked() {
		// Another size: written since without the lock. Another name:
		// a hard link planted at this one, to a file that is not ours.
		f.Close()
		return &fs.PathError{Op: "append", Path: f.path, Err: ErrChanged}
	}
	_, err = f.Write(data)
	if err != nil {
		_ = unix.Ftruncate(f.fd, size)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Create makes name in d, a file that must not exist yet (fs.ErrExist
// when it does), holding data and given perm. A write that fails removes
// it again. Not atomic: after a crash the file may be there with part of
// data, or none of it, so it is for records whose reader takes a record
// cut short as lost (see Append).
func (d *Dir) Create(name string, data []byte, perm fs.FileMode) error {
	f, err := d.OpenRegular(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, perm)
	if err != nil {
		return err
	}
	err = f.chmod(perm) // whatever the umask took away
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = unix.Unlinkat(d.fd, name, 0)
	}
	return err
}

// WriteFile replaces name in d with data, atomically: a temporary file in
// d, given perm, renamed over name (a link there is replaced, not
// followed). With sync the data reaches the disk before the rename. The
// error is the failed step's, which names the temporary file.
func (d *Dir) WriteFile(name string, data []byte, perm fs.FileMode, sync bool) error {
	if err := checkName(name); err != nil {
		return err
	}
	f, tmp, err := d.createTemp(name)
	if err != nil {
		return err
	}
	werr := f.chmod(perm)
	if werr == nil {
		_, werr = f.Write(data)
	}
	if werr == nil && sync {
		werr = f.sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = d.Rename(tmp, name)
	}
	if werr != nil {
		_ = unix.Unlinkat(d.fd, tmp, 0)
		return werr
	}
	return nil
}

// createTemp creates a new, empty, owner-only file beside name. O_EXCL
// makes a new regular file or fails (a link there included): there is
// nothing to check once it is open.
func (d *Dir) createTemp(name string) (*RegularFile, string, error) {
	for range 10 {
		tmp := "." + name + "." + hex16(rand.Uint64()) + ".tmp"
		fd, err := unix.Openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return nil, "", &fs.PathError{Op: "open", Path: filepath.Join(d.path, tmp), Err: err}
		}
		return &RegularFile{fd: fd, path: filepath.Join(d.path, tmp)}, tmp, nil
	}
	return nil, "", fmt.Errorf("writing %s: no free temporary name", filepath.Join(d.path, name))
}

// Rename renames from to to, both in d. Neither is followed if a link.
func (d *Dir) Rename(from, to string) error {
	if err := checkName(from); err != nil {
		return err
	}
	if err := checkName(to); err != nil {
		return err
	}
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(d.path, from), New: filepath.Join(d.path, to), Err: err}
	}
	return nil
}

// Remove removes name, a file (or a link, not what it points to) in d.
// One already gone is fine.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := unix.Unlinkat(d.fd, name, 0); err != nil && err != unix.ENOENT {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// RemoveAll removes name in d and, if it is a folder, all it holds, never
// following a link out of it.
func (d *Dir) RemoveAll(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	err := unix.Unlinkat(d.fd, name, 0)
	if err == nil || err == unix.ENOENT {
		return nil
	}
	if err != unix.EISDIR && err != unix.EPERM {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	sub, err := d.Sub(name, false, 0)
	if err != nil {
		return err
	}
	names, err := sub.names()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, n := range names {
		errs = append(errs, sub.RemoveAll(n))
	}
	sub.Close()
	if err := unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR); err != nil && err != unix.ENOENT {
		errs = append(errs, &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err})
	}
	return errors.Join(errs...)
}

// ReadDir lists d, sorted by name, as os.ReadDir does.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	f, err := d.reopen()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// names lists the names in d, unsorted.
func (d *Dir) names() ([]string, error) {
	f, err := d.reopen()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// reopen opens d again as an os.File to list it: a second handle, since
// reading a directory moves its offset, and d may be listed again.
func (d *Dir) reopen() (*os.File, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	return os.NewFile(uintptr(fd), d.path), nil
}

// Lock takes an exclusive lock on the lock file name in d (created if
// needed, never through a link), waiting for it, and returns its release.
func (d *Dir) Lock(name string) (unlock func(), err error) {
	f, err := d.OpenRegular(name, unix.O_RDWR|unix.O_CREAT, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(f.fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "lock", Path: f.path, Err: err}
	}
	return func() { f.Close() }, nil // closing the file releases its lock
}

// hex16 is n in 16 lower-case hex digits (fmt's %016x, without fmt's first
// call on a hook's path).
func hex16(n uint64) string {
	return hex.EncodeToString(binary.BigEndian.AppendUint64(nil, n))
}
