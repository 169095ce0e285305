package guard

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/applypatch"
)

// listTool is, for the tools (as the dialects name them) with an argument
// that holds several paths (a list of them, or one string), that argument;
// each path is judged.
// Gemini CLI's read_many_files has no Claude Code counterpart (its folders
// and globs are read whole: readMany), nor has the insert
// command of Copilot CLI's str_replace_editor (its other commands become
// Read, Write and Edit).
func listTool(tool string) (f pathField, ok bool) {
	switch tool {
	case "read_many_files":
		return pathField{"include", false}, true
	case "str_replace_editor":
		return pathField{"path", true}, true
	}
	return pathField{}, false
}

// applyPatchTool is Codex's patch tool (Copilot CLI offers it to GPT
// models too): its tool_input.command is the patch, which names the files.
const applyPatchTool = "apply_patch"

// toolPaths judges the files a call names that FileTool cannot describe:
// lists of paths, and the files of a patch. found reports a verdict to
// return; otherwise the usual checks go on.
func (g *guard) toolPaths(ctx context.Context, call *engine.Call) (v engine.Verdict, found bool) {
	if call.Event.ToolName == applyPatchTool {
		return g.applyPatch(call), true
	}
	list, ok := listTool(call.Event.ToolName)
	if !ok {
		return engine.Verdict{}, false
	}
	for _, p := range stringsOf(gjson.GetBytes(call.ToolInput, list.Field)) {
		for _, m := range globMatches(p, g.Cwd) {
			if f := g.judge(m, g.Cwd, list.Write, true); f != nil {
				return g.verdict(f), true
			}
		}
	}
	if call.Event.ToolName == "read_many_files" {
		if f := g.readMany(ctx, call); f != nil {
			return g.verdict(f), true
		}
	}
	return engine.Verdict{}, false
}

// applyPatch judges every file of the patch: what it adds, updates or
// moves to is written, what it deletes or moves away is deleted (a write,
// to protected paths). Codex writes through a symlink and deletes the link
// itself; an update that moves its file reads it through the link first,
// so that source is judged through it. A patch that cannot be read is
// denied: Codex would refuse it too, and the files it names cannot be
// known.
func (g *guard) applyPatch(call *engine.Call) engine.Verdict {
	patch := gjson.GetBytes(call.ToolInput, "command")
	if patch.Type != gjson.String {
		return engine.Verdict{}
	}
	ops, err := applypatch.Parse(patch.Str)
	if err != nil {
		return engine.Verdict{Decision: engine.Deny, Reason: applyPatchUnreadable(err.Error())}
	}
	for _, op := range ops {
		if f := g.judge(op.Path, g.Cwd, true, op.Kind != applypatch.Delete); f != nil {
			return g.verdict(f)
		}
		if op.MoveTo == "" {
			continue
		}
		if f := g.judge(op.MoveTo, g.Cwd, true, true); f != nil {
			return g.verdict(f)
		}
	}
	return g.verdict(nil)
}

func applyPatchUnreadable(why string) string {
	return "⚠️ BLOCKED: this apply_patch cannot be read (" + why + "), so the files it would change cannot be checked. " +
		"Send a patch that starts with '*** Begin Patch', ends with '*** End Patch', and names each file with " +
		"'*** Add File: ', '*** Update File: ' or '*** Delete File: '."
}

// stringsOf is a JSON string (and the strings of the list it holds as
// JSON text), or the strings of a JSON array; anything else names no
// path.
func stringsOf(v gjson.Result) []string {
	if v.Type == gjson.String {
		// A list passed as JSON text is a list to a server that decodes
		// it (the Python SDK's FastMCP does, for a list parameter).
		if t := strings.TrimSpace(v.Str); strings.HasPrefix(t, "[") && gjson.Valid(t) {
			return append([]string{v.Str}, stringsOf(gjson.Parse(t))...)
		}
		return []string{v.Str}
	}
	var out []string
	if v.IsArray() {
		for _, e := range v.Array() {
			if e.Type == gjson.String {
				out = append(out, e.Str)
			}
		}
	}
	return out
}

// globMatches is p, or, when p is a glob, the paths it matches in dir as
// the shell would expand it (one level per *, as for Bash words); a glob
// that matches nothing is judged as written.
func globMatches(p, dir string) []string {
	if p == "" {
		return nil
	}
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}
	}
	pattern := p
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(escapeGlob(dir), pattern)
	}
	if matches := globFiles(pattern); len(matches) > 0 {
		return matches
	}
	return []string{p}
}
