package checks

import (
	"bytes"
	"context"
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

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/match"
	"github.com/massgen/massgen-hook/redact"
	"github.com/massgen/massgen-hook/state"
)

// observe is seed 003's PostToolUse observers: it keeps the agent's work
// products (files written by Write, Edit, MultiEdit and NotebookEdit) and
// what its search tools returned in a folder of the project, and records
// each in the audit trail. Observers never delay the agent and never reach
// it: the hook only writes a small job file and starts `massgen-hook
// observe-run` detached, which does the copying after the hook has
// answered. Whatever goes wrong is a stderr note (the hook) or an audit
// line (the worker), never a message to the agent.
//
//	options:
//	  folder: .claude/observed          # relative to the project, inside it
//	  work_products: ["**"]             # project-relative globs of files to copy
//	  save_work_products: true
//	  search_tools: "WebSearch|WebFetch|mcp__*[sS]earch*|mcp__*SEARCH*"
//	  save_search_results: true
type observe struct {
	folder       string   // project-relative, slash-separated, clean
	workProducts []string // nil: work products are not saved
	searchTools  match.Matcher
	saveSearch   bool
}

type observeOptions struct {
	Folder            string    `yaml:"folder"`
	WorkProducts      *[]string `yaml:"work_products"`
	SaveWorkProducts  *bool     `yaml:"save_work_products"`
	SearchTools       *string   `yaml:"search_tools"`
	SaveSearchResults *bool     `yaml:"save_search_results"`
}

const (
	defaultObserveFolder = ".claude/observed"
	// defaultSearchTools are Claude Code's web tools and MCP tools that say
	// they search (Composio's COMPOSIO_SEARCH_* among them).
	defaultSearchTools = "WebSearch|WebFetch|mcp__*[sS]earch*|mcp__*SEARCH*"

	// The two kinds of observed output, and their sub-folders of folder.
	kindWorkProduct  = "work_product"
	kindSearchResult = "search_result"
	workProductsDir  = "work_products"
	searchResultsDir = "search_results"

	// ObserverJobs is where the hook leaves job files for observe-run,
	// relative to the runtime directory.
	ObserverJobs = "observers/jobs"
)

func newObserve(options *yaml.Node) (engine.Builtin, error) {
	var o observeOptions
	if err := decodeOptions(options, &o); err != nil {
		return nil, err
	}
	folder, err := observeFolder(o.Folder)
	if err != nil {
		return nil, err
	}
	ob := &observe{folder: folder, saveSearch: o.SaveSearchResults == nil || *o.SaveSearchResults}
	if o.SaveWorkProducts == nil || *o.SaveWorkProducts {
		ob.workProducts = []string{"**"}
		if o.WorkProducts != nil {
			ob.workProducts = *o.WorkProducts
		}
		if len(ob.workProducts) == 0 {
			return nil, errors.New("work_products: empty list; to save no work products, set save_work_products: false")
		}
		for _, p := range ob.workProducts {
			if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "../") || !doublestar.ValidatePattern(p) {
				return nil, fmt.Errorf("work_products: %q is not a valid glob relative to the project (like \"reports/**\" or \"**/*.md\")", p)
			}
		}
	}
	tools := defaultSearchTools
	if o.SearchTools != nil {
		tools = *o.SearchTools
	}
	if tools == "" {
		return nil, errors.New(`search_tools: empty; write "*" to save every tool's output, or set save_search_results: false`)
	}
	if ob.searchTools, err = match.Compile(tools); err != nil {
		return nil, fmt.Errorf("search_tools: %v", err)
	}
	if ob.workProducts == nil && !ob.saveSearch {
		return nil, errors.New("save_work_products and save_search_results are both false: nothing to observe (remove the rule, or set enabled: false)")
	}
	return ob, nil
}

