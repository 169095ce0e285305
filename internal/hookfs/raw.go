package hookfs

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ReadFileInfo is ReadFile, with what the open file's own fstat said of it
// (its size and modification time): a caller that stamps the file it read
// asks no second stat, which could name another file by then. It holds no
// *os.File: a regular file gains nothing from Go's poller, and joining it
// costs an epoll_ctl (refused) and a second fstat per file.
func ReadFileInfo(path string, max int64) ([]byte, fs.FileInfo, error) {
	fd, info, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer unix.Close(fd)
	if info.Size() > max {
		return nil, nil, &TooLargeError{Path: path, Size: info.Size(), Max: max}
	}
	data, err := readFD(fd, path, info.Size(), max)
	if err != nil {
		return nil, nil, err
	}
	return data, info, nil
}

// openRegular opens path as Open does (links followed, non-blocking, a
// regular file or a *NotRegularError), as a bare descriptor.
func openRegular(path string) (int, fs.FileInfo, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return -1, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	info := &statInfo{name: filepath.Base(path)}
	if err := retryEINTR(func() error { return syscall.Fstat(fd, &info.st) }); err != nil {
		unix.Close(fd)
		return -1, nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if !info.Mode().IsRegular() {
		unix.Close(fd)
		return -1, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return fd, info, nil
}

// readFD reads fd to its end, at most max bytes (a *TooLargeError past
// them, for a file that grew while it was read); size is what fstat said,
// the first guess of how much there is.
func readFD(fd int, path string, size, max int64) ([]byte, error) {
	data := make([]byte, 0, min(size, max)+1)
	for {
		if int64(len(data)) > max {
			return nil, &TooLargeError{Path: path, Size: int64(len(data)), Max: max}
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		limit := min(int64(cap(data)), max+1)
		var n int
		err := retryEINTR(func() (err error) {
			n, err = unix.Read(fd, data[len(data):limit])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
	}
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// statInfo is an fs.FileInfo from a bare fstat, as os.Stat makes one
// (Sys is a *syscall.Stat_t there too).
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode is the file's type and permissions, as os.Stat reports them.
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// ReadEnd reads the last n bytes (all of it, if fewer) of the regular file
// at path, opened as Open opens it, and says where they start in it.
func ReadEnd(path string, n int64) (data []byte, start int64, err error) {
	fd, info, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	defer unix.Close(fd)
	start = max(info.Size()-n, 0)
	data = make([]byte, info.Size()-start)
	got := 0
	for got < len(data) {
		var m int
		err := retryEINTR(func() (err error) {
			m, err = unix.Pread(fd, data[got:], start+int64(got))
			return err
		})
		if err != nil {
			return nil, 0, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			break // shorter than fstat said: it shrank meanwhile
		}
		got += m
	}
	return data[:got], start, nil
}
