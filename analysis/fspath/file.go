package fspath

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// File is one file as the kernel knows it: the device and inode every
// name of it shares, and how many names (hard links) it has.
type File struct {
	dev, ino, links uint64
	regular         bool
}

// File is the file Real names, from what the walk already read (no
// further system call); false when it does not exist or the system does
// not say.
func (p Path) File() (File, bool) {
	if p.final == nil {
		return File{}, false
	}
	return fileOf(p.final)
}

// Stat is the file path leads to, links followed.
func Stat(path string) (File, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return File{}, false
	}
	return fileOf(info)
}

// SharesData reports whether f is a regular file with more than one name:
// writing or reading it by one name writes or reads it by every other.
func (f File) SharesData() bool { return f.regular && f.links > 1 }

// Same reports whether f and g are one file.
func (f File) Same(g File) bool { return f.dev == g.dev && f.ino == g.ino }

// SameFile reports whether a and b, links followed, are one existing
// file: the same name, a hard link of it, or a symlink to either.
func SameFile(a, b string) bool {
	fa, ok := Stat(a)
	if !ok {
		return false
	}
	fb, ok := Stat(b)
	return ok && fa.Same(fb)
}

// Search is a bounded walk of the folders under Root: the hunt for the
// other names of a file (Find), or for the files a recursive read reaches
// (Walk).
type Search struct {
	Root string
	// Budget is how many folder entries the search may read at most.
	// Walk spends it, so that walks one after another share it.
	Budget int
	// Enter says whether to look inside a folder; nil enters all.
	Enter func(rel string) bool
	// Want says whether a file name is worth comparing (one Lstat each).
	// Find alone uses it.
	Want func(rel string) bool
	// Expired, asked before each folder is read, ends the walk early
	// when it says the time allowed is spent; nil never does.
	Expired func() bool
}

// Walk reads the folders under s.Root breadth first (the shallowest
// first), without following links to folders, and calls visit with every
// entry that is not a folder, its name relative to s.Root and
// slash-separated; visit returns false to stop. It enters the folders
// s.Enter accepts. complete is false when the budget (or the time) ran
// out before every folder was read: the walk then says nothing about the
// folders left.
func (s *Search) Walk(visit func(rel string, e fs.DirEntry) bool) (complete bool) {
	queue := []string{"."}
	for len(queue) > 0 {
		if s.Expired != nil && s.Expired() {
			return false
		}
		dir := queue[0]
		queue = queue[1:]
		entries, err := readDir(filepath.Join(s.Root, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		if s.Budget -= len(entries); s.Budget < 0 {
			return false
		}
		for _, e := range entries {
			rel := path.Join(dir, e.Name())
			if e.IsDir() {
				if s.Enter == nil || s.Enter(rel) {
					queue = append(queue, rel)
				}
				continue
			}
			if !visit(rel, e) {
				return true
			}
		}
	}
	return true
}

// Find looks for a name of f under s.Root, folder by folder, breadth
// first, without following links to folders: it returns the first name,
// relative to s.Root and slash-separated, that s.Want accepts and that is
// f. complete is false when the budget ran out before every folder was
// read: the search then says nothing about the folders left. A root on
// another device cannot hold a hard link of f and is not read.
func (s Search) Find(f File) (rel string, complete bool) {
	root, ok := Stat(s.Root)
	if !ok || root.dev != f.dev {
		return "", true
	}
	byInode := inodesAgree(s.Root)
	complete = s.Walk(func(name string, e fs.DirEntry) bool {
		// Where the listing gives the inode numbers stat gives, an entry
		// that is not f costs nothing more: no pattern asked, no Lstat.
		if ino, ok := inoOf(e); ok && byInode && ino != f.ino {
			return true
		}
		if !e.Type().IsRegular() || (s.Want != nil && !s.Want(name)) {
			return true
		}
		info, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(name)))
		if err != nil {
			return true
		}
		if g, ok := fileOf(info); ok && g.Same(f) {
			rel = name
			return false
		}
		return true
	})
	if rel != "" {
		return rel, true
	}
	return "", complete
}

// fileOf reads a FileInfo's identity; false where the system gives none.
func fileOf(info fs.FileInfo) (File, bool) {
	dev, ino, links, ok := identity(info)
	if !ok {
		return File{}, false
	}
	return File{dev: dev, ino: ino, links: links, regular: info.Mode().IsRegular()}, true
}