// observeFolder checks the folder option: a folder inside the project,
// given relative to it (the project is not known until a call comes), and
// neither massgen-hook's runtime directory nor git's.
func observeFolder(f string) (string, error) {
	if f == "" {
		return defaultObserveFolder, nil
	}
	if filepath.IsAbs(f) || strings.HasPrefix(f, "~") {
		return "", fmt.Errorf("folder: %q must be relative to the project (like %q)", f, defaultObserveFolder)
	}
	c := path.Clean(filepath.ToSlash(f))
	switch {
	case !filepath.IsLocal(c):
		return "", fmt.Errorf("folder: %q leaves the project; give a folder inside it", f)
	case c == ".":
		return "", fmt.Errorf("folder: %q is the project root; give a folder inside it (like %q)", f, defaultObserveFolder)
	case within(c, state.DirName):
		return "", fmt.Errorf("folder: %q is inside massgen-hook's runtime directory %s; choose another", f, state.DirName)
	case within(c, ".git"):
		return "", fmt.Errorf("folder: %q is inside .git; choose another", f)
	}
	return c, nil
}

// observerJob is one piece of work for observe-run: what to save, and the
// call it came from, for the audit trail.
type observerJob struct {
	Kind   string `json:"kind"`
	Folder string `json:"folder"`
	// Time is when the tool call finished (the hook's clock), RFC 3339.
	Time      string `json:"time"`
	Session   string `json:"session_id,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Tool      string `json:"tool"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	// A work product's Source is the file with its symlinks resolved,
	// relative to the project's resolved root: what is read. Name is the
	// path as the agent named it, relative to the project: where the copy
	// goes under work_products/.
	Source string `json:"source,omitempty"`
	Name   string `json:"name,omitempty"`
	// A search result's call and response, as Claude Code sent them.
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
}

// Check queues the call's work product or search result, if it has one
// this rule observes. It always gives no opinion: a failure is a note on
// stderr, never a warning the agent or the user sees.
func (o *observe) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	if call.Detach == nil || call.State == nil {
		return engine.Verdict{}, nil // explain's dry run: start nothing, write nothing
	}
	job, note := o.job(call)
	if job == nil {
		return observeNote(note), nil
	}
	if err := queueObserverJob(call, job); err != nil {
		return observeNote(fmt.Sprintf("observe: %v; the %s of %s is not saved", err, strings.ReplaceAll(job.Kind, "_", " "), job.Tool)), nil
	}
	return engine.Verdict{}, nil
}

// observeNote is no opinion with note (if any) for stderr.
func observeNote(note string) engine.Verdict {
	if note == "" {
		return engine.Verdict{}
	}
	return engine.Verdict{Notes: []string{note}}
}

// job is the work call gives this rule, nil if none; the note says why a
// path was passed over when that is worth knowing.
func (o *observe) job(call *engine.Call) (*observerJob, string) {
	tool := call.Event.ToolName
	job := &observerJob{Folder: o.folder, Time: call.Now.UTC().Format(time.RFC3339Nano),
		Session: call.Event.SessionID, Agent: call.Agent, Tool: tool, ToolUseID: call.Event.ToolUseID}
	if ft, ok := fileTools[tool]; ok && ft.write {
		if o.workProducts == nil {
			return nil, ""
		}
		return o.workProduct(call, ft.field, job)
	}
	out := bytes.TrimSpace(call.ToolOutput)
	if !o.saveSearch || !o.searchTools.Match(tool) || len(out) == 0 || string(out) == "null" {
		return nil, ""
	}
	job.Kind, job.ToolInput, job.ToolResponse = kindSearchResult, call.ToolInput, out
	return job, ""
}

// workProduct fills job with the file a writing tool named, when it is in
// the project and work_products selects it. Symlinks are followed: a link
// in the project that leads out of it is not copied.
func (o *observe) workProduct(call *engine.Call, field string, job *observerJob) (*observerJob, string) {
	p := gjson.GetBytes(call.ToolInput, field)
	if p.Type != gjson.String || p.Str == "" {
		return nil, ""
	}
	sc := shellCallOf(call)
	written := p.Str
	if strings.HasPrefix(written, "~/") && sc.home != "" {
		written = filepath.Join(sc.home, written[2:])
	}
	rp := resolve(written, sc.cwd)
	source, ok := sc.project.projectRelative(rp.real)
	if !ok {
		if within(rp.lexical, sc.project.root) {
			return nil, fmt.Sprintf("observe: %s leads outside the project through a symlink (to %s); not saved", sc.project.display(rp), rp.real)
		}
		return nil, fmt.Sprintf("observe: %s is outside the project; not saved", rp.lexical)
	}
	name := source
	if lexical, ok := relativeWithin(rp.lexical, sc.project.root); ok {
		name = lexical
	}
	if source == "." || name == "." {
		return nil, ""
	}
	var forms []string
	for _, f := range sc.project.forms(rp) {
		if !filepath.IsAbs(f) {
			forms = append(forms, f)
		}
	}
	if o.excluded(forms) || !matchesGlobs(o.workProducts, forms) {
		return nil, ""
	}
	job.Kind, job.Source, job.Name = kindWorkProduct, source, name
	return job, ""
}

