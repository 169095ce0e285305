package guard

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// The tools that are not a CLI's own (MCP servers', MassGen's) are data:
// wellknown_tools.json gives each one's arguments a role, and this file
// turns a call of one into what the guards already judge: a command line
// for the Bash judgements, a path for the read and write rules, a folder
// for the search rules. No rule is written twice.

//go:embed wellknown_tools.json
var wellKnownJSON []byte

// toolRow is one tool of the table.
type toolRow struct {
	Server string
	Args   map[string]string
	Runs   []string
	// Defaults are the values the tool takes for arguments a call leaves
	// out, where they decide what it does (Desktop Commander's
	// start_search lists names unless searchType says content).
	Defaults map[string]gjson.Result
}

// argRole says whether role is one an argument may have (see the table's
// about).
func argRole(role string) bool {
	switch role {
	case "command", "input", "cwd", "read", "write", "delete", "copy_from", "copy_to",
		"move_from", "move_to", "list", "search", "read_tree", "url", "word",
		"search_glob", "search_hidden", "search_kind":
		return true
	}
	return false
}

// wellKnown is the table by tool name, read on first use: only a call of a
// tool that is no CLI's own pays for it. A tool several servers offer has
// one row: the table says the same of its arguments everywhere (a test
// holds it to that).
var wellKnown = &lazy.Value[loadedTable]{New: func() loadedTable {
	rows, err := parseToolTable(wellKnownJSON)
	return loadedTable{rows, err}
}}

// loadedTable is the table, or why it could not be read (the embedded
// table is held to its form by its tests: a broken build is told, never
// a crash).
type loadedTable struct {
	rows map[string]toolRow
	err  error
}

