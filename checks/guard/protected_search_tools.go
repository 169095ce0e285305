package guard

import (
	"context"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/engine"
)

// searchTool is the agents' search tool as the dialects name it: Claude
// Code's Grep (path), Gemini CLI's grep_search (dir_path becomes path,
// include a glob) and Copilot CLI's grep and rg (paths, a string or a
// list; glob); type is a ripgrep file type.
const searchTool = "Grep"

// searchTool judges a search tool's call: each path it names, and, for a
// folder (the working directory when it names none), every file below it
// that the tool reads (see shellcmd.ToolSearch).
func (g *guard) searchTool(ctx context.Context, call *engine.Call) *finding {
	in := call.ToolInput
	paths := stringsOf(gjson.GetBytes(in, "path"))
	paths = append(paths, stringsOf(gjson.GetBytes(in, "paths"))...)
	if len(paths) == 0 {
		paths = []string{g.Cwd}
	}
	var globs []string
	for _, field := range []string{"glob", "include"} {
		globs = append(globs, stringsOf(gjson.GetBytes(in, field))...)
	}
	sel := shellcmd.ToolSearch(call.Event.ToolName, globs, stringsOf(gjson.GetBytes(in, "type")))
	// Claude Code's Grep and Copilot CLI's grep and rg hand their glob to
	// ripgrep, where "!name" leaves a file out; Gemini CLI's include
	// only selects, so its denial names no way to leave one out.
	if !gjson.GetBytes(in, "include").Exists() {
		sel.Exclude = `glob "!%s"`
	}
	return g.searchBelow(ctx, paths, sel)
}

// searchBelow judges a search of paths: each path itself, and, for a
// folder, every file below it that sel reads (nil: none, the search
// matches names only).
func (g *guard) searchBelow(ctx context.Context, paths []string, sel *shellcmd.Selection) *finding {
	for _, p := range paths {
		for _, m := range globMatches(p, g.Cwd) {
			if f := g.judge(m, g.Cwd, false, true); f != nil {
				return f
			}
			if sel == nil {
				continue
			}
			e := shellcmd.Effect{Op: shellcmd.Read, Path: shellcmd.Word{Value: m, Known: true}, Tree: true, Select: sel}
			if f := g.tree(ctx, e, g.Cwd); f != nil {
				return f
			}
		}
	}
	return nil
}

// searchFolders judges a table tool's search of folders (Desktop
// Commander's start_search): as Grep's, but with the tool's own globs,
// its choice of dot files (ripgrep skips them unless told), and nothing
// below a folder when it matches names only.
func (g *guard) searchFolders(ctx context.Context, dirs []string, s toolSearch, tool string) *finding {
	if s.names {
		return g.searchBelow(ctx, dirs, nil)
	}
	sel := shellcmd.ToolSearch(tool, s.globs, nil)
	if s.hiddenRole {
		sel.Hidden = s.hidden
	}
	sel.Exclude = `filePattern "!%s"`
	return g.searchBelow(ctx, dirs, sel)
}

// readMany judges the folders and globs of Gemini CLI's read_many_files:
// a folder it names is read whole, and a glob is matched against every
// file below the working directory; both leave out what exclude names
// and, unless file_filtering_options says otherwise, what git ignores.
func (g *guard) readMany(ctx context.Context, call *engine.Call) *finding {
	in := call.ToolInput
	exclude := stringsOf(gjson.GetBytes(in, "exclude"))
	ignored := gjson.GetBytes(in, "file_filtering_options.respect_git_ignore").Type == gjson.False
	for _, p := range stringsOf(gjson.GetBytes(in, "include")) {
		// A folder is read whole (tree passes anything else by): a glob
		// is matched below the working directory.
		word, include := p, []string{"**"}
		if strings.ContainsAny(p, "*?[{") {
			word, include = ".", []string{p}
		}
		e := shellcmd.Effect{Op: shellcmd.Read, Path: shellcmd.Word{Value: word, Known: true}, Tree: true,
			Select: shellcmd.ToolReadMany(include, exclude, ignored)}
		if f := g.tree(ctx, e, g.Cwd); f != nil {
			return f
		}
	}
	return nil
}