// excluded reports the paths never copied, whatever work_products says:
// the observed folder itself (a copy of a copy), massgen-hook's runtime
// directory, git's internals, and secrets (a copy of .env is one more
// place for it to leak from).
func (o *observe) excluded(forms []string) bool {
	for _, f := range forms {
		if within(f, o.folder) || within(f, state.DirName) {
			return true
		}
	}
	return matchesGlobs(gitInternals, forms) ||
		(matchesGlobs(defaultSecretPaths, forms) && !matchesGlobs(defaultExcept, forms))
}

var gitInternals = []string{"**/.git", "**/.git/**"}

// matchesGlobs reports whether any of the doublestar patterns matches any
// of the paths.
func matchesGlobs(patterns, paths []string) bool {
	for _, pat := range patterns {
		for _, p := range paths {
			if ok, _ := doublestar.Match(pat, p); ok {
				return true
			}
		}
	}
	return false
}

// projectRelative is real (a path with its symlinks resolved) relative to
// the project, slash-separated; false when it is outside.
func (pr project) projectRelative(real string) (string, bool) {
	if rel, ok := relativeWithin(real, pr.real); ok {
		return rel, true
	}
	return relativeWithin(real, pr.root)
}

// relativeWithin is p relative to root, slash-separated; false when p is
// not inside root.
func relativeWithin(p, root string) (string, bool) {
	if !within(p, root) {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// queueObserverJob writes job as an owner-only file in the runtime
// directory (a temporary file renamed into place, so observe-run never
// reads half of one) and starts observe-run on it, detached.
func queueObserverJob(call *engine.Call, job *observerJob) error {
	dir := filepath.Join(call.State.Path, filepath.FromSlash(ObserverJobs))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the job folder: %w", err)
	}
	body, err := job.encode()
	if err != nil {
		return fmt.Errorf("encoding the job: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "job-*.json.tmp")
	if err != nil {
		return fmt.Errorf("writing a job file in %s: %w", dir, err)
	}
	_, werr := tmp.Write(body)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	jobFile := strings.TrimSuffix(tmp.Name(), ".tmp")
	if werr == nil {
		werr = os.Rename(tmp.Name(), jobFile)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing job file %s: %w", jobFile, werr)
	}
	if err := call.Detach("--project-dir", call.Project, "observe-run", jobFile); err != nil {
		_ = os.Remove(jobFile) // nobody will run it
		return fmt.Errorf("could not start observe-run: %w", err)
	}
	return nil
}

// encode is the job as JSON. The tool response is spliced in as it came
// rather than re-encoded: it is valid JSON (the event parsed) and may be
// megabytes, which the hook must not spend time on.
func (j *observerJob) encode() ([]byte, error) {
	head := *j
	head.ToolResponse = nil
	b, err := json.Marshal(head)
	if err != nil || len(j.ToolResponse) == 0 {
		return b, err
	}
	out := make([]byte, 0, len(b)+len(j.ToolResponse)+20)
	out = append(out, b[:len(b)-1]...)
	out = append(out, `,"tool_response":`...)
	out = append(out, j.ToolResponse...)
	return append(out, '}'), nil
}

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
	if resolveSymlinks(filepath.Dir(abs)) != resolveSymlinks(dir) || !strings.HasPrefix(base, "job-") || !strings.HasSuffix(base, ".json") {
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
	body, err := root.ReadFile(base)
	if err != nil {
		return nil, remove, fmt.Errorf("reading job file %s: %w", abs, err)
	}
	job = &observerJob{}
	if err := json.Unmarshal(body, job); err != nil {
		return nil, remove, fmt.Errorf("job file %s is not a job: %v", abs, err)
	}
	return job, remove, job.validate()
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
