//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package hookfs

import (
	"syscall"
	"time"
)

// modTime is a stat's modification time, as os.Stat gives it (the BSDs
// and macOS name the field Mtimespec).
func modTime(st *syscall.Stat_t) time.Time { return time.Unix(st.Mtimespec.Unix()) }
