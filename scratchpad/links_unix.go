//go:build unix

package scratchpad

import (
	"io/fs"
	"syscall"
)

// linkCount is the number of hard links to the file info describes.
func linkCount(info fs.FileInfo) (uint64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
