package aftertool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/state"
)

// The observer's worker: what observe-run does with one job, in a process
// of its own after the hook has answered.

// observerRecord is the worker's line in the audit trail.
type observerRecord struct {
	Time      string `json:"time"`
	Event     string `json:"event"`
	Session   string `json:"session_id,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Source    string `json:"source,omitempty"`
	// Outcome is saved, skipped (nothing to save: the file is gone, a
	// newer copy is there) or failed.
	Outcome string `json:"outcome"`
	Saved   string `json:"saved,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Error   string `json:"error,omitempty"`
}

// RunObserverJob is observe-run: it does the work of one job file of the
// project's runtime directory st, records the outcome in the audit trail
// and deletes the job. now stamps the audit line. The error says what went
// wrong for whoever ran it by hand; the audit line says it too.
func RunObserverJob(st *state.Dir, project, jobFile string, now time.Time) (err error) {
	rec := observerRecord{Time: now.UTC().Format(time.RFC3339Nano), Event: "observer", Outcome: "failed"}
	defer func() {
		// A worker that panics must still leave its line: nobody else
		// will ever hear of it.
		if p := recover(); p != nil {
			err = fmt.Errorf("observe-run panicked: %v", p)
			rec.Outcome, rec.Saved, rec.Error = "failed", "", err.Error()
			_ = st.Audit(rec)
		}
	}()
	job, remove, err := readObserverJob(st, jobFile)
	if job != nil {
		rec.Session, rec.Agent, rec.Tool, rec.ToolUseID, rec.Kind, rec.Source =
			job.Session, job.Agent, job.Tool, job.ToolUseID, job.Kind, job.Name
	}
	if err == nil {
		rec.Saved, rec.Reason, err = job.run(project, now)
	}
	switch {
	case err != nil:
		rec.Error = redact.String(err.Error())
	case rec.Saved != "":
		rec.Outcome = "saved"
	default:
		rec.Outcome = "skipped"
	}
	if aerr := st.Audit(rec); aerr != nil && err == nil {
		err = fmt.Errorf("could not append to the audit trail: %w", aerr)
	}
	// Last, so that whoever waits for the job to go knows its line is written.
	if remove != nil {
		if rerr := remove(); rerr != nil && err == nil {
			err = fmt.Errorf("removing the job file: %w", rerr)
		}
	}
	return err
}

// readObserverJob reads a job file, which must be a regular file directly
// in the runtime directory's job folder: observe-run does what a job says,
// so it takes jobs only from where the hook writes them. remove deletes the
// job; nil for a path that is not the hook's to delete.
func readObserverJob(st *state.Dir, jobFile string) (job *observerJob, remove func() error, err error) {
	dir := filepath.Join(st.Path, filepath.FromSlash(ObserverJobs))
	abs, err := filepath.Abs(jobFile)
	if err != nil {
		return nil, nil, fmt.Errorf("job file %s: %w", jobFile, err)
	}
	base := filepath.Base(abs)
	if fspath.Real(filepath.Dir(abs)) != fspath.Real(dir) || !strings.HasPrefix(base, "job-") || !strings.HasSuffix(base, ".json") {
		return nil, nil, fmt.Errorf("job file %s is not a job-*.json in %s; refused", jobFile, dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the job folder: %w", err)
	}
	defer root.Close()
	info, err := root.Lstat(base)
	if err != nil {
		return nil, nil, fmt.Errorf("job file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("job file %s is not a regular file; refused", abs)
	}
	remove = func() error { return os.Remove(abs) }
	body, err := readJob(root, base)
	if err != nil {
		return nil, remove, fmt.Errorf("reading job file %s: %w", abs, err)
	}
	job = &observerJob{}
	if err := json.Unmarshal(body, job); err != nil {
		return nil, remove, fmt.Errorf("job file %s is not a job: %v", abs, err)
	}
	return job, remove, job.validate()
}

// maxJobBytes bounds a job file: a search result's response, at most what
// a hook was given.
const maxJobBytes = 256 << 20

// readJob reads the job file name in root: a regular file (a FIFO swapped
// in after the Lstat must not hang the worker), at most maxJobBytes.
func readJob(root *os.Root, name string) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, errors.New("not a regular file")
	case info.Size() > maxJobBytes:
		return nil, fmt.Errorf("too large (over %d MiB)", maxJobBytes>>20)
	}
	return io.ReadAll(io.LimitReader(f, maxJobBytes))
}

