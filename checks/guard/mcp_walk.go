package guard

import (
	"fmt"
	"net/url"
	"os/user"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/engine"
)

// An MCP tool that is not in the table of well-known tools is still
// looked at: its arguments are walked, and every string that leads (as
// the kernel resolves it, from the call's working directory) to a
// protected path stops the call, as a read of a file that is there, or
// as a write when the tool's name says it writes. A string is also taken
// as a server may take it before it opens it (see pathsIn). The walk is
// bounded, so that a huge argument costs little: it goes walkDepth levels
// into objects and lists and looks at walkStrings different strings.
// Arguments past a bound are denied: what was not looked at could be the
// one path that matters, and an agent can pad its arguments at will. It
// cannot see a path built from parts, encoded other than as a file://
// URL, or named relative to a folder other than the call's working
// directory (the server's own), nor what a command or a URL the tool
// takes would do: a tool that runs commands belongs in the table.
const (
	walkDepth   = 64
	walkStrings = 10000
	walkLongest = 4096 // PATH_MAX
)

// A tool that is not in the table writes, as far as the guards can tell,
// unless its name says it only reads: a word of readWords and none of
// writeWords (words split at _, -, . and a change to upper case: get_file,
// readFile). A server names its tools, the agent only calls them, and a
// tool that writes under another verb (update_file, patch, put) must not
// pass as a read.
var (
	readWords = []string{"get", "read", "list", "ls", "search", "find", "fetch", "view", "show", "query", "lookup", "look",
		"describe", "stat", "info", "inspect", "count", "grep", "cat", "head", "tail", "tree", "browse", "open", "compare",
		"diff", "check", "validate", "explain", "summarize", "analyze", "lint", "preview", "print", "display", "load", "scan",
		"peek", "glob", "match", "exists", "resolve", "navigate", "screenshot", "snapshot", "status", "log", "history"}
	writeWords = []string{"write", "edit", "create", "move", "copy", "delete", "remove", "save", "append", "rename", "replace",
		"update", "patch", "apply", "put", "insert", "set", "store", "upload", "download", "mkdir", "touch", "link", "symlink",
		"extract", "unzip", "untar", "clone", "init", "overwrite", "truncate", "chmod", "chown", "modify", "change", "add",
		"install", "commit", "push", "restore", "reset", "import", "export", "generate", "format", "fix", "convert",
		"transform", "sync", "merge", "upsert", "run", "exec", "execute", "rm", "mv", "cp", "del", "erase", "clear", "drop"}
)

// toolWrites reports whether a tool the table does not know is judged as
// writing, by the words of its name (see readWords).
func toolWrites(name string) bool {
	reads := false
	for _, w := range nameWords(bareToolName(name)) {
		if slices.Contains(writeWords, w) {
			return true
		}
		reads = reads || slices.Contains(readWords, w)
	}
	return !reads
}

