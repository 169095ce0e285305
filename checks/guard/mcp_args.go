package guard

import (
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"
)

// A pathArg is a path a string of a tool's arguments may name. mustExist
// says it is judged only when it names a file that is there, even as a
// write (the string reads as prose, a bare word, or a URL); write, that
// it is judged as written.
type pathArg struct {
	path      string
	mustExist bool
	write     bool
}

// An argWalk gathers the paths the strings of a tool's arguments may
// name (see pathsIn), each once, in order: values, objects' keys ({path:
// content} maps are common), and JSON text inside a string (FastMCP
// decodes a list or an object passed as text). What an argument's name
// says of it (kindOfArg) holds for everything below it. past says the
// arguments go beyond the walk's bounds: walkDepth levels, walkStrings
// different strings.
type argWalk struct {
	verb   toolVerb
	remote bool              // a remote service's tool (remoteServer)
	skip   map[string]string // top-level arguments left out (a table row's, judged by their roles)
	seen   map[string]bool
	added  map[pathArg]bool
	paths  []pathArg
	past   bool
}

func newArgWalk(verb toolVerb, remote bool) *argWalk {
	return &argWalk{verb: verb, remote: remote, seen: map[string]bool{}, added: map[pathArg]bool{}}
}

// kindOf is what the argument named key holds: kindOfArg, save that a
// remote service's path is a file in a remote repository (argRemote).
func (w *argWalk) kindOf(key string) argKind {
	if w.remote && slices.Contains(remotePathWords, strings.ToLower(key)) {
		return argRemote
	}
	return kindOfArg(key)
}

// str takes the string s, found below an argument of kind.
func (w *argWalk) str(s string, depth int, kind argKind) {
	if kind == argFree || kind == argRemote && !filepath.IsAbs(s) && !strings.HasPrefix(s, "~") {
		return
	}
	if !w.seen[s] {
		if w.seen[s] = true; len(w.seen) > walkStrings {
			w.past = true
			return
		}
	}
	if t := strings.TrimSpace(s); len(t) > 1 && (t[0] == '[' || t[0] == '{') && gjson.Valid(t) {
		w.value(gjson.Parse(t), depth+1, kind)
	}
	// Judged as written: anything a tool that writes is given, what an
	// argument named for output holds, and the paths a tool that may
	// write is given in arguments named for paths.
	write := w.verb == verbWrites || kind == argOutput || w.verb == verbUnknown && kind == argPath
	named := kind == argPath || kind == argOutput || kind == argRemote
	for _, c := range pathsIn(s, named) {
		// A bare word (no /, not .name or ~) is a file's name only
		// in an argument named for paths, or when the file is there.
		if write && !named && bareWord(c.path) {
			c.mustExist = true
		}
		if c.write = write; !w.added[c] {
			w.added[c] = true
			w.paths = append(w.paths, c)
		}
	}
}

// value takes v, found depth levels down, below an argument of kind.
func (w *argWalk) value(v gjson.Result, depth int, kind argKind) {
	switch {
	case w.past:
	case v.Type == gjson.String:
		w.str(v.Str, depth, kind)
	case v.IsObject() || v.IsArray():
		if depth >= walkDepth {
			w.past = true
			return
		}
		object := v.IsObject()
		v.ForEach(func(k, e gjson.Result) bool {
			if _, named := w.skip[k.Str]; object && depth == 0 && named {
				return true
			}
			inner := kind
			if object {
				w.str(k.Str, depth, kind)
				inner = within(kind, w.kindOf(k.Str))
			}
			w.value(e, depth+1, inner)
			return !w.past
		})
		if object {
			w.joined(v, depth, kind)
		}
	}
}

