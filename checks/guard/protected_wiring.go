package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// defaultWiring are the files that switch the guards on: every agent CLI's
// hook wiring (project and user scope; OpenCode's plugin folders and pi's
// extensions folder, whose every file the CLI runs with the user's rights,
// and the config files that can name more: OpenCode's also holds the
// user's permission rules), massgen-hook's own configuration,
// state and installed binary; Cursor's sandbox.json, which sets what
// Cursor's own sandbox lets the agent's commands read and reach; and the
// files that name the MCP servers a CLI starts (a program run with the
// user's rights at the next session, outside every guard). An agent that
// could change, move or delete any of them could turn its guards off, so
// they are protected from writing by default, and so are the folders that
// hold them (see holds).
var defaultWiring = []string{
	".claude/massgen-hook.yaml", ".claude/massgen-hook", ".claude/massgen-hook/**",
	".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/**",
	".gemini/settings.json", ".codex/hooks.json", ".codex/config.toml", ".cursor/hooks.json", ".cursor/sandbox.json",
	".github/hooks/**", ".pi/extensions/**", ".pi/settings.json",
	".opencode/plugins/**", ".opencode/opencode.json", ".opencode/opencode.jsonc", "opencode.json", "opencode.jsonc",
	".mcp.json", ".cursor/mcp.json",
	"~/.claude/settings.json", "~/.gemini/settings.json", "~/.codex/hooks.json", "~/.codex/config.toml",
	"~/.cursor/hooks.json", "~/.cursor/sandbox.json", "~/.copilot/hooks/**",
	"~/.pi/agent/extensions/**", "~/.pi/agent/settings.json",
	"~/.config/opencode/plugins/**", "~/.config/opencode/opencode.json", "~/.config/opencode/opencode.jsonc",
	"~/.claude.json", "~/.cursor/mcp.json", "~/.copilot/mcp-config.json",
}

// ownBinaryPattern is ownBinary, asked once per process, and only by a
// call that writes: reading /proc/self/exe makes the kernel look up and
// instantiate /proc entries, a cost on every Bash call that most, which
// write nothing, never need. "" when it is not a valid pattern (it always
// is: every glob character is escaped).
var ownBinaryPattern = &lazy.Value[string]{New: func() string {
	if exe := ownBinary(); exe != "" && validPattern(exe) {
		return exe
	}
	return ""
}}

// writes is the call's write list: the patterns, then the running binary.
func (g *guard) writes() []string {
	if g.writeList == nil {
		g.writeList = g.write
		if exe := ownBinaryPattern.Get(); exe != "" {
			g.writeList = append(slices.Clip(g.write), exe)
		}
	}
	return g.writeList
}

