package fspath

import "golang.org/x/sys/unix"

// firstEntry is the first of dir's first n names, in the folder's own
// order, that ok accepts; "" if none does or dir cannot be read. It reads
// the listing with getdents itself: os.Open hands a folder to the network
// poller, which refuses it, five system calls more than the open, read
// and close the listing needs; and a batch that holds an accepted name
// ends the reading, where os.File reads on until it has n names or the
// end.
func firstEntry(dir string, n int, ok func(string) bool) string {
	fd, err := openDir(dir)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	buf := make([]byte, 8192)
	var names []string
	for seen := 0; seen < n; {
		size, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || size <= 0 {
			return ""
		}
		var count int
		_, count, names = unix.ParseDirent(buf[:size], n-seen, names[:0])
		seen += count
		for _, name := range names {
			if ok(name) {
				return name
			}
		}
	}
	return ""
}

// openDir opens dir (following a last symlink, as os.Open does) to read
// its listing.
func openDir(dir string) (int, error) {
	for {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
