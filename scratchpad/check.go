package scratchpad

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Violation kinds.
const (
	KindMissingSections    = "missing_sections"
	KindMissingCoordinator = "missing_coordinator"
	KindUnreadable         = "unreadable"
	KindEscapes            = "escapes_root"
	KindTooLarge           = "too_large"
)

// Violation is one breach of the protocol found by Check.
type Violation struct {
	Kind string `json:"kind"`
	// Path is relative to the project.
	Path  string `json:"path"`
	Agent string `json:"agent,omitempty"`
	Date  string `json:"date,omitempty"`
	// Missing lists absent headings (missing_sections).
	Missing []string `json:"missing,omitempty"`
	// Agents lists who wrote that day (missing_coordinator).
	Agents  []string `json:"agents,omitempty"`
	Message string   `json:"message"`
}

// Report is the result of checking a scratchpad tree.
type Report struct {
	Root         string      `json:"root"`
	Date         string      `json:"date,omitempty"`
	FilesChecked int         `json:"files_checked"`
	Violations   []Violation `json:"violations"`
	// Files holds what was found in each file checked, for reports that
	// show every file (Grid). It is not part of the JSON report.
	Files []FileResult `json:"-"`
}

// FileResult is what Check found in one scratchpad file.
type FileResult struct {
	// Dir is the agent's directory name; Agent is its DisplayName.
	Dir   string
	Agent string
	Date  string
	// Path is relative to the project.
	Path string
	// Missing lists absent headings (subagent files only).
	Missing []string
	// Fault is the violation kind (unreadable, escapes_root) when the file
	// could not be checked.
	Fault string
}

// Check scans every agent directory under the root for scratchpad files (of
// one day, or all days when day is ""). Each subagent file must have the
// required headings; each day with subagent files must have a coordinator
// file. The coordinator's and ego's files are not heading-checked: the
// protocol fixes only the subagents' format.
func (l Layout) Check(day string, required []string) (*Report, error) {
	rep := &Report{Root: l.Rel(l.Root), Date: day, Violations: []Violation{}}
	entries, err := os.ReadDir(l.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return rep, nil
	} else if err != nil {
		return nil, fmt.Errorf("reading scratchpad root: %w", err)
	}
	var files []checkItem
	delegated := map[string][]string{} // day -> subagent display names
	coordinated := map[string]bool{}
	for _, e := range entries {
		if !isDirEntry(l.Root, e) {
			continue
		}
		dir := e.Name()
		dirPath := filepath.Join(l.Root, dir)
		if err := l.Contained(dirPath); err != nil {
			rep.add(l.fault(Violation{Path: l.Rel(dirPath), Agent: DisplayName(dir)}, err))
			continue
		}
		days, err := l.days(dir, day)
		if err != nil {
			rep.add(l.fault(Violation{Path: l.Rel(dirPath), Agent: DisplayName(dir)}, err))
			continue
		}
		for _, d := range days {
			files = append(files, checkItem{dir: dir, day: d, path: l.File(dir, d)})
		}
	}
	results := l.checkFiles(files, required)
	for i, it := range files {
		rep.FilesChecked++
		res := results[i]
		rep.Files = append(rep.Files, FileResult{Dir: it.dir, Agent: DisplayName(it.dir), Date: it.day, Path: l.Rel(it.path), Missing: res.missing})
		switch {
		case res.err != nil:
			v := l.fault(Violation{Path: l.Rel(it.path), Agent: DisplayName(it.dir), Date: it.day}, res.err)
			rep.Files[len(rep.Files)-1].Fault = v.Kind
			rep.add(v)
		case it.dir == CoordinatorDir:
			coordinated[it.day] = true
		case it.dir == EgoDir:
		default:
			delegated[it.day] = append(delegated[it.day], DisplayName(it.dir))
			if len(res.missing) > 0 {
				rep.add(Violation{Kind: KindMissingSections, Path: l.Rel(it.path), Agent: DisplayName(it.dir), Date: it.day,
					Missing: res.missing, Message: "missing sections: " + strings.Join(res.missing, ", ")})
			}
		}
	}
	for d, agents := range delegated {
		if coordinated[d] {
			continue
		}
		sort.Strings(agents)
		rep.add(Violation{Kind: KindMissingCoordinator, Path: l.Rel(l.File(CoordinatorDir, d)), Date: d, Agents: agents,
			Message: fmt.Sprintf("subagent scratchpads (%s) but no coordinator scratchpad", strings.Join(agents, ", "))})
	}
	sort.SliceStable(rep.Violations, func(i, j int) bool {
		a, b := rep.Violations[i], rep.Violations[j]
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		return a.Path < b.Path
	})
	return rep, nil
}

func (r *Report) add(v Violation) { r.Violations = append(r.Violations, v) }

// fault fills in a violation for a path that could not be checked: kind
// escapes_root for a symlink out of the root, too_large for a file over
// MaxFileBytes, unreadable otherwise, with a
// message that names paths relative to the project (CI runners check out in
// different places) and not Go's internal wording.
func (l Layout) fault(v Violation, err error) Violation {
	var escape *EscapeError
	var notFile *NotFileError
	var tooLarge *TooLargeError
	var pathErr *fs.PathError
	v.Kind = KindUnreadable
	switch {
	case errors.As(err, &escape):
		v.Kind = KindEscapes
		v.Message = "resolves to " + l.Rel(escape.Target) + ", outside the scratchpad root"
	case errors.As(err, &tooLarge):
		v.Kind = KindTooLarge
		v.Message = fmt.Sprintf("is too large to check (%s; at most %d MiB is read)", sizeText(tooLarge.Size), MaxFileBytes>>20)
	case errors.As(err, &notFile):
		v.Message = "is " + notFile.What()
	case errors.Is(err, errSymlinkLoop):
		v.Message = "cannot be read: symlink loop"
	case errors.As(err, &pathErr):
		v.Message = "cannot be read: " + pathErr.Err.Error()
	default:
		v.Message = "cannot be read: " + err.Error()
	}
	return v
}

type checkItem struct{ dir, day, path string }

type checkResult struct {
	missing []string
	err     error
}

// days lists the days dir has files for (only want, when set).
func (l Layout) days(dir, want string) ([]string, error) {
	if want != "" {
		_, err := os.Lstat(l.File(dir, want))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return []string{want}, nil // any other problem surfaces when the file is read
	}
	d, err := openDir(filepath.Join(l.Root, dir))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	var days []string
	for _, n := range names {
		if day, ok := DayOf(n); ok {
			days = append(days, day)
		}
	}
	sort.Strings(days)
	return days, nil
}

// checkFiles reads and checks files on every CPU: 100,000 files must take
// seconds, not minutes. Coordinator and ego files are only read (existence
// and readability), not parsed.
func (l Layout) checkFiles(items []checkItem, required []string) []checkResult {
	results := make([]checkResult, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				it := items[i]
				content, err := l.readInCheckedDir(it.path)
				if err != nil {
					results[i].err = err
					continue
				}
				if !IsReserved(it.dir) {
					results[i].missing = MissingSections(content, required)
				}
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// readInCheckedDir reads a file whose directory Contained already accepted:
// only a symlinked file can still leave the root, so only that pays for a
// full resolution.
func (l Layout) readInCheckedDir(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil, err
	case info.Mode()&fs.ModeSymlink != 0:
		return l.ReadFile(path)
	case !info.Mode().IsRegular():
		return nil, &NotFileError{Path: path, Mode: info.Mode()}
	}
	return readRegular(path)
}

// sizeText is a file size for a person: "5.2 MiB".
func sizeText(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
