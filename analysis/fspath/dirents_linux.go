package fspath

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// A dirent is a folder entry as getdents gives it: its inode number
// comes with its name, so a search for the other names of a file can
// pass over every entry that is not it without a system call.
type dirent struct {
	dir, name string
	typ       fs.FileMode
	ino       uint64
}

func (d dirent) Name() string               { return d.name }
func (d dirent) IsDir() bool                { return d.typ.IsDir() }
func (d dirent) Type() fs.FileMode          { return d.typ }
func (d dirent) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(d.dir, d.name)) }

// readDir is dir's entries, sorted by name, as os.ReadDir gives them, with
// their inode numbers (inoOf).
func readDir(dir string) ([]fs.DirEntry, error) {
	fd, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 32<<10)
	var out []fs.DirEntry
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		out = appendDirents(out, dir, buf[:n])
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int {
		switch {
		case a.Name() < b.Name():
			return -1
		case a.Name() > b.Name():
			return 1
		}
		return 0
	})
	return out, nil
}

// appendDirents parses getdents64's records (inode, offset, length,
// type, NUL-terminated name) into entries, leaving out . and ..; an
// entry of a type the file system does not say is asked with lstat.
func appendDirents(out []fs.DirEntry, dir string, buf []byte) []fs.DirEntry {
	for len(buf) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		name := rec[19:]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if s := string(name); s != "" && s != "." && s != ".." {
			d := dirent{dir: dir, name: s, ino: binary.NativeEndian.Uint64(rec[0:8])}
			switch rec[18] {
			case unix.DT_DIR:
				d.typ = fs.ModeDir
			case unix.DT_REG:
				d.typ = 0
			case unix.DT_LNK:
				d.typ = fs.ModeSymlink
			case unix.DT_UNKNOWN:
				info, err := os.Lstat(filepath.Join(dir, s))
				if err != nil {
					continue
				}
				d.typ = info.Mode().Type()
			default:
				d.typ = fs.ModeIrregular
			}
			out = append(out, d)
		}
	}
	return out
}

// inoOf is the inode number of an entry readDir gave, when it says.
func inoOf(e fs.DirEntry) (uint64, bool) {
	d, ok := e.(dirent)
	return d.ino, ok
}

// inodesAgree reports whether the file system dir is on gives listings
// the inode numbers stat gives: the local disk file systems and tmpfs
// do; overlayfs (a container's root) and FUSE need not, and a search
// that trusted them could pass over the very name it looks for.
func inodesAgree(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC:
		return true
	}
	return false
}
