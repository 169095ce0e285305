package hookfs

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// RegularFile is a regular file held by its bare descriptor. An os.File
// of a file opened O_NONBLOCK (as every file here is, so a FIFO cannot
// hang the hook) costs a fcntl, an epoll_ctl that fails for a regular
// file, the first one the poller's own set-up, and a second fstat to read
// its size; a hook reads and writes a few small files, and those calls
// cost more than the reads.
type RegularFile struct {
	fd   int // -1 once closed or released
	path string
	info statInfo // the open file's fstat
}

// OpenRegular opens name in d as OpenFile does, never through a link or
// waiting on a FIFO, and only if it is a regular file. The caller closes
// it.
func (d *Dir) OpenRegular(name string, flag int, perm fs.FileMode) (*RegularFile, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return openRegular(d.fd, name, filepath.Join(d.path, name), flag|unix.O_NOFOLLOW, perm)
}

// openRegular opens name, relative to the folder dirfd (unix.AT_FDCWD: the
// working directory), non-blocking, and only if it is a regular file;
// path names it in errors. A link at the name is followed unless flag
// holds O_NOFOLLOW, and then it is a *NotRegularError.
func openRegular(dirfd int, name, path string, flag int, perm fs.FileMode) (*RegularFile, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, flag|unix.O_NONBLOCK|unix.O_CLOEXEC, uint32(perm.Perm()))
		return err
	})
	switch {
	case err == nil:
	case flag&unix.O_NOFOLLOW != 0 && (err == unix.ELOOP || err == unix.EMLINK):
		return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink}
	case err == unix.ENXIO: // a FIFO opened to write, with no reader
		return nil, &NotRegularError{Path: path, Mode: fs.ModeNamedPipe}
	default:
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := &RegularFile{fd: fd, path: path, info: statInfo{name: filepath.Base(path)}}
	if err := retryEINTR(func() error { return syscall.Fstat(fd, &f.info.st) }); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if !f.info.Mode().IsRegular() {
		unix.Close(fd)
		return nil, &NotRegularError{Path: path, Mode: f.info.Mode()}
	}
	return f, nil
}

// Name is f's path, for messages.
func (f *RegularFile) Name() string { return f.path }

// Size is f's size when it was opened.
func (f *RegularFile) Size() int64 { return f.info.Size() }

// Linked reports whether f has another name than the one it was opened
// by (a hard link), when it was opened: a file planted at a name of ours
// that is also someone's file elsewhere, which must never be written.
func (f *RegularFile) Linked() bool { return HardLinked(&f.info) }

// HardLinked reports whether the file info describes (from a stat of it)
// has more than one name.
func HardLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// Stat is what f's fstat said when it was opened.
func (f *RegularFile) Stat() fs.FileInfo { return &f.info }

// Close closes f. Closing it again is an error, never a close of a
// descriptor reused since.
func (f *RegularFile) Close() error {
	fd := f.release()
	if fd < 0 {
		return &fs.PathError{Op: "close", Path: f.path, Err: os.ErrClosed}
	}
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}

// release hands f's descriptor over to the caller; f is closed after.
func (f *RegularFile) release() int {
	fd := f.fd
	f.fd = -1
	return fd
}

// ReadAt reads len(b) bytes at off, as os.File.ReadAt does: fewer only at
// the end of the file (io.EOF) or on an error.
func (f *RegularFile) ReadAt(b []byte, off int64) (int, error) {
	read := 0
	for read < len(b) {
		n, err := unix.Pread(f.fd, b[read:], off+int64(read))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return read, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 {
			return read, io.EOF
		}
		read += n
	}
	return read, nil
}

// Write writes all of b, as os.File.Write does.
func (f *RegularFile) Write(b []byte) (int, error) {
	written := 0
	for written < len(b) {
		n, err := unix.Write(f.fd, b[written:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return written, &fs.PathError{Op: "write", Path: f.path, Err: err}
		}
		if n == 0 {
			return written, &fs.PathError{Op: "write", Path: f.path, Err: io.ErrShortWrite}
		}
		written += n
	}
	return written, nil
}

func (f *RegularFile) chmod(perm fs.FileMode) error {
	if err := unix.Fchmod(f.fd, uint32(perm.Perm())); err != nil {
		return &fs.PathError{Op: "chmod", Path: f.path, Err: err}
	}
	return nil
}

func (f *RegularFile) sync() error {
	if err := unix.Fsync(f.fd); err != nil {
		return &fs.PathError{Op: "sync", Path: f.path, Err: err}
	}
	return nil
}

// readAll reads f whole from its start: at most max bytes, even if it
// grows while it is read. The buffer has room for one byte more than the
// size f had when opened, so a read that stops short of filling it, once
// that size is read, is the end: one read for a file that stays as it was.
func (f *RegularFile) readAll(max int64) ([]byte, error) {
	size := f.Size()
	if size > max {
		return nil, &TooLargeError{Path: f.path, Size: size, Max: max}
	}
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, &TooLargeError{Path: f.path, Size: int64(len(buf)), Max: max}
			}
			grown := min(int64(cap(buf))*2+512, max+1)
			buf = append(make([]byte, 0, grown), buf...)
		}
		n, err := unix.Read(f.fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) >= size && len(buf) < cap(buf) {
			break
		}
	}
	if int64(len(buf)) > max {
		return nil, &TooLargeError{Path: f.path, Size: int64(len(buf)), Max: max}
	}
	return buf, nil
}