// validate checks a job as the hook writes it: every path in it stays
// inside the project.
func (j *observerJob) validate() error {
	if _, err := observeFolder(j.Folder); err != nil || j.Folder == "" {
		return fmt.Errorf("job: bad folder %q", j.Folder)
	}
	switch j.Kind {
	case kindWorkProduct:
		for _, p := range []string{j.Source, j.Name} {
			if !filepath.IsLocal(filepath.FromSlash(p)) || p == "." {
				return fmt.Errorf("job: path %q is not inside the project; refused", p)
			}
		}
	case kindSearchResult:
		if len(j.ToolResponse) == 0 {
			return errors.New("job: search result without a tool_response")
		}
	default:
		return fmt.Errorf("job: unknown kind %q", j.Kind)
	}
	return nil
}

// run does the job in project and returns where the output was saved
// (relative to the project), or why nothing was.
func (j *observerJob) run(project string, now time.Time) (saved, skipped string, err error) {
	// os.Root keeps every write below inside the project; the folders the
	// copy goes to must also be real ones, not links to elsewhere in it
	// (.git/hooks): made here from the project down, none through a link.
	destDir := searchResultsDir
	if j.Kind == kindWorkProduct {
		destDir = path.Dir(path.Join(workProductsDir, j.Name))
	}
	made, err := hookfs.OpenDir(project, path.Join(j.Folder, destDir), true, 0o700)
	if err != nil {
		return "", "", fmt.Errorf("creating the folder %s: %w", j.Folder, err)
	}
	made.Close()
	proj, err := os.OpenRoot(project)
	if err != nil {
		return "", "", fmt.Errorf("opening the project: %w", err)
	}
	defer proj.Close()
	folder, err := openObservedFolder(proj, j.Folder)
	if err != nil {
		return "", "", err
	}
	defer folder.Close()
	var dest string
	if j.Kind == kindWorkProduct {
		dest, skipped, err = j.copyWorkProduct(proj, folder)
	} else {
		dest, err = j.saveSearchResult(folder, now)
	}
	if dest == "" {
		return "", skipped, err
	}
	return path.Join(j.Folder, dest), "", err
}