// parseToolTable reads the table with gjson, which walks it without
// reflection: the first call of such a tool in a hook process pays for it.
func parseToolTable(data []byte) (map[string]toolRow, error) {
	if !gjson.ValidBytes(data) {
		return nil, errors.New("the table is not valid JSON")
	}
	rows := map[string]toolRow{}
	var err error
	gjson.GetBytes(data, "servers").ForEach(func(_, srv gjson.Result) bool {
		server := srv.Get("name").Str
		srv.Get("tools").ForEach(func(name, tool gjson.Result) bool {
			row := toolRow{Server: server, Args: map[string]string{}}
			tool.Get("args").ForEach(func(arg, role gjson.Result) bool {
				if !argRole(role.Str) {
					err = fmt.Errorf("%s.%s: argument %s has no role %q", server, name.Str, arg.Str, role.Str)
				}
				row.Args[arg.Str] = role.Str
				return err == nil
			})
			for _, w := range tool.Get("runs").Array() {
				row.Runs = append(row.Runs, w.Str)
			}
			tool.Get("defaults").ForEach(func(arg, v gjson.Result) bool {
				if _, ok := row.Args[arg.Str]; !ok && err == nil {
					err = fmt.Errorf("%s.%s: a default for %s, which has no role", server, name.Str, arg.Str)
				}
				if row.Defaults == nil {
					row.Defaults = map[string]gjson.Result{}
				}
				row.Defaults[arg.Str] = v
				return err == nil
			})
			if _, dup := rows[name.Str]; dup && err == nil {
				err = fmt.Errorf("%s.%s: the tool is in the table twice", server, name.Str)
			}
			rows[name.Str] = row
			return err == nil
		})
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// bareToolName is the tool's own name: the part after the last __ of an
// MCP tool's name (mcp__<server>__<tool>, a plugin's
// mcp__plugin_<p>_<server>__<tool>, <server>__<tool>), else the name.
func bareToolName(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 && i+2 < len(name) {
		return name[i+2:]
	}
	return name
}

// geminiMCPPrefix starts Gemini CLI's name of an MCP tool,
// mcp_<server>_<tool>, where both may hold underscores.
const geminiMCPPrefix = "mcp_"

// isMCPName reports whether a tool's name marks it as an MCP server's:
// mcp__<server>__<tool> (Claude Code, and the other CLIs that follow it),
// <server>__<tool>, or mcp_<server>_<tool> (Gemini CLI).
func isMCPName(name string) bool {
	return strings.Contains(name, "__") || strings.HasPrefix(name, geminiMCPPrefix)
}

// lookupTool is the table's row for a tool name, if it has one; err says
// the table could not be read. In Gemini CLI's mcp_<server>_<tool> the
// server's end is not marked: the longest tail after an underscore that
// the table holds is the tool (mcp_my_fs_read_text_file is read_text_file).
func lookupTool(name string) (row toolRow, ok bool, err error) {
	bare := bareToolName(name)
	// The table's names are lower case (its tests hold it to that): a
	// CLI's own tool (WebFetch, TodoWrite, Task) is no row of it, and
	// costs no read of the table.
	if bare == "" || bare[0] < 'a' || bare[0] > 'z' {
		return toolRow{}, false, nil
	}
	t := wellKnown.Get()
	if row, ok = t.rows[bare]; ok || t.err != nil || !strings.HasPrefix(bare, geminiMCPPrefix) {
		return row, ok, t.err
	}
	rest := bare[len(geminiMCPPrefix):]
	for i := strings.IndexByte(rest, '_'); i >= 0; i = strings.IndexByte(rest, '_') {
		rest = rest[i+1:]
		if row, ok = t.rows[rest]; ok {
			return row, true, nil
		}
	}
	return toolRow{}, false, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pathRole is one path a call names, and what the tool does with it.
type pathRole struct {
	path, role string
}

// toolActions is what a call of a table tool does, in the guards' terms.
type toolActions struct {
	// commands are command lines for the Bash judgements, each with what
	// it stands for when the tool did not name it itself ("" when the
	// argument is the command line).
	commands []toolCommand
	// paths are the paths read, written, listed, read whole.
	paths []pathRole
	// searches are folders whose files' content is searched, as search
	// says.
	searches []string
	search   toolSearch
}

// toolSearch is how a table tool searches its folders.
type toolSearch struct {
	// globs select the files searched (a leading ! leaves files out), as
	// ripgrep's -g.
	globs []string
	// hiddenRole says the tool has an argument that says whether names
	// that start with a dot are searched, and hidden what the call says:
	// without one, they are (as Grep).
	hiddenRole, hidden bool
	// names: the tool matches file names only, and reads no content.
	names bool
}

type toolCommand struct {
	line string
	// as says how the tool's call was put as a command line, when the
	// tool did not give one.
	as string
}

// actionsOf reads a call of the table's tool tool with input as the guards'
// judgements.
func actionsOf(tool string, row toolRow, input []byte) toolActions {
	var a toolActions
	cwd := ""
	for arg, role := range row.Args {
		if role == "cwd" {
			if v := gjson.GetBytes(input, gjson.Escape(arg)); v.Type == gjson.String && v.Str != "" {
				cwd = v.Str
			}
		}
	}
	var copyFrom, copyTo, moveFrom, moveTo []string
	for _, arg := range sortedKeys(row.Args) {
		role := row.Args[arg]
		v := gjson.GetBytes(input, gjson.Escape(arg))
		if d, ok := row.Defaults[arg]; ok && !v.Exists() {
			v = d
		}
		switch role {
		case "command":
			if line := commandLine(v); line != "" {
				a.commands = append(a.commands, toolCommand{line: inDir(cwd, line)})
			}
		case "input":
			// A line for a process, whose language is not known: judged
			// as Bash when it parses as Bash, and as code of another
			// language as well (a line can be both): the names it holds
			// (codeNames), and each quoted string that reads as a
			// command line (os.system("...")).
			if v.Type == gjson.String && v.Str != "" {
				if bashLine(v.Str) {
					a.commands = append(a.commands, toolCommand{line: inDir(cwd, v.Str)})
				}
				names, commands := codeNames(v.Str)
				for _, p := range names {
					a.paths = append(a.paths, pathRole{p, "code"})
				}
				for _, c := range commands {
					a.commands = append(a.commands, toolCommand{line: inDir(cwd, c)})
				}
			}
		case "read", "write", "list", "read_tree":
			for _, p := range stringsOf(v) {
				if p != "" {
					a.paths = append(a.paths, pathRole{p, role})
				}
			}
		case "url":
			for _, u := range stringsOf(v) {
				if p, ok := strings.CutPrefix(u, "file://"); ok && p != "" {
					a.paths = append(a.paths, pathRole{p, "read"})
				}
			}
		case "search":
			a.searches = append(a.searches, stringsOf(v)...)
		case "search_glob":
			// Desktop Commander's filePattern: globs joined by |.
			for _, g := range stringsOf(v) {
				for _, p := range strings.Split(g, "|") {
					if p = strings.TrimSpace(p); p != "" {
						a.search.globs = append(a.search.globs, p)
					}
				}
			}
		case "search_hidden":
			// Anything but false may search them: a string "false" is
			// not known to be false to every server.
			a.search.hiddenRole, a.search.hidden = true, v.Exists() && v.Type != gjson.False
		case "search_kind":
			a.search.names = v.Type == gjson.String && v.Str == "files"
		case "delete":
			for _, p := range stringsOf(v) {
				if p != "" {
					a.commands = append(a.commands, madeCommand(tool, cwd, "rm", "-r", "--", pathWord(p)))
				}
			}
		case "copy_from":
			copyFrom = stringsOf(v)
		case "copy_to":
			copyTo = stringsOf(v)
		case "move_from":
			moveFrom = stringsOf(v)
		case "move_to":
			moveTo = stringsOf(v)
		}
	}
	if c, ok := pairCommand(tool, cwd, []string{"cp", "-r", "--"}, copyFrom, copyTo); ok {
		a.commands = append(a.commands, c)
	}
	if c, ok := pairCommand(tool, cwd, []string{"mv", "--"}, moveFrom, moveTo); ok {
		a.commands = append(a.commands, c)
	}
	if len(row.Runs) > 0 {
		a.commands = append(a.commands, madeCommand(tool, cwd, runsWords(row.Runs, input)...))
	}
	return a
}

// pairCommand is cp or mv from the sources to the destination; a missing
// destination is the working directory (the tool would fail, but what it
// reads is judged all the same).
func pairCommand(tool, cwd string, prog, from, to []string) (toolCommand, bool) {
	var words []string
	for _, p := range from {
		if p != "" {
			words = append(words, pathWord(p))
		}
	}
	if len(words) == 0 {
		return toolCommand{}, false
	}
	dest := "."
	if len(to) > 0 && to[0] != "" {
		dest = to[0]
	}
	return madeCommand(tool, cwd, append(append(prog, words...), pathWord(dest))...), true
}

// runsWords fills a row's runs template: "{arg}" is each string value of
// the argument (none when it is missing), any other element a word as it
// is.
func runsWords(runs []string, input []byte) []string {
	var words []string
	for _, w := range runs {
		arg, ok := strings.CutPrefix(w, "{")
		if arg, ok2 := strings.CutSuffix(arg, "}"); ok && ok2 {
			for _, v := range stringsOf(gjson.GetBytes(input, gjson.Escape(arg))) {
				words = append(words, shellWord(v))
			}
			continue
		}
		words = append(words, shellWord(w))
	}
	return words
}

// madeCommand is a command line the guards judge in place of the tool's
// call: words are already shell words.
func madeCommand(tool, cwd string, words ...string) toolCommand {
	line := strings.Join(words, " ")
	return toolCommand{line: inDir(cwd, line), as: fmt.Sprintf("%s is judged as the command %s", tool, line)}
}

// commandLine is a command argument as a shell command line: a string is
// one already; a list is a program and its arguments, each quoted.
func commandLine(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	if !v.IsArray() {
		return ""
	}
	var words []string
	for _, w := range v.Array() {
		if w.Type != gjson.String {
			return "" // not a list of words: no program to judge
		}
		words = append(words, shellWord(w.Str))
	}
	return strings.Join(words, " ")
}

// inDir runs line in dir, when the tool was given one, as the shell
// analysis follows a cd.
func inDir(dir, line string) string {
	if dir == "" {
		return line
	}
	return "cd -- " + pathWord(dir) + " || exit\n" + line
}

// shellWord quotes s as one shell word, so that nothing in it is shell
// syntax to the analysis (it is never run); a word with nothing to quote
// stays bare, as a denial shows it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, plainChars) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// plainChars are the characters that are never shell syntax in a word
// ("=" is, in a first word; "~" at its start).
const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+:,./-"

// pathWord is a path as one shell word, keeping a leading ~ or ~/ a home
// directory, as the file servers expand it.
func pathWord(p string) string {
	if p == "~" {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + shellWord(rest)
	}
	return shellWord(p)
}
