package scratchpad

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// recentDays is how far back Newest looks by name before it lists a folder.
const recentDays = 31

// Newest returns the path and day of the latest-dated YYYY-MM-DD.md file in
// dir, among those dated no later than the day after today (a date further
// ahead is a typo or a clock far off, not the latest entry; one day ahead is
// an agent that dates by UTC). It looks at names only, never at mtimes or
// contents. In a project in use the file is recent, so it first asks for
// each name from tomorrow back a month: a fixed number of lookups, however
// many files the folder has collected. Only when none of those exist does
// it list the folder. ok is false when there is none.
func (l Layout) Newest(dir, today string) (path, day string, ok bool, err error) {
	t, err := time.Parse(DayLayout, today)
	if err != nil {
		return "", "", false, fmt.Errorf("today %q: %w", today, err)
	}
	for i := -1; i <= recentDays; i++ {
		d := t.AddDate(0, 0, -i).Format(DayLayout)
		p := l.File(dir, d)
		switch _, err := os.Lstat(p); {
		case err == nil:
			return p, d, true, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", "", false, err
		}
	}
	return l.newestListed(dir, t.AddDate(0, 0, 1).Format(DayLayout))
}

// newestListed is Newest by listing dir: the latest day up to last.
func (l Layout) newestListed(dir, last string) (path, day string, ok bool, err error) {
	d, err := openDir(filepath.Join(l.Root, dir))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", false, nil
	} else if err != nil {
		return "", "", false, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return "", "", false, err
	}
	for _, name := range names {
		// Dates compare as strings: only a name that would beat the
		// newest so far is parsed.
		if len(name) != len(FileName(DayLayout)) || name[:len(DayLayout)] <= day || name[:len(DayLayout)] > last {
			continue
		}
		if dd, valid := DayOf(name); valid {
			day = dd
		}
	}
	if day == "" {
		return "", "", false, nil
	}
	return l.File(dir, day), day, true, nil
}

// tailWindow bounds how much of a file Tail reads: a scratchpad's last lines
// are in its last bytes, however long the file has grown.
const tailWindow = 64 << 10

// Tail returns the last n lines of a scratchpad file (after Contained and
// regular-file checks), without trailing blank lines, and whether lines were
// left out before them.
func (l Layout) Tail(path string, n int) (lines []string, cut bool, err error) {
	n = max(n, 0)
	if err := l.Contained(path); err != nil {
		return nil, false, err
	}
	// Opened non-blocking: a FIFO put there must not hang the hook.
	buf, start, err := hookfs.ReadEnd(path, tailWindow)
	if err != nil {
		return nil, false, fileError(err)
	}
	if start == 0 {
		buf = bytes.TrimPrefix(buf, bom)
	}
	text := strings.TrimRight(strings.ReplaceAll(string(buf), "\r\n", "\n"), "\n \t")
	if text == "" {
		return nil, false, nil
	}
	all := strings.Split(text, "\n")
	if start > 0 {
		all = all[1:] // the first line may be cut in the middle
	}
	if len(all) <= n {
		return all, start > 0, nil
	}
	return all[len(all)-n:], true, nil
}

// Delegated returns the agent directories, other than the coordinator's and
// the ego's, that hold a scratchpad file for day: the sentinel that says the
// coordinator delegated work that day.
func (l Layout) Delegated(day string) ([]string, error) {
	entries, err := os.ReadDir(l.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var agents []string
	for _, e := range entries {
		if IsReserved(e.Name()) || !isDirEntry(l.Root, e) {
			continue
		}
		file := l.File(e.Name(), day)
		if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && l.Contained(file) == nil {
			agents = append(agents, e.Name())
		}
	}
	return agents, nil
}

// isDirEntry reports whether e is a directory, following a symlink (which
// Contained later checks).
func isDirEntry(parent string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := os.Stat(filepath.Join(parent, e.Name()))
	return err == nil && info.IsDir()
}

// openDir opens a folder to list it: a FIFO put where an agent's folder
// should be is an error at once ("not a directory"), not a hang.
func openDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
}