// openObservedFolder creates the folder (owner-only, with a .gitignore
// unless it has one: copies of anything the agent wrote or read are not for
// committing by accident) and opens it as a root, so no name inside it and
// no symlink on the way leads out of it or out of the project.
func openObservedFolder(proj *os.Root, folder string) (*os.Root, error) {
	if err := proj.MkdirAll(folder, 0o700); err != nil {
		return nil, fmt.Errorf("creating the folder %s: %w", folder, err)
	}
	root, err := proj.OpenRoot(folder)
	if err != nil {
		return nil, fmt.Errorf("opening the folder %s: %w", folder, err)
	}
	f, err := root.OpenFile(".gitignore", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.WriteString("# massgen-hook's observers: copies of work products and search results. Replace this file to commit them.\n*\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		root.Close()
		return nil, fmt.Errorf("writing %s/.gitignore: %w", folder, err)
	}
	return root, nil
}

// copyWorkProduct copies the file as it is now to work_products/<name>,
// replacing an older copy. Its modification time goes with it, so that of
// two workers racing for one file the one holding the older content does
// not overwrite the newer copy.
func (j *observerJob) copyWorkProduct(proj, folder *os.Root) (dest, skipped string, err error) {
	// O_NONBLOCK: a FIFO put in the file's place must not hang the worker.
	src, err := proj.OpenFile(filepath.FromSlash(j.Source), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "the file no longer exists", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("opening %s: %w", j.Source, err)
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", j.Source, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Sprintf("%s is no longer a regular file", j.Source), nil
	}
	if !reachedWithoutLinks(proj, j.Source, info) {
		return "", fmt.Sprintf("%s changed since the hook judged it (a symlink is now on its way)", j.Source), nil
	}
	dest = path.Join(workProductsDir, j.Name)
	tmp, err := writeObservedTemp(folder, dest, func(w io.Writer) error { _, err := io.Copy(w, src); return err })
	if err != nil {
		return "", "", err
	}
	defer func() { _ = folder.Remove(tmp) }() // gone already once renamed
	mtime := info.ModTime()
	if err := folder.Chtimes(tmp, mtime, mtime); err != nil {
		return "", "", fmt.Errorf("dating the copy of %s: %w", j.Source, err)
	}
	if old, err := folder.Lstat(dest); err == nil && old.ModTime().After(mtime) {
		return "", "a newer copy is already saved", nil
	}
	if err := folder.Rename(tmp, dest); err != nil {
		return "", "", fmt.Errorf("saving the copy of %s: %w", j.Source, err)
	}
	return dest, "", nil
}

// searchResult is a saved search: the call and what the agent got back.
type searchResult struct {
	Time         string          `json:"time"`
	Session      string          `json:"session_id,omitempty"`
	Agent        string          `json:"agent,omitempty"`
	Tool         string          `json:"tool"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response"`
}

// saveSearchResult saves the response as search_results/<UTC time>-<tool>.json,
// never over an earlier one: a name already taken gets -2, -3, ...
func (j *observerJob) saveSearchResult(folder *os.Root, now time.Time) (string, error) {
	body, err := json.MarshalIndent(searchResult{Time: j.Time, Session: j.Session, Agent: j.Agent,
		Tool: j.Tool, ToolUseID: j.ToolUseID, ToolInput: j.ToolInput, ToolResponse: j.ToolResponse}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding the search result: %w", err)
	}
	t, err := time.Parse(time.RFC3339Nano, j.Time)
	if err != nil {
		t = now
	}
	stem := path.Join(searchResultsDir, t.UTC().Format("20060102T150405.000Z")+"-"+fileSafeName(j.Tool))
	tmp, err := writeObservedTemp(folder, stem+".json", func(w io.Writer) error { _, err := w.Write(append(body, '\n')); return err })
	if err != nil {
		return "", err
	}
	defer func() { _ = folder.Remove(tmp) }()
	for i := 1; i <= 1000; i++ {
		dest := stem + ".json"
		if i > 1 {
			dest = fmt.Sprintf("%s-%d.json", stem, i)
		}
		// A hard link takes the name only if it is free, and the file
		// appears whole.
		err := folder.Link(tmp, dest)
		if err == nil {
			return dest, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("saving %s: %w", dest, err)
		}
	}
	return "", fmt.Errorf("saving %s.json: 1000 results of that name already", stem)
}

// writeObservedTemp creates the directory of dest and a new owner-only
// temporary file beside it, fills it with write, and returns its name.
func writeObservedTemp(folder *os.Root, dest string, write func(io.Writer) error) (string, error) {
	dir := path.Dir(dest)
	if err := folder.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	var f *os.File
	var name string
	var err error
	for range 10 {
		name = path.Join(dir, fmt.Sprintf(".%s.%016x.tmp", path.Base(dest), rand.Uint64()))
		if f, err = folder.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("creating a temporary file in %s: %w", dir, err)
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = folder.Remove(name)
		return "", fmt.Errorf("writing %s: %w", dest, werr)
	}
	return name, nil
}

// fileSafeName is a tool name fit for a file name: letters, digits, _, - and .
// kept, anything else replaced by _, at most 100 bytes.
func fileSafeName(name string) string {
	b := []byte(name)
	if len(b) > 100 {
		b = b[:100]
	}
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "tool"
	}
	return string(b)
}

// reachedWithoutLinks reports whether the file opened (opened) is the one
// at source, reached with no symlink on the way, checked after the open.
// The hook resolved source's symlinks before queueing it, so a symlink
// found now was put there since: by a background job of the agent's, say,
// pointing the worker (which runs unconfined) at a secret the sandbox
// hides, for its copy to land in the observed folder.
func reachedWithoutLinks(proj *os.Root, source string, opened os.FileInfo) bool {
	parts := strings.Split(source, "/")
	for i := range parts {
		info, err := proj.Lstat(filepath.FromSlash(strings.Join(parts[:i+1], "/")))
		if err != nil || info.Mode()&fs.ModeSymlink != 0 {
			return false
		}
		if i == len(parts)-1 {
			return os.SameFile(info, opened)
		}
	}
	return false
}
