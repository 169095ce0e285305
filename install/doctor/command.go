package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Program is one program a hook command runs.
type Program struct {
	// Word is the program word as written; Value its value when Known.
	Word, Value string
	Known       bool
	// Builtin is a shell builtin (cd, echo, exit...): no file.
	Builtin bool
	// Path is the file that runs, when it could be found: resolved against
	// $CLAUDE_PROJECT_DIR, $HOME or $PATH (a relative path against the
	// project, for reading only).
	Path string
	// Args are the values of the words after it (as written when unknown).
	Args []string
	// Script is the file an interpreter (sh, bash, python, node...) is
	// given to run, resolved like Path; "" when none or unknown.
	Script string
}

// Base is the last element of the program's name.
func (p Program) Base() string { return path.Base(p.Value) }

// Command is what CheckCommand found in one hook command.
type Command struct {
	Issues []Issue
	// Programs are the simple commands it runs, in order (wrappers such as
	// exec and env skipped; commands inside substitutions left out).
	Programs []Program
}

// interpreters run a script file named by their first operand.
var interpreters = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
		"python": true, "python3": true, "node": true, "ruby": true, "perl": true,
		"deno": true, "bun": true, "php": true,
	}
}}

// builtins are shell builtins and keywords a hook command may start with.
var builtins = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"cd": true, "echo": true, "printf": true, "exit": true, "true": true, "false": true,
		":": true, "test": true, "[": true, "export": true, "set": true, "read": true,
		"source": true, ".": true, "eval": true, "return": true, "shift": true, "unset": true,
		"trap": true, "wait": true, "type": true, "ulimit": true, "umask": true,
	}
}}

// wrappers run the command in their operands.
var wrappers = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"exec": true, "command": true, "nohup": true, "builtin": true, "time": true}
}}

// CheckCommand checks a shell-form hook command as `sh -c` would run it.
func CheckCommand(src string, env Env) Command {
	var out Command
	if strings.TrimSpace(src) == "" {
		out.Issues = append(out.Issues, problem(`"command" is empty; give the command to run`))
		return out
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		out.Issues = append(out.Issues, problem(fmt.Sprintf("is not valid shell (%v); Claude Code's sh -c rejects it too", err)))
		return out
	}
	w := &cmdWalker{env: env, src: src, out: &out}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			w.call(x)
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.DeclClause, *syntax.TestClause, *syntax.ArithmCmd:
			return false
		}
		return true
	})
	return out
}

// CheckArgs checks an exec-form handler's "args": no shell, args[0] is the
// program.
func CheckArgs(args []string, env Env) Command {
	var out Command
	if len(args) == 0 || args[0] == "" {
		out.Issues = append(out.Issues, problem(`"args" is empty; args[0] must be the program to run`))
		return out
	}
	w := &cmdWalker{env: env, out: &out}
	p := Program{Word: args[0], Value: args[0], Known: true, Args: args[1:]}
	if strings.ContainsAny(args[0], "$~") {
		p.Known = false
		out.Issues = append(out.Issues, note(fmt.Sprintf("cannot check args[0] %q: exec-form args run without a shell, so doctor cannot tell whether $VAR or ~ in it is expanded; an absolute path is sure to work", args[0])))
	} else {
		p.Path = w.resolve(value{s: args[0], known: true}, args[0], true, "args[0]")
	}
	if interpreters.Get()[p.Base()] && p.Known {
		for _, a := range args[1:] {
			if a == "-c" || a == "-e" || a == "-m" {
				break
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			if strings.ContainsAny(a, "$~") {
				break
			}
			p.Script = w.resolve(value{s: a, known: true}, a, false, "the script")
			break
		}
	}
	out.Programs = append(out.Programs, p)
	return out
}

// cmdWalker checks the simple commands of one command line in order,
// following its cds.
type cmdWalker struct {
	env Env
	src string
	out *Command
	// cd is set once the command has cd'd; dir is where to ("" unknown).
	cd  bool
	dir string
}

func (w *cmdWalker) add(i Issue) { w.out.Issues = append(w.out.Issues, i) }

func (w *cmdWalker) text(n syntax.Node) string { return w.src[n.Pos().Offset():n.End().Offset()] }

func (w *cmdWalker) call(x *syntax.CallExpr) {
	words := x.Args
	for _, sw := range words {
		if names, fixed := unquotedVars(sw, w.src); len(names) > 0 {
			w.add(problem(fmt.Sprintf("$%s is unquoted in %s: a value with a space is split into several words; write %s", names[0], w.text(sw), fixed)))
		}
	}
	// Skip the wrappers that run their operands.
	for len(words) > 0 {
		v := w.env.eval(words[0])
		switch {
		case v.known && wrappers.Get()[v.s]:
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(w.env.eval(words[0]).s, "-") {
				words = words[1:]
			}
			continue
		case v.known && v.s == "env":
			words = words[1:]
			for len(words) > 0 {
				a := w.env.eval(words[0]).s
				if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
					break
				}
				words = words[1:]
			}
			continue
		}
		break
	}
	if len(words) == 0 {
		return
	}
	v := w.env.eval(words[0])
	p := Program{Word: w.text(words[0]), Value: v.s, Known: v.known}
	for _, a := range words[1:] {
		if av := w.env.eval(a); av.known {
			p.Args = append(p.Args, av.s)
		} else {
			p.Args = append(p.Args, w.text(a))
		}
	}
	switch {
	case v.known && v.s == "cd":
		w.cdTo(words[1:])
		p.Builtin = true
	case v.known && !strings.Contains(v.s, "/") && builtins.Get()[v.s]:
		p.Builtin = true
	default:
		p.Path = w.resolve(v, p.Word, true, "the program")
		if v.known && interpreters.Get()[p.Base()] {
			p.Script = w.script(words[1:])
		}
	}
	w.out.Programs = append(w.out.Programs, p)
}

