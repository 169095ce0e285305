package hookfs

import (
	"io/fs"
	"syscall"
)

// Missing reports whether err, from a function of this package, says the
// file is not there: errors.Is(err, fs.ErrNotExist) for the errors this
// package returns (a *fs.PathError holding ENOENT). errors.Is asks the
// runtime to build the method table of syscall.Errno for its Is method on
// the first call of a process; every hook pays that when it finds no
// config file, and this does not.
func Missing(err error) bool {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return err == syscall.ENOENT
}
