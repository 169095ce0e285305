package hookfs

import (
	"syscall"
	"time"
)

// modTime is a stat's modification time, as os.Stat gives it (Linux names
// the field Mtim).
func modTime(st *syscall.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }
