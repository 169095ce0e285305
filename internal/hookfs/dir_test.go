package hookfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestOpenDirCreatesAndRefusesLinks(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "a/b/c", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if info, err := os.Stat(filepath.Join(anchor, "a/b/c")); err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("made %v, %v", info, err)
	}
	if _, err := OpenDir(anchor, "x/y", false, 0o700); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenDir of a missing folder without create = %v", err)
	}

	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(anchor, "a/link")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"a/link", "a/link/sub"} {
		for _, create := range []bool{false, true} {
			var le *LinkError
			if _, err := OpenDir(anchor, rel, create, 0o700); !errors.As(err, &le) || le.Path != filepath.Join(anchor, "a/link") {
				t.Errorf("OpenDir(%q, create %v) = %v, want a *LinkError naming the link", rel, create, err)
			}
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("made through the link: %v", entries)
	}
	mustWrite(t, filepath.Join(anchor, "a/file"), "x")
	if _, err := OpenDir(anchor, "a/file/sub", true, 0o700); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("OpenDir through a file = %v", err)
	}
	// The anchor itself may be a link: the user chose it.
	linkedAnchor := filepath.Join(t.TempDir(), "project")
	if err := os.Symlink(anchor, linkedAnchor); err != nil {
		t.Fatal(err)
	}
	if d, err := OpenDir(linkedAnchor, "a/b", false, 0); err != nil {
		t.Errorf("OpenDir under a linked anchor = %v", err)
	} else {
		d.Close()
	}
	for _, bad := range []string{"..", "a/../..", "."} {
		if d, err := OpenDir(anchor, bad, false, 0); bad != "." && err == nil {
			t.Errorf("OpenDir(%q) succeeded", bad)
			d.Close()
		}
	}
}

