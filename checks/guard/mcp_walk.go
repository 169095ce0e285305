package guard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/engine"
)

// An MCP tool that is not in the table of well-known tools is still
// looked at: its arguments are walked, and every string that leads (as
// the kernel resolves it, from the call's working directory) to a
// protected path stops the call, as a read of a file that is there, or
// as a write when the tool's name or the argument's says so (see
// mcp_names.go). A string is also taken
// as a server may take it before it opens it (see pathsIn). The walk is
// bounded, so that a huge argument costs little: it goes walkDepth levels
// into objects and lists and looks at walkStrings different strings.
// Arguments past a bound are denied: what was not looked at could be the
// one path that matters, and an agent can pad its arguments at will. It
// cannot see a path built from parts, encoded other than as a file://
// URL, or named relative to a folder other than the call's working
// directory (the server's own), nor what a query, code or a URL the tool
// takes would do. A command line in an argument named for one is judged
// as Bash (unknownCommands).
const (
	walkDepth   = 64
	walkStrings = 10000
	walkLongest = 4096 // PATH_MAX
)

// unknownTool judges the arguments of an MCP tool the table does not
// know, and of any tool of a MassGen event (MassGen's agents act through
// such tools only). Any other tool is left alone: the CLIs' own tools are
// judged by their names.
func (g *guard) unknownTool(call *engine.Call) engine.Verdict {
	name := call.Event.ToolName
	if !unknownMCPCall(call) || nameHas(bareToolName(name), graphWords) {
		return engine.Verdict{Notes: g.notes}
	}
	return g.walkArgs(name, gjson.ParseBytes(call.ToolInput), nil)
}

// unknownMCPCall reports whether call is one whose arguments the guards
// look into by their names: an MCP tool's (by its name, or as its CLI
// marks it), or any tool of a MassGen event.
func unknownMCPCall(call *engine.Call) bool {
	return isMCPName(call.Event.ToolName) || call.Event.FromMassGen || call.Event.FromMCP
}

// unknownCommands are the command lines an MCP tool the table does not
// know is given in arguments named for one (commandArg: an AWS server's
// cli_command, a runner's cmd), at the top level, for the Bash
// judgement: the table's own command role, by the argument's name. A
// value that does not parse as Bash is left to the walk of its paths:
// the name says command, but not which language (an editor's, a chat's
// slash command), and one that cannot be read is no proof of an attack.
func unknownCommands(call *engine.Call) []toolCommand {
	if !unknownMCPCall(call) || call.Event.ToolName == "Bash" || nameHas(call.Event.ToolName, elsewhereWords) {
		return nil // Bash is the judgement these lines are put to (asOwnTool)
	}
	var cmds []toolCommand
	gjson.ParseBytes(call.ToolInput).ForEach(func(k, v gjson.Result) bool {
		if commandArg(k.Str) {
			if line := commandLine(v); line != "" && isBash(line) {
				cmds = append(cmds, toolCommand{line: line})
			}
		}
		return true
	})
	return cmds
}

// walkArgs judges every path the strings of args may name (see argWalk),
// leaving out the top-level arguments named in skip (a table row's,
// judged by their roles).
func (g *guard) walkArgs(name string, args gjson.Result, skip map[string]string) engine.Verdict {
	w := newArgWalk(verbOf(name), remoteServer(name))
	w.skip = skip
	w.value(args, 0, argAny)
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
			// prose, a bare word or a URL, which must name a file that
			// is there.
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
		home, _, _ = shellcmd.LookupUserHome(name) // "" for no such user, or none known
		users[name] = home
	}
	if home == "" {
		return []string{p}
	}
	return []string{p, filepath.Join(home, rest)}
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