// joined takes the paths an object names in two parts, a folder and a
// file name ({"savePath": ".claude", "filename": "settings.json"}, as
// download tools take them), as the one path they join to.
func (w *argWalk) joined(v gjson.Result, depth int, kind argKind) {
	var dirs, names []string
	joinedKind := argPath
	v.ForEach(func(k, e gjson.Result) bool {
		if e.Type != gjson.String || e.Str == "" {
			return true
		}
		words := nameWords(k.Str)
		if len(words) == 0 {
			return true
		}
		switch last := words[len(words)-1]; {
		case slices.Contains(folderWords, last):
			dirs = append(dirs, e.Str)
		case last == "filename" || last == "name" || last == "as" && len(words) > 1 && words[len(words)-2] == "save":
			names = append(names, e.Str)
		default:
			return true
		}
		if within(kind, w.kindOf(k.Str)) == argOutput {
			joinedKind = argOutput
		}
		return true
	})
	for _, d := range dirs {
		for _, n := range names {
			w.str(filepath.Join(d, n), depth, within(kind, joinedKind))
		}
	}
}

// within is the kind of an argument named as inner inside one of kind
// outer: a name for a path or for output says so even inside free text
// ({"query": {"files": [...]}}), output stays output, and any other name
// keeps what outer said.
func within(outer, inner argKind) argKind {
	switch {
	case inner == argOutput || outer == argOutput:
		return argOutput
	case inner == argAny:
		return outer
	}
	return inner
}

// walkStringArgs is the paths the strings of v may name, as a tool that
// only reads takes them, and whether v goes past the walk's bounds.
func walkStringArgs(v gjson.Result) (paths []pathArg, past bool) {
	w := newArgWalk(verbReads, false)
	w.value(v, 0, argAny)
	return w.paths, w.past
}

// pathsIn returns the paths a server may open for s: s itself, and what
// a server may make of it first: the path of a file: URL as a browser
// engine parses it (whatwgFilePath) or as a server that cuts file://
// off takes it; s without the spaces and control characters around it
// (JavaScript's trim, Python's strip); s up to a NUL (where a C string
// ends); s cleaned of extra slashes, . and .. (Node's path.resolve,
// Python's normpath), which also brings a string longer than PATH_MAX to
// the path it names; the pieces of a list separated by commas. A string
// with a line break inside is no path. A URL of another scheme, and prose
// (a string with spaces inside, not in an argument named for a path:
// named), is judged only as a file that is there: a link named "https:"
// makes "https://x" a path.
func pathsIn(s string, named bool) []pathArg {
	var out []pathArg
	add := func(p string, mustExist bool) {
		if p == "" || strings.ContainsAny(p, "\n\x00") {
			return
		}
		if len(p) > walkLongest {
			if p = filepath.Clean(p); len(p) > walkLongest {
				return
			}
		}
		c := pathArg{path: p, mustExist: mustExist || !named && prose(p)}
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
			if !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "\\") {
				if p, err := url.PathUnescape(rest); err == nil {
					add(p, false) // file:.env, as Python's urlparse takes it
				}
			}
		case isScheme(scheme) && strings.HasPrefix(rest, "//"):
			add(c, true)
			// x://../.git: cleaned, the scheme is gone (path.resolve).
			if cleaned := filepath.Clean(c); !strings.HasPrefix(cleaned, scheme+":") {
				add(cleaned, false)
			}
		default:
			add(c, false)
			if !strings.ContainsAny(c, "\n\x00") {
				add(filepath.Clean(c), false)
			}
		}
	}
	// A list in one string, as servers split it (mcp-atlassian's
	// attachments: "README.md,.env"; ; and | too).
	if strings.ContainsAny(trimmed, ",;|") && !strings.ContainsAny(trimmed, "\n\x00") {
		for _, piece := range strings.FieldsFunc(trimmed, func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
			if p := strings.TrimSpace(piece); p != "" {
				add(p, false)
				add(filepath.Clean(p), false)
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

// prose reports whether a path reads as prose: it has spaces inside, and
// is neither absolute nor in the home (a project in "My Projects" is a
// path).
func prose(p string) bool {
	return strings.ContainsFunc(p, unicode.IsSpace) && !filepath.IsAbs(p) && !strings.HasPrefix(p, "~")
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