func TestDirFiles(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "run", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	target := filepath.Join(t.TempDir(), "target")
	mustWrite(t, target, "theirs")
	if err := os.Symlink(target, filepath.Join(anchor, "run/link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(anchor, "run/fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(anchor, "run/big"), strings.Repeat("x", 101))

	var nr *NotRegularError
	for name, what := range map[string]string{"link": "a symbolic link", "fifo": "a FIFO"} {
		for _, flag := range []int{os.O_RDONLY, os.O_RDWR | os.O_APPEND | os.O_CREATE, os.O_WRONLY} {
			if f, err := d.OpenFile(name, flag, 0o600); !errors.As(err, &nr) || nr.What() != what {
				t.Errorf("OpenFile(%s, %#x) = %v, want it refused as %s", name, flag, err, what)
				if f != nil {
					f.Close()
				}
			}
		}
	}
	var tl *TooLargeError
	if _, err := d.ReadFile("big", 100); !errors.As(err, &tl) || tl.Size != 101 || tl.Max != 100 {
		t.Errorf("ReadFile over the cap = %v", err)
	}
	if data, err := d.ReadFile("big", 101); err != nil || len(data) != 101 {
		t.Errorf("ReadFile at the cap = %d bytes, %v", len(data), err)
	}

	// WriteFile replaces a link, never its target.
	if err := d.WriteFile("link", []byte("ours"), 0o640, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "theirs" {
		t.Errorf("the link's target was written: %q", got)
	}
	info, err := os.Lstat(filepath.Join(anchor, "run/link"))
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o640 {
		t.Errorf("after WriteFile: %v, %v; want a regular -rw-r-----", info, err)
	}
	if ok, err := d.Exists("link"); !ok || err != nil {
		t.Errorf("Exists = %v, %v", ok, err)
	}
	if ok, err := d.Exists("gone"); ok || err != nil {
		t.Errorf("Exists(gone) = %v, %v", ok, err)
	}
	entries, err := d.ReadDir()
	if err != nil || len(entries) != 3 || entries[0].Name() != "big" || entries[2].Name() != "link" {
		t.Errorf("ReadDir = %v, %v", entries, err)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "x\x00"} {
		if _, err := d.OpenFile(bad, os.O_RDONLY, 0); err == nil {
			t.Errorf("OpenFile(%q) succeeded", bad)
		}
	}
}

// RemoveAll removes a tree, and a link in it, never what the link names.
func TestRemoveAllDoesNotFollow(t *testing.T) {
	anchor := t.TempDir()
	keep := t.TempDir()
	mustWrite(t, filepath.Join(keep, "precious"), "x")
	mustWrite(t, filepath.Join(anchor, "s/old/rec.json"), "{}")
	mustWrite(t, filepath.Join(anchor, "s/old/deeper/rec.json"), "{}")
	if err := os.Symlink(keep, filepath.Join(anchor, "s/old/link")); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(anchor, "s", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.RemoveAll("old"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(anchor, "s/old")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("old still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(keep, "precious")); err != nil {
		t.Errorf("followed the link: %v", err)
	}
	if err := d.RemoveAll("old"); err != nil {
		t.Errorf("RemoveAll of nothing = %v", err)
	}
}

func TestReadFileByPath(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	if _, err := ReadFile(fifo, 10); !errors.As(err, &nr) || err.Error() != fifo+" is a FIFO" {
		t.Errorf("ReadFile(FIFO) = %v", err)
	}
	if _, err := ReadFile(dir, 10); !errors.As(err, &nr) || nr.What() != "a directory" {
		t.Errorf("ReadFile(dir) = %v", err)
	}
	file := filepath.Join(dir, "f")
	mustWrite(t, file, "12345")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(link, 5); err != nil || string(data) != "12345" {
		t.Errorf("ReadFile through a link (followed by design) = %q, %v", data, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(file, 4); !errors.As(err, &tl) || err.Error() != file+" is too large (5 bytes; at most 4 bytes is read)" {
		t.Errorf("ReadFile over the cap = %v", err)
	}
}

// Folder hands back a Dir of the caller's own, whatever rel is, and
// leaves d open and usable; none of its ways out leaks a descriptor.
func TestFolderOwnsWhatItReturns(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a", "b"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(root, "a", "link")); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(root, "", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	openFDs := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("cannot count descriptors: %v", err)
		}
		return len(entries)
	}
	before := openFDs()
	for _, tc := range []struct {
		rel, want string
		err       bool
	}{{"", root, false}, {".", root, false}, {"a", "a", false}, {"a/./b", "a/b", false},
		{"missing", "", true}, {"a/missing", "", true}, {"a/link/a", "", true}} {
		sub, err := d.Folder(tc.rel, false, 0)
		if tc.err {
			if err == nil {
				sub.Close()
				t.Errorf("Folder(%q) opened %s, want an error", tc.rel, sub.Path())
			}
			continue
		}
		want := tc.want
		if !filepath.IsAbs(want) {
			want = filepath.Join(root, want)
		}
		if err != nil || sub.Path() != want {
			t.Errorf("Folder(%q) = %v, %v; want %s", tc.rel, sub, err, want)
			continue
		}
		if err := sub.Close(); err != nil {
			t.Errorf("closing Folder(%q): %v", tc.rel, err)
		}
	}
	if after := openFDs(); after != before {
		t.Errorf("%d descriptors open after the calls, %d before", after, before)
	}
	if _, err := d.ReadDir(); err != nil {
		t.Errorf("d after Folder calls: %v", err)
	}
}

// ReadFileInfo's file information is os.Stat's, taken from the file it
// read; a file whose size fstat does not know (as /proc's) is read to its
// end all the same, and the cap holds for it.
func TestReadFileInfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	mustWrite(t, file, "hello")
	if err := os.Chmod(file, 0o640); err != nil {
		t.Fatal(err)
	}
	data, info, err := ReadFileInfo(file, 5)
	if err != nil || string(data) != "hello" {
		t.Fatalf("ReadFileInfo = %q, %v", data, err)
	}
	want, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name() != want.Name() || info.Size() != want.Size() || info.Mode() != want.Mode() ||
		!info.ModTime().Equal(want.ModTime()) || info.IsDir() || !sameInode(info, want) {
		t.Errorf("info = %s %d %v %v, os.Stat = %s %d %v %v", info.Name(), info.Size(), info.Mode(), info.ModTime(),
			want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
	if _, _, err := ReadFileInfo(filepath.Join(filepath.Dir(file), "none"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFileInfo(missing) = %v", err)
	} else if pe, ok := err.(*fs.PathError); !ok || pe.Op != "open" {
		t.Errorf("ReadFileInfo(missing) = %#v, want os.Open's *fs.PathError", err)
	}
	const proc = "/proc/self/cmdline"
	if st, err := os.Stat(proc); err != nil || st.Size() != 0 {
		t.Skipf("no %s of unknown size here", proc)
	}
	whole, err := os.ReadFile(proc)
	if err != nil || len(whole) < 2 {
		t.Skipf("%s: %q, %v", proc, whole, err)
	}
	if data, err := ReadFile(proc, int64(len(whole))); err != nil || string(data) != string(whole) {
		t.Errorf("ReadFile(%s) = %q, %v; want %q", proc, data, err, whole)
	}
	var tl *TooLargeError
	if _, err := ReadFile(proc, int64(len(whole)-1)); !errors.As(err, &tl) {
		t.Errorf("ReadFile(%s) over the cap = %v", proc, err)
	}
}

func sameInode(a, b fs.FileInfo) bool {
	x, okA := a.Sys().(*syscall.Stat_t)
	y, okB := b.Sys().(*syscall.Stat_t)
	return okA && okB && x.Dev == y.Dev && x.Ino == y.Ino
}

// ReadEnd reads a file's last bytes, or all of a shorter one, and refuses
// what Open refuses.
func TestReadEnd(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	mustWrite(t, file, "0123456789")
	for _, tc := range []struct {
		n     int64
		want  string
		start int64
	}{{4, "6789", 6}, {10, "0123456789", 0}, {64, "0123456789", 0}, {0, "", 10}} {
		data, start, err := ReadEnd(file, tc.n)
		if err != nil || string(data) != tc.want || start != tc.start {
			t.Errorf("ReadEnd(%d) = %q at %d, %v; want %q at %d", tc.n, data, start, err, tc.want, tc.start)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	for _, p := range []string{fifo, dir} {
		if _, _, err := ReadEnd(p, 4); !errors.As(err, &nr) {
			t.Errorf("ReadEnd(%s) = %v, want a *NotRegularError", p, err)
		}
	}
	if _, _, err := ReadEnd(filepath.Join(dir, "none"), 4); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadEnd(missing) = %v", err)
	}
}

// ReadFile reads a file that grows past the size it had when opened, as
// procfs files do (they say 0 bytes and hold more), whole, and still
// refuses one over the cap.
func TestReadFileBeyondItsStatedSize(t *testing.T) {
	d, err := OpenDir("/proc/self", "", false, 0)
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	defer d.Close()
	want, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	got, err := d.ReadFile("status", 1<<20)
	if err != nil || !strings.HasPrefix(string(got), "Name:") || len(got) < len(want)/2 {
		t.Errorf("ReadFile(status) = %d bytes %.40q, %v; os.ReadFile read %d", len(got), got, err, len(want))
	}
	var tl *TooLargeError
	if _, err := d.ReadFile("status", 10); !errors.As(err, &tl) || tl.Max != 10 {
		t.Errorf("ReadFile(status) over a cap of 10 = %v, want a *TooLargeError", err)
	}
}

// A RegularFile reads and writes as an os.File would, and a second Close
// of it, or of a Dir, is an error, never a close of a descriptor another
// open has reused since.
func TestRegularFileAndDoubleClose(t *testing.T) {
	d, err := OpenDir(t.TempDir(), "", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, err := d.OpenRegular("f", os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("hello\n")); n != 6 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	var b [3]byte
	if n, err := f.ReadAt(b[:], 4); n != 2 || err == nil || string(b[:n]) != "o\n" {
		t.Errorf("ReadAt at the end = %d %q, %v; want 2 bytes and io.EOF", n, b[:n], err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := d.OpenRegular("f", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Size() != 6 {
		t.Errorf("Size = %d, want 6", g.Size())
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Close = %v, want os.ErrClosed", err)
	}
	if data, err := g.readAll(100); err != nil || string(data) != "hello\n" {
		t.Errorf("the file opened after the first Close: %q, %v", data, err)
	}
	sub, err := d.Folder(".", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sub.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Close of a Dir = %v, want os.ErrClosed", err)
	}
	if _, err := d.ReadDir(); err != nil {
		t.Errorf("d after a second Close of its copy: %v", err)
	}
}

// Lock and ReadFile refuse a link or a FIFO where their file should be,
// and never wait on the FIFO.
func TestLockAndReadFileRefuseWhatIsNotAFile(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustWrite(t, filepath.Join(t.TempDir(), "target"), "x")
	if err := os.Symlink(filepath.Join(anchor, "target"), filepath.Join(anchor, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(anchor, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(anchor, "dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, what := range map[string]string{"link": "a symbolic link", "fifo": "a FIFO", "dir": "a directory"} {
		var nr *NotRegularError
		if _, err := d.ReadFile(name, 100); !errors.As(err, &nr) || nr.What() != what {
			t.Errorf("ReadFile(%s) = %v, want it refused as %s", name, err, what)
		}
		if name == "dir" {
			continue // opening a folder to write fails before it is looked at
		}
		if unlock, err := d.Lock(name); !errors.As(err, &nr) || nr.What() != what {
			t.Errorf("Lock(%s) = %v, want it refused as %s", name, err, what)
			if unlock != nil {
				unlock()
			}
		}
	}
}

// ReadOwnFile reads a regular file, and refuses a link at its name (even
// to a regular file), a FIFO (without waiting for a writer) and a folder.
func TestReadOwnFileRefusesAllButARegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "own.json")
	mustWrite(t, file, `{"a":1}`)
	if data, err := ReadOwnFile(file, 100); err != nil || string(data) != `{"a":1}` {
		t.Fatalf("ReadOwnFile(file) = %q, %v", data, err)
	}
	if _, err := ReadOwnFile(file, 3); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("ReadOwnFile over max = %v, want a *TooLargeError", err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]fs.FileMode{link: fs.ModeSymlink, fifo: fs.ModeNamedPipe, dir: fs.ModeDir} {
		var nr *NotRegularError
		if _, err := ReadOwnFile(path, 100); !errors.As(err, &nr) || nr.Mode.Type() != want {
			t.Errorf("ReadOwnFile(%s) = %v, want a *NotRegularError of type %v", path, err, want)
		}
	}
}

// Removed tells a folder that is still there from one removed since it
// was opened, and from one made anew at its path.
func TestRemoved(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "a", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Removed() {
		t.Fatal("a folder just opened reads as removed")
	}
	if err := os.Remove(filepath.Join(anchor, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(anchor, "a"), 0o700); err != nil {
		t.Fatal(err)
	}
	if !d.Removed() {
		t.Error("a folder removed (and another made at its path) does not read as removed")
	}
}

// Append adds to the file its caller read, and only to it: a file of
// another size than read is ErrChanged with nothing written, a link is
// never followed, and a write the file size limit cuts short (as a full
// disk would) is undone, leaving the file as it was.
func TestAppend(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "s", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	path := filepath.Join(anchor, "s", "rec")
	mustWrite(t, path, "1\n")
	if err := d.Append("rec", []byte("2\n"), 2); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("rec", []byte("3\n"), 2); !errors.Is(err, ErrChanged) {
		t.Errorf("append at a stale size: %v, want ErrChanged", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "1\n2\n" {
		t.Errorf("after two appends: %q", data)
	}
	mustWrite(t, filepath.Join(anchor, "target"), "x")
	if err := os.Symlink(filepath.Join(anchor, "target"), filepath.Join(anchor, "s", "link")); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("link", []byte("y"), 1); err == nil {
		t.Error("appended through a link")
	}

	// Room for two of the four bytes below.
	err = underFileSizeLimit(t, 6, func() error { return d.Append("rec", []byte("4444"), 4) })
	if err == nil {
		t.Fatal("an append past the file size limit succeeded")
	}
	if data, _ := os.ReadFile(path); string(data) != "1\n2\n" {
		t.Errorf("after an append cut short: %q, want the file as it was", data)
	}
}

// Create makes a file that was not there, owner-only whatever the umask;
// one that is there is fs.ErrExist, left as it was (a link at the name is
// not followed); a write the file size limit cuts short removes it.
func TestCreate(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "s", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	old := syscall.Umask(0o277)
	err = d.Create("rec", []byte("1\n"), 0o600)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(anchor, "s", "rec")
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("created %v, %v; want mode 0600", info, err)
	}
	if err := d.Create("rec", []byte("2\n"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Errorf("create over a file: %v, want fs.ErrExist", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "1\n" {
		t.Errorf("the file is %q after a refused create", data)
	}
	mustWrite(t, filepath.Join(anchor, "target"), "x")
	if err := os.Symlink(filepath.Join(anchor, "target"), filepath.Join(anchor, "s", "link")); err != nil {
		t.Fatal(err)
	}
	if err := d.Create("link", []byte("y"), 0o600); err == nil {
		t.Error("created through a link")
	}
	if data, _ := os.ReadFile(filepath.Join(anchor, "target")); string(data) != "x" {
		t.Errorf("the link's target became %q", data)
	}

	err = underFileSizeLimit(t, 2, func() error { return d.Create("big", []byte("4444"), 0o600) })
	if err == nil {
		t.Fatal("a create past the file size limit succeeded")
	}
	if _, err := os.Lstat(filepath.Join(anchor, "s", "big")); !os.IsNotExist(err) {
		t.Errorf("a create cut short left the file: %v", err)
	}
}

// A file with another name too (a hard link planted at the record's name,
// to a file of the user's) is never appended to: ErrChanged, so that the
// caller replaces the name instead, and the other file is untouched.
func TestAppendRefusesAHardLinkedFile(t *testing.T) {
	anchor := t.TempDir()
	d, err := OpenDir(anchor, "s", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	victim := filepath.Join(anchor, "victim.jsonl")
	mustWrite(t, victim, "{}\n")
	if err := os.Link(victim, filepath.Join(anchor, "s", "rec")); err != nil {
		t.Skip(err)
	}
	if err := d.Append("rec", []byte("x\n"), 3); !errors.Is(err, ErrChanged) {
		t.Errorf("append to a hard-linked file: %v, want ErrChanged", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "{}\n" {
		t.Errorf("the other name's file became %q", data)
	}
}

// underFileSizeLimit runs write with files limited to limit bytes (as a
// full disk would cut a write short: Go ignores SIGXFSZ, so the write
// fails with EFBIG), and returns its error. The test is skipped where
// the limit cannot be set.
func underFileSizeLimit(t *testing.T, limit uint64, write func() error) error {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	small := old
	small.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skip(err)
	}
	err := write()
	if rerr := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); rerr != nil {
		t.Fatal(rerr)
	}
	return err
}
