package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/install/wiring"
)

// wiredFile is one agent CLI's hook file in one scope, as doctor and
// uninstall see it: massgen-hook's handlers in it, or why it cannot be read.
type wiredFile struct {
	target target
	// scope is project, local or user.
	scope string
	path  string
	file  *wiring.File
	err   error
	ours  []wiring.Wired
}

// name is how reports call the file's scope: "project" for Claude Code's,
// "cursor project" for the others'.
func (w wiredFile) name() string {
	if w.target.name == "claude" {
		return w.scope
	}
	return w.target.name + " " + w.scope
}

// wiredFiles reads every hook file init can write for project: each
// CLI's project, local and user scope, in a fixed order (Claude Code's
// first). Missing files are left out.
func (a *app) wiredFiles(project string) []wiredFile {
	var out []wiredFile
	for _, name := range append([]string{"claude"}, without(targetNames(), "claude")...) {
		t := targets.Get()[name]
		for _, scope := range []string{"project", "local", "user"} {
			path := a.hookFilePath(t, scope, project)
			if path == "" {
				continue
			}
			if t.plugin {
				if w, ok := readPlugin(t, scope, path); ok {
					out = append(out, w)
				}
				continue
			}
			f, err := wiring.Read(path)
			if err == nil && !f.Exists {
				continue
			}
			w := wiredFile{target: t, scope: scope, path: path, file: f, err: err}
			if err == nil {
				w.ours = wiring.Ours(f, a.wiredSpec(t))
			}
			out = append(out, w)
		}
	}
	return out
}

// hookFilePath is where init puts t's hooks for scope; "" when t has no
// such file or it cannot be placed ($HOME unset).
func (a *app) hookFilePath(t target, scope, project string) string {
	switch scope {
	case "project":
		return filepath.Join(project, t.projectFile)
	case "local":
		if t.localFile == "" {
			return ""
		}
		return filepath.Join(project, t.localFile)
	}
	switch {
	case t.name == "codex":
		return a.codexHooksPath("user", project)
	case t.userDirVar != "" && a.getenv(t.userDirVar) != "":
		return filepath.Join(a.getenv(t.userDirVar), t.userDirFile)
	case a.getenv("HOME") == "":
		return ""
	}
	return filepath.Join(a.getenv("HOME"), t.userFile)
}

// wiredSpec recognises massgen-hook's handlers whatever binary they run:
// one named massgen-hook, or this very binary under another name.
func (a *app) wiredSpec(t target) wiring.Spec {
	if exe, err := os.Executable(); err == nil {
		return t.specFor(shellQuote(exe))
	}
	return t.specFor(projectBinary)
}

// wiredProgram is the file a massgen-hook command of ours runs, as the
// CLI would find it in project; "" when that cannot be told before the
// CLI runs it.
func (a *app) wiredProgram(command, project string) string {
	name, _ := commandWords(command)
	home := a.getenv("HOME")
	for _, v := range projectVars() {
		if rest, ok := strings.CutPrefix(name, v+"/"); ok {
			return filepath.Join(project, rest)
		}
	}
	for _, v := range []string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(name, v+"/"); ok && home != "" {
			return filepath.Join(home, rest)
		}
	}
	switch {
	case filepath.IsAbs(name):
		return filepath.Clean(name)
	case name != "" && !strings.Contains(name, "/"):
		for _, dir := range filepath.SplitList(a.getenv("PATH")) {
			p := filepath.Join(dir, name)
			if info, err := os.Stat(p); dir != "" && err == nil && !info.IsDir() {
				return p
			}
		}
	}
	return ""
}

// projectVars are the ways a hook command names the project root, as
// commandWords reads them (quotes removed): each CLI's variable, bare or
// braced, and the forms init writes.
func projectVars() []string {
	var out []string
	for _, t := range targets.Get() {
		out = append(out, strings.ReplaceAll(t.projectVar, `"`, ""))
	}
	for _, d := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR", "COPILOT_PROJECT_DIR"} {
		out = append(out, "$"+d, "${"+d+"}")
	}
	return out
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}
