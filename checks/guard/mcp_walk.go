package guard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/engine"
)

// An MCP tool that is not in the table of well-known tools is still
// looked at: its arguments are walked, and every string that leads (as
// the kernel resolves it, from the call's working directory) to a
// protected path stops the call, as a read of a file that is there, or
// as a write when the tool's name says it writes. The walk is bounded, so that a huge argument costs
// little: it goes walkDepth levels into objects and lists, looks at the
// first walkStrings strings, and skips strings longer than a path can be.
// What lies past a bound goes unchecked, with a note. It cannot see a
// path built from parts, encoded, or named relative to a folder other
// than the call's working directory (the server's own), nor what a
// command or a URL the tool takes would do: a tool that runs commands
// belongs in the table.
const (
	walkDepth   = 8
	walkStrings = 256
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
	for _, s := range strs {
		p := strings.TrimPrefix(s, "file://")
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
	v := engine.Verdict{Notes: g.notes}
	if past {
		v.Notes = append(v.Notes, fmt.Sprintf("the arguments of %s go past what is looked at (%d levels, %d strings, strings up to %d bytes); what lies past went unchecked",
			quoteCut(name, 80), walkDepth, walkStrings, walkLongest))
	}
	return v
}

// walkStringArgs returns the strings of v that may be paths, walked in
// order within the bounds; past reports that something lay beyond them.
func walkStringArgs(v gjson.Result) (strs []string, past bool) {
	var walk func(v gjson.Result, depth int)
	walk = func(v gjson.Result, depth int) {
		switch {
		case len(strs) >= walkStrings:
			past = true
		case v.Type == gjson.String:
			if len(v.Str) > walkLongest {
				past = true
			} else if mayBePath(v.Str) {
				strs = append(strs, v.Str)
			}
		case v.IsObject() || v.IsArray():
			if depth >= walkDepth {
				past = true
				return
			}
			v.ForEach(func(_, e gjson.Result) bool {
				walk(e, depth+1)
				return !past || len(strs) < walkStrings
			})
		}
	}
	walk(v, 0)
	return strs, past
}

// mayBePath reports whether s could name a file: one line, no NUL, and
// not a URL other than a file:// one.
func mayBePath(s string) bool {
	if s == "" || strings.ContainsAny(s, "\n\x00") {
		return false
	}
	if i := strings.Index(s, "://"); i >= 0 {
		return strings.HasPrefix(s, "file://")
	}
	return true
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
