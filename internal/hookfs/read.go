package hookfs

import (
	"io/fs"
	"os"
	"syscall"
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
	f, _, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, max)
}
