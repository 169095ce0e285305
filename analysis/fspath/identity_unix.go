//go:build unix

package fspath

import (
	"io/fs"
	"syscall"
)

// identity is a file's device, inode and link count, from stat(2).
func identity(info fs.FileInfo) (dev, ino, links uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), true
}
