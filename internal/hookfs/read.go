package hookfs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Open opens the file at path to read it, following links (its caller
// judged where they lead), if it is a regular file. It opens with
// O_NONBLOCK, so a FIFO put there answers at once instead of hanging the
// hook until a writer comes; a FIFO, a device or a folder is a
// *NotRegularError.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, info, nil
}

// ReadFile reads the file at path as Open opens it: a regular file of at
// most max bytes (a *TooLargeError above).
func ReadFile(path string, max int64) ([]byte, error) {
	data, _, err := ReadFileInfo(path, max)
	return data, err
}

// ReadOwnFile is ReadFile for a file massgen-hook writes itself, in a
// folder whose path was checked for links: the file's own name is not
// followed either (a link there is a *NotRegularError).
func ReadOwnFile(path string, max int64) ([]byte, error) {
	f, err := openRegular(unix.AT_FDCWD, path, path, unix.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.readAll(max)
}

// WriteOwnFile replaces the content of the existing file path, never
// through a link at its name and never waiting on a FIFO there.
func WriteOwnFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