// cdTo follows a cd to its operand.
func (w *cmdWalker) cdTo(args []*syntax.Word) {
	w.cd = true
	if len(args) == 0 {
		w.dir = w.env.Home
		return
	}
	v := w.env.eval(args[0])
	switch {
	case !v.known || v.s == "-":
		w.dir = ""
	case filepath.IsAbs(v.s):
		w.dir = filepath.Clean(v.s)
	case w.dir != "":
		w.dir = filepath.Join(w.dir, v.s)
	}
}

// script finds and checks the script file among an interpreter's words.
func (w *cmdWalker) script(args []*syntax.Word) string {
	for _, a := range args {
		v := w.env.eval(a)
		if !v.known {
			w.add(note(fmt.Sprintf("cannot check the script %s: %s", w.text(a), v.why)))
			return ""
		}
		switch {
		case v.s == "-c" || v.s == "-e" || v.s == "-m" || v.s == "-":
			return "" // inline code or a module: no file
		case strings.HasPrefix(v.s, "-"):
			continue
		}
		return w.resolve(v, w.text(a), false, "the script")
	}
	return ""
}

// resolve checks the file a program or script word names and returns its
// path ("" when it cannot be told). A program must be executable; a script
// only there.
func (w *cmdWalker) resolve(v value, word string, program bool, what string) string {
	if !v.known {
		w.add(note(fmt.Sprintf("cannot check %s %s: %s", what, word, v.why)))
		return ""
	}
	p := v.s
	if p == "" {
		w.add(problem(fmt.Sprintf("%s %s is empty", what, word)))
		return ""
	}
	if !filepath.IsAbs(p) {
		if program && !strings.Contains(p, "/") {
			found, err := lookPath(p, w.env.Path)
			if err != nil {
				w.add(problem(fmt.Sprintf("%s %s is not found on PATH (%v); install it, or name it by its absolute path", what, word, err)))
			}
			return found
		}
		switch {
		case w.cd && w.dir == "":
			w.add(note(fmt.Sprintf("cannot check %s %s: it is relative to a directory the command cds to, which doctor cannot tell", what, word)))
			return ""
		case w.cd:
			p = filepath.Join(w.dir, p)
		default:
			w.add(problem(fmt.Sprintf("%s %s is a relative path, found from the session's working directory, which moves when the session cds; write \"$CLAUDE_PROJECT_DIR\"/%s",
				what, word, strings.TrimPrefix(p, "./"))))
			return filepath.Join(w.env.Project, p)
		}
	}
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fix := "create it, or fix the path"
		if filepath.Base(p) == ProgramName {
			fix = "put the binary there (massgen-hook init copies it), or fix the path"
		}
		w.add(problem(fmt.Sprintf("%s %s does not exist%s; %s", what, word, w.env.where(word, p), fix)))
		return ""
	case err != nil:
		w.add(problem(fmt.Sprintf("%s %s cannot be reached (%v)", what, word, unwrapPathError(err))))
		return ""
	case info.IsDir():
		w.add(problem(fmt.Sprintf("%s %s is a directory; name the file to run", what, word)))
		return ""
	case program && info.Mode().Perm()&0o111 == 0:
		w.add(problem(fmt.Sprintf("%s %s is not executable%s; run chmod +x on it", what, word, w.env.where(word, p))))
	}
	return p
}

// where says which file a word came to, when the word does not show it:
// relative to the project when inside it.
func (env Env) where(word, p string) string {
	shown := p
	if rel, err := filepath.Rel(env.Project, p); err == nil && env.Project != "" && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	if shown == word {
		return ""
	}
	return " (looked for " + shown + ")"
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// lookPath finds an executable name in pathList as the shell would.
func lookPath(name, pathList string) (string, error) {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue // an empty entry is the working directory: unknowable here
		}
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	if pathList == "" {
		return "", errors.New("PATH is empty")
	}
	return "", errors.New("PATH as doctor sees it; Claude Code's may differ")
}