// ownBinary is the running massgen-hook, wherever it is installed, with
// its symlinks resolved: a user-scope binary lives outside the project,
// but replacing it turns every hook off just the same. "" when the system
// cannot say.
func ownBinary() string {
	if exe, ok := kernelExe(); ok {
		return escapeGlob(exe)
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return escapeGlob(exe)
}

// kernelNamed reports whether exe, what /proc/self/exe reads, is already
// the binary's path with its symlinks resolved: the kernel names the file
// it runs by the folders it is in, never by a link. A binary deleted or
// replaced since it started is named with " (deleted)" after it; what its
// path holds now is another file, which only resolving it can tell.
func kernelNamed(exe string) bool {
	return filepath.IsAbs(exe) && filepath.Clean(exe) == exe && !strings.HasSuffix(exe, " (deleted)")
}

// holdsOp reports whether an effect of c on a folder reaches what is
// inside it: deleting or moving it takes its contents along, a tree-wide
// write overwrites them, and a change of owner, or of mode that can take
// the owner's read or search permission away, can lock the hooks out of
// them. A chmod that only adds permissions (chmod -R u+w .) cannot.
func holdsOp(c *shellcmd.Command, e shellcmd.Effect) bool {
	switch e.Op {
	case shellcmd.Delete, shellcmd.Move:
		return true
	case shellcmd.Write:
		return e.Tree
	case shellcmd.Meta:
		mode, _, isChmod := c.ChmodMode()
		return !isChmod || !mode.Known || locksOut(mode.Value)
	}
	return false
}

// locksOut reports whether a chmod mode can take read or search
// permission away from the owner: an octal mode whose owner digit lacks
// either; a symbolic clause for the owner (u, a, or no one named) that
// removes r or x, or sets the permissions without both; anything not
// understood.
func locksOut(mode string) bool {
	if mode == "" {
		return true // --reference: a mode we do not see
	}
	if strings.Trim(mode, "01234567") == "" {
		if len(mode) < 3 || len(mode) > 4 {
			return true
		}
		return (mode[len(mode)-3]-'0')&5 != 5
	}
	for _, clause := range strings.Split(mode, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 || strings.Trim(clause[:i], "ugoa") != "" {
			return true
		}
		who := clause[:i]
		owner := who == "" || strings.ContainsAny(who, "ua")
		for rest := clause[i:]; rest != ""; {
			op := rest[0]
			j := strings.IndexAny(rest[1:], "+-=")
			perms := rest[1:]
			if j >= 0 {
				perms, rest = rest[1:j+1], rest[j+1:]
			} else {
				rest = ""
			}
			if strings.Trim(perms, "rwxXstugo") != "" {
				return true
			}
			if !owner || op == '+' {
				continue
			}
			copies := strings.ContainsAny(perms, "ugo") // the permissions of another class: not known here
			if op == '-' && (copies || strings.ContainsAny(perms, "rxX")) {
				return true
			}
			if op == '=' && (copies || !strings.Contains(perms, "r") || !strings.ContainsAny(perms, "xX")) {
				return true
			}
		}
	}
	return false
}

// holds reports the write-protected path that exists inside the folder w
// names, and its pattern: `rm -rf .claude` deletes .claude/settings.json
// though the word names only .claude. Only the literal start of each
// pattern is looked at (".claude/hooks" of ".claude/hooks/**"), so this
// costs a few stat calls and never a walk; a pattern that starts with a
// wildcard (**/.git) is matched against the folder itself by judge. A
// folder named by a symlink counts as its name and as its target: removing
// the link also cuts the path to what the wiring names.
func (g *guard) holds(w shellcmd.Word, dir string) *finding {
	if !w.Known || w.Value == "" || w.Glob {
		return nil
	}
	if dir == "" {
		dir = g.Cwd
	}
	p := w.Value
	if strings.HasPrefix(p, "~/") && g.Home != "" {
		p = filepath.Join(g.Home, p[2:])
	}
	rp := g.paths.Resolve(p, dir)
	for _, l := range g.literalStarts() {
		if !fspath.Within(l.path, rp.Lexical, rp.Fold) && !fspath.Within(l.real, rp.Real, rp.Fold) {
			continue
		}
		if g.matchAny(g.except, l.path, rp.Fold) != "" {
			continue
		}
		return &finding{path: g.Project.Display(rp), write: true, pattern: l.pattern, holds: g.Project.Display(fspath.Path{Lexical: l.path})}
	}
	return nil
}

// literal is the literal start of a write pattern that exists on disk.
type literal struct {
	pattern, path, real string
}

// literalStarts lists, once per call, the literal starts of the write
// patterns that exist: a folder that holds none of them holds nothing
// protected that holds can see.
func (g *guard) literalStarts() []literal {
	if g.lits != nil {
		return *g.lits
	}
	var out []literal
	for _, pat := range g.writes() {
		lit := g.literalStart(pat)
		if lit == "" {
			continue
		}
		if _, err := os.Lstat(lit); err != nil {
			continue // nothing there to lose
		}
		out = append(out, literal{pattern: pat, path: lit, real: g.real(lit)})
	}
	g.lits = &out
	return out
}

// literalStart is the absolute path a pattern starts with, up to its
// first wildcard: the project's for a relative pattern, the home
// directory's for ~/. "" when the pattern starts with a wildcard.
func (g *guard) literalStart(pat string) string {
	var base string
	switch {
	case strings.HasPrefix(pat, "~/"):
		if g.Home == "" {
			return ""
		}
		base, pat = g.Home, pat[2:]
	case filepath.IsAbs(pat):
		base = "/"
	default:
		base = g.Project.Root
	}
	var keep []string
	for _, seg := range strings.Split(pat, "/") {
		if strings.ContainsAny(seg, `*?[{\`) {
			break
		}
		keep = append(keep, seg)
	}
	if len(keep) == 0 || (len(keep) == 1 && keep[0] == "") {
		return ""
	}
	return filepath.Join(append([]string{base}, keep...)...)
}
