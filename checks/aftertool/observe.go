package aftertool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/checks/guard"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/match"
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

func NewObserve(options *yaml.Node) (engine.Builtin, error) {
	var o observeOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
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
	case guard.Within(c, state.DirName):
		return "", fmt.Errorf("folder: %q is inside massgen-hook's runtime directory %s; choose another", f, state.DirName)
	case guard.Within(c, ".git"):
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
	if ft, ok := guard.FileTool(tool); ok && ft.Write {
		if o.workProducts == nil {
			return nil, ""
		}
		return o.workProduct(call, ft.Field, job)
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
	sc := guard.ShellCallOf(call)
	written := p.Str
	if strings.HasPrefix(written, "~/") && sc.Home != "" {
		written = filepath.Join(sc.Home, written[2:])
	}
	// The CLIs' file tools clean a path before they open it: Cleaned is
	// the file written.
	rp := fspath.Resolve(written, sc.Cwd)
	source, ok := sc.Project.Relative(rp.Cleaned, false)
	if !ok {
		if guard.Within(rp.Lexical, sc.Project.Root) {
			return nil, fmt.Sprintf("observe: %s leads outside the project through a symlink (to %s); not saved", sc.Project.Display(rp), rp.Cleaned)
		}
		return nil, fmt.Sprintf("observe: %s is outside the project; not saved", rp.Lexical)
	}
	name := source
	if lexical, ok := guard.RelativeWithin(rp.Lexical, sc.Project.Root); ok {
		name = lexical
	}
	if source == "." || name == "." {
		return nil, ""
	}
	var forms []string
	for _, f := range sc.Project.Forms(rp) {
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
		if guard.Within(f, o.folder) || guard.Within(f, state.DirName) {
			return true
		}
	}
	return matchesGlobs(gitInternals, forms) ||
		(matchesGlobs(guard.DefaultSecretPaths(), forms) && !matchesGlobs(guard.DefaultExcept, forms))
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

// queueObserverJob writes job as an owner-only file in the runtime
// directory (a temporary file renamed into place, so observe-run never
// reads half of one) and starts observe-run on it, detached.
func queueObserverJob(call *engine.Call, job *observerJob) error {
	// Made owner-only in the runtime directory, none of it through a link.
	dir, err := call.State.Ensure(ObserverJobs)
	if err != nil {
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
