package hookfs

import (
	"io"
	"io/fs"
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
	f, err := openRegular(unix.AT_FDCWD, path, path, unix.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := f.readAll(max)
	if err != nil {
		return nil, nil, err
	}
	return data, f.Stat(), nil
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
func (s *statInfo) ModTime() time.Time { return modTime(&s.st) }
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
	f, err := openRegular(unix.AT_FDCWD, path, path, unix.O_RDONLY, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	start = max(f.Size()-n, 0)
	data = make([]byte, f.Size()-start)
	got, err := f.ReadAt(data, start)
	if err != nil && err != io.EOF { // io.EOF: it shrank since fstat
		return nil, 0, err
	}
	return data[:got], start, nil
}