// nameWords splits a tool's name into lower-case words: at _, -, . and
// spaces, and where a lower-case letter or digit meets an upper-case one.
func nameWords(name string) []string {
	var words []string
	start := 0
	for i, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			words = append(words, name[start:i])
			start = i + 1
		case unicode.IsUpper(r) && i > start:
			if prev := rune(name[i-1]); unicode.IsLower(prev) || unicode.IsDigit(prev) {
				words = append(words, name[start:i])
				start = i
			}
		}
	}
	words = append(words, name[start:])
	out := words[:0]
	for _, w := range words {
		if w != "" {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// unknownTool judges the arguments of an MCP tool the table does not
// know, and of any tool of a MassGen event (MassGen's agents act through
// such tools only). Any other tool is left alone: the CLIs' own tools are
// judged by their names.
func (g *guard) unknownTool(call *engine.Call) engine.Verdict {
	name := call.Event.ToolName
	if !isMCPName(name) && !call.Event.FromMassGen {
		return engine.Verdict{}
	}
	return g.walkArgs(name, gjson.ParseBytes(call.ToolInput), toolWrites(name), nil)
}

// walkArgs judges every path the strings of args may name (see
// walkStringArgs), leaving out the top-level arguments named in skip (a
// table row's, judged by their roles). A path is judged as written when
// the tool writes, or when the top-level argument it is in is named as
// where output goes (save_to, output_path, destination).
func (g *guard) walkArgs(name string, args gjson.Result, write bool, skip map[string]string) engine.Verdict {
	w := newArgWalk()
	if args.IsObject() {
		args.ForEach(func(k, v gjson.Result) bool {
			if _, named := skip[k.Str]; !named {
				w.str(k.Str, write)
				w.value(v, 1, write || argWrites(k.Str))
			}
			return !w.past
		})
	} else {
		w.value(args, 0, write)
	}
	if w.past {
		return engine.Verdict{Decision: engine.Deny,
			Reason: fmt.Sprintf("⚠️ BLOCKED: the arguments of %s are too large to check for protected paths (more than %d levels of objects and lists, or more than %d different strings). "+
				"Pass fewer or flatter arguments, split the work over several calls, or ask the user to run it.", quoteCut(name, 80), walkDepth, walkStrings),
			SystemMessage: fmt.Sprintf("massgen-hook: blocked %s: its arguments are too large to check.", quoteCut(name, 80))}
	}
	users := map[string]string{}
	for _, c := range w.paths {
		for _, p := range g.homeForms(c.path, users) {
			// A string may be no path at all (a search term "id_rsa", a
			// pattern "*.pem", a title "Renew server.key"): a read is
			// judged only when the file is there to be read; a write,
			// which may create it, always, unless the string reads as
			// prose or a URL, which must name a file that is there.
			if (!c.write || c.mustExist) && !g.exists(p) {
				continue
			}
			// Only a protected path counts: a string outside the project
			// may be no path at all, so it is not judged as a write there.
			if f := g.judge(p, g.Cwd, c.write, true); f != nil && f.pattern != "" {
				return g.verdict(f)
			}
		}
	}
	return engine.Verdict{Notes: g.notes}
}

// outputWords name an argument that says where output goes.
var outputWords = []string{"output", "out", "dest", "destination", "target", "to", "save", "saveto"}

// argWrites reports whether an argument's name says the tool writes
// there: a word of outputWords or writeWords.
func argWrites(name string) bool {
	for _, w := range nameWords(name) {
		if slices.Contains(outputWords, w) || slices.Contains(writeWords, w) {
			return true
		}
	}
	return false
}

// homeForms is p, and p with a home named as a server may expand it:
// ~user/ (Python's expanduser), $HOME/ and ${HOME}/ (expandvars). ~/ is
// the guards' own (judge). users caches the homes looked up.
func (g *guard) homeForms(p string, users map[string]string) []string {
	for _, v := range []string{"$HOME/", "${HOME}/"} {
		if rest, ok := strings.CutPrefix(p, v); ok && g.Home != "" {
			return []string{p, filepath.Join(g.Home, rest)}
		}
	}
	if !strings.HasPrefix(p, "~") || strings.HasPrefix(p, "~/") {
		return []string{p}
	}
	name, rest, _ := strings.Cut(p[1:], "/")
	home, seen := users[name]
	if !seen {
		if u, err := user.Lookup(name); err == nil {
			home = u.HomeDir
		}
		users[name] = home
	}
	if home == "" {
		return []string{p}
	}
	return []string{p, filepath.Join(home, rest)}
}

// An argPath is a path a string may name; mustExist says it is judged
// only when it names a file that is there, even as a write (the string
// reads as prose, or as a URL); write, that it is judged as written.
type argPath struct {
	path      string
	mustExist bool
	write     bool
}

// An argWalk gathers the paths the strings of a tool's arguments may
// name (see pathsIn), each once, in order, objects' keys too ({path:
// content} maps are common). past says the arguments go beyond its
// bounds: walkDepth levels, walkStrings different strings.
type argWalk struct {
	seen  map[string]bool
	added map[argPath]bool
	paths []argPath
	past  bool
}

func newArgWalk() *argWalk {
	return &argWalk{seen: map[string]bool{}, added: map[argPath]bool{}}
}

func (w *argWalk) str(s string, write bool) {
	if !w.seen[s] {
		if w.seen[s] = true; len(w.seen) > walkStrings {
			w.past = true
			return
		}
	}
	for _, c := range pathsIn(s) {
		if c.write = write; !w.added[c] {
			w.added[c] = true
			w.paths = append(w.paths, c)
		}
	}
}

func (w *argWalk) value(v gjson.Result, depth int, write bool) {
	switch {
	case v.Type == gjson.String:
		w.str(v.Str, write)
	case v.IsObject() || v.IsArray():
		if depth >= walkDepth {
			w.past = true
			return
		}
		object := v.IsObject()
		v.ForEach(func(k, e gjson.Result) bool {
			if object {
				w.str(k.Str, write)
			}
			w.value(e, depth+1, write)
			return !w.past
		})
	}
}

// walkStringArgs is the paths the strings of v may name, as a tool that
// only reads takes them, and whether v goes past the walk's bounds.
func walkStringArgs(v gjson.Result) (paths []argPath, past bool) {
	w := newArgWalk()
	w.value(v, 0, false)
	return w.paths, w.past
}

// pathsIn returns the paths a server may open for s: s itself, and what
// a server may make of it first: the path of a file: URL as a browser
// engine parses it (whatwgFilePath) or as a server that cuts file://
// off takes it; s without the spaces and control characters around it
// (JavaScript's trim, Python's strip); s up to a NUL (where a C string
// ends); s cleaned of extra slashes, . and .. (Node's path.resolve,
// Python's normpath), which also brings a string longer than PATH_MAX to
// the path it names. A string with a line break inside is no path. A URL
// of another scheme, and a string with spaces inside, is judged only as
// a file that is there: a link named "https:" makes "https://x" a path.
func pathsIn(s string) []argPath {
	var out []argPath
	add := func(p string, mustExist bool) {
		if p == "" || strings.ContainsAny(p, "\n\x00") {
			return
		}
		if len(p) > walkLongest {
			if p = filepath.Clean(p); len(p) > walkLongest {
				return
			}
		}
		c := argPath{path: p, mustExist: mustExist || strings.ContainsFunc(p, unicode.IsSpace)}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	trimmed := strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r < ' ' || r == '\ufeff' })
	for _, c := range []string{s, trimmed, strings.SplitN(s, "\x00", 2)[0], strings.SplitN(trimmed, "\x00", 2)[0]} {
		scheme, rest, _ := strings.Cut(c, ":")
		switch {
		case strings.EqualFold(scheme, "file"):
			add(c, true)
			if len(c) > len("file://") && strings.EqualFold(c[:len("file://")], "file://") {
				add(c[len("file://"):], false) // a server that cuts the scheme off
			}
			if p := whatwgFilePath(rest); p != "/" {
				add(p, false)
			}
		case isScheme(scheme) && strings.HasPrefix(rest, "//"):
			add(c, true)
		default:
			add(c, false)
			if !strings.ContainsAny(c, "\n\x00") {
				add(filepath.Clean(c), false)
			}
		}
	}
	return out
}

// whatwgFilePath is the path of the file: URL whose text after "file:"
// is rest, as the URL standard (Node's URL, fileURLToPath; browsers)
// parses it: tabs and line breaks dropped, \ as /, a host (any: Python's
// urlparse ignores it too) and what follows ? or # left out, escapes
// undone, . and .. resolved.
func whatwgFilePath(rest string) string {
	rest = strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\r', '\n':
			return -1
		case '\\':
			return '/'
		}
		return r
	}, rest)
	rest = strings.TrimRightFunc(rest, func(r rune) bool { return r <= ' ' })
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		_, abs, _ := strings.Cut(after, "/")
		rest = "/" + abs
	}
	if p, err := url.PathUnescape(rest); err == nil {
		rest = p
	}
	return path.Clean("/" + rest)
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, +, - and .).
func isScheme(s string) bool {
	for i, c := range s {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// exists reports whether p, from the call's working directory, with ~ as
// the home directory, is there (links followed).
func (g *guard) exists(p string) bool {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && g.Home != "" {
		p = filepath.Join(g.Home, rest)
	} else if !filepath.IsAbs(p) {
		p = filepath.Join(g.Cwd, p)
	}
	return pathExists(p, false)
}
