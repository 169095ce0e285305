package guard

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

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

// writeWords are the words in a tool's name that say it writes: those
// MassGen's permission manager reads so (Write, Edit, Create, Move, Copy),
// Delete and Remove, which MassGen takes as deleting, and the other verbs
// file tools are named by.
var writeWords = []string{"write", "edit", "create", "move", "copy", "delete", "remove", "save", "append", "rename", "replace"}

// unknownTool judges the arguments of an MCP tool the table does not
// know, and of any tool of a MassGen event (MassGen's agents act through
// such tools only). Any other tool is left alone: the CLIs' own tools are
// judged by their names.
func (g *guard) unknownTool(call *engine.Call) engine.Verdict {
	name := call.Event.ToolName
	if !isMCPName(name) && !call.Event.FromMassGen {
		return engine.Verdict{}
	}
	lower := strings.ToLower(bareToolName(name))
	write := false
	for _, w := range writeWords {
		write = write || strings.Contains(lower, w)
	}
	strs, past := walkStringArgs(gjson.ParseBytes(call.ToolInput))
	if past {
		return engine.Verdict{Decision: engine.Deny,
			Reason: fmt.Sprintf("⚠️ BLOCKED: the arguments of %s are too large to check for protected paths (more than %d levels of objects and lists, or more than %d different strings). "+
				"Pass fewer or flatter arguments, split the work over several calls, or ask the user to run it.", quoteCut(name, 80), walkDepth, walkStrings),
			SystemMessage: fmt.Sprintf("massgen-hook: blocked %s: its arguments are too large to check.", quoteCut(name, 80))}
	}
	for _, p := range strs {
		// A string may be no path at all (a search term "id_rsa", a
		// pattern "*.pem"): a read is judged only when the file is
		// there to be read; a write, which may create it, always.
		if !write && !g.exists(p) {
			continue
		}
		// Only a protected path counts: a string outside the project
		// may be no path at all, so it is not judged as a write there.
		if f := g.judge(p, g.Cwd, write, true); f != nil && f.pattern != "" {
			return g.verdict(f)
		}
	}
	return engine.Verdict{Notes: g.notes}
}

// walkStringArgs returns the paths the strings of v may name (see
// pathsIn), each once, in order; past reports that v goes beyond the
// walk's bounds.
func walkStringArgs(v gjson.Result) (paths []string, past bool) {
	seen, added := map[string]bool{}, map[string]bool{}
	var walk func(v gjson.Result, depth int)
	walk = func(v gjson.Result, depth int) {
		switch {
		case v.Type == gjson.String:
			if seen[v.Str] {
				return
			}
			if seen[v.Str] = true; len(seen) > walkStrings {
				past = true
				return
			}
			for _, p := range pathsIn(v.Str) {
				if !added[p] {
					added[p] = true
					paths = append(paths, p)
				}
			}
		case v.IsObject() || v.IsArray():
			if depth >= walkDepth {
				past = true
				return
			}
			v.ForEach(func(_, e gjson.Result) bool {
				walk(e, depth+1)
				return !past
			})
		}
	}
	walk(v, 0)
	return paths, past
}

// pathsIn returns the paths a server may open for s: s itself when it
// could name a file (one line, no NUL, no URL), and what a server may
// make of it first: the path of a file:// URL (file:/p, any case, no
// host or localhost, escapes undone, as Node's fileURLToPath and
// Python's url2pathname take it, or what follows file:// as a server
// that cuts the scheme off takes it), s without the spaces around it, s up
// to a NUL (where a C string ends). A string longer than PATH_MAX names
// no file as it is, but a server that cleans a path first (Node's
// path.resolve, Python's normpath) opens what it cleans to.
func pathsIn(s string) []string {
	var out []string
	add := func(p string) {
		if p == "" || strings.ContainsAny(p, "\n\x00") {
			return
		}
		if len(p) > walkLongest {
			if p = filepath.Clean(p); len(p) > walkLongest {
				return
			}
		}
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	for _, c := range []string{s, strings.TrimSpace(s), strings.SplitN(s, "\x00", 2)[0]} {
		scheme, rest, _ := strings.Cut(c, ":")
		switch {
		case strings.EqualFold(scheme, "file"):
			add(c)
			if len(c) > len("file://") && strings.EqualFold(c[:len("file://")], "file://") {
				add(c[len("file://"):]) // a server that cuts the scheme off
			}
			if u, err := url.Parse(c); err == nil && (u.Host == "" || strings.EqualFold(u.Host, "localhost")) {
				add(u.Path)
			}
		case isScheme(scheme) && strings.HasPrefix(rest, "//"):
			// Another scheme's URL names no file.
		default:
			add(c)
		}
	}
	return out
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
