// Package shellcmd reads a Bash command line the way the shell would run it
// and lists the simple commands in it, wrappers unwrapped, with their words,
// redirections and working directory, so guards can judge commands without
// being fooled by quoting, echo, or sudo.
//
// The shell grammar is left to mvdan.cc/sh/v3/syntax; this package only
// walks the tree it builds. Nothing is executed and nothing on disk is
// consulted: a parameter is known only where the line assigns it a known
// value or the caller knows it (HOME, PWD, Options.Env), and globs are
// reported as patterns.
package shellcmd

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Options describe the shell the command line would run in.
type Options struct {
	Dir  string // the shell's working directory (absolute); "" unknown
	Home string // $HOME, for ~ and $HOME; "" unknown
	// Env gives the environment variables whose values the caller knows
	// (TMPDIR, for one): a name present has that value, "" also meaning
	// unset. Others are unknown.
	Env map[string]string
	// GitTop returns the top of the git work tree that holds dir ("" when
	// none), for $(git rev-parse --show-toplevel); nil: not known. It is
	// called only for a line that asks.
	GitTop func(dir string) string
	// UserHome looks up the home directory of a user for ~user (exists
	// false: no such user, and bash leaves the word as it is); nil, or an
	// error: not known.
	UserHome func(name string) (home string, exists bool, err error)
	// Zsh: the shell may be zsh (macOS's, where Claude Code picks it).
	// The line is still read as bash, and zsh's own expansions that
	// bash's grammar keeps as text are refused (zshExpansions).
	Zsh bool
}

// Script is everything a command line would run.
type Script struct {
	// Commands lists every simple command, depth-first in the order the
	// shell starts them: the commands of a word's substitutions come
	// before the command whose word it is; pipeline stages left to right;
	// a function body where the function is defined; the commands of a
	// `bash -c` or eval string where the shell or eval stands; the command
	// of a `find -exec` right after find.
	Commands []*Command
}

// Command is one simple command as it would run.
//
// Wrappers (sudo, env, xargs, ...) are not listed themselves: the command
// they run is, with the wrapper named in Wrappers. A wrapper that runs no
// command line (`sudo -v`, `command -v x`, `exec >log`, a shell whose -c
// string is not known) is listed as the command it is. Declarations
// (export, declare, local, readonly, typeset) are listed as commands, with
// each assignment as one word; `[[ ]]`, `(( ))` and let are not, though the
// substitutions inside them are. A statement of redirections without a
// command word (`> file`) is listed with a zero Name so its writes show.
type Command struct {
	Name Word   // the program, after unwrapping (e.g. rm, /bin/rm)
	Args []Word // the words after Name
	// Redirects are the file redirections that apply to it: those of the
	// compound commands around it and of a `bash -c` or xargs that ran it
	// (outermost first), then its own. Several commands may share one
	// slice: do not modify it.
	Redirects []Redirect
	// Wrappers it ran through, outermost first: "sudo", "env", "xargs",
	// "bash -c" (with the shell's own name: "sh -c", "su -c"), "eval",
	// "find -exec" (also for -execdir, -ok, -okdir), "time", "nohup",
	// "timeout", "$(...)", "`...`", "<(...)", ">(...)", ...
	// Several commands may share one slice: do not modify it.
	Wrappers []string
	// Dir is the working directory when it runs: Options.Dir, changed by
	// an earlier literal `cd DIR` in the same list, env -C or sudo -D.
	// "" when unknown: after a cd to a non-literal directory, cd -,
	// pushd/popd, a cd inside a loop, a cd on only some branches, under
	// find -execdir, and in function bodies (they run where they are called).
	Dir string
	// Pipeline is the id of the innermost pipeline the command belongs to,
	// unique within the Script; Stage and Stages give its 0-based position
	// in that pipeline and the pipeline's length (a lone command: 0, 1).
	// All commands of one stage share its position: in `curl x | { a; b; }`
	// both a and b are stage 1, and a command run by a wrapper or
	// `bash -c` in a stage keeps that stage.
	Pipeline      int
	Stage, Stages int
	// Env lists the NAME=VALUE words the command line puts in its
	// environment, in order: assignments before it or before a wrapper
	// (FOO=1 cmd, FOO=1 sudo cmd) and the NAME=VALUE operands of env and
	// sudo. Variables exported by earlier commands are not included (see
	// LineEnv). Several commands may share one slice: do not modify it.
	Env []Word
	// LineEnv lists the NAME=VALUE words that export, declare and typeset
	// put in the environment anywhere in the command line: what the
	// command may inherit, whatever the order the shell runs them in (a
	// function or trap defined first runs later). Shared by every command.
	LineEnv    []Word
	Background bool   // it runs asynchronously: in a statement ending in &, or a coprocess
	Func       string // name of the function whose body contains it ("" at top level)
	// Stdin is what it reads on standard input when the command line
	// gives it text: a heredoc, a here-string, an earlier pipeline stage,
	// a < FILE. nil: the shell's own stdin.
	Stdin *Input
	// Code is the program text it runs, for a shell or interpreter that
	// runs code it is given rather than a file already on disk (-c, -e, a
	// heredoc, a pipe, a file this command line wrote). A shell whose code
	// is known is not listed: the commands of that code are. nil for any
	// other command, and for a script that was on disk before.
	Code *Code
	// OnlyIfAbsent are paths the command runs only without: a test around
	// it ran it only when the path did not exist (absent.go). Several
	// commands may share one slice: do not modify it.
	OnlyIfAbsent []Absent
}

// Base returns the last element of the program's path ("rm" for /bin/rm),
// or "" when the program is not known.
func (c *Command) Base() string {
	if !c.Name.Known || c.Name.Value == "" {
		return ""
	}
	return path.Base(c.Name.Value)
}

// maxDepth bounds how many `bash -c` and eval strings are parsed inside one
// another, so a crafted command line cannot make us parse forever. A shell
// nested deeper is listed as an ordinary command.
const maxDepth = 4

// errInternal marks a bug in this package caught at run time: Parse must
// never take the hook down, whatever it is given.
var errInternal = errors.New("shellcmd: internal error")

// Parse parses src as bash and returns every simple command it would run.
// A syntax error, also one in a `bash -c` or eval string, is returned as an
// error with a nil Script.
func Parse(src string, opts Options) (script *Script, err error) {
	defer func() {
		if r := recover(); r != nil {
			script, err = nil, fmt.Errorf("%w: %v", errInternal, r)
		}
	}()
	f, err := parse(src, syntax.LangBash, opts.Zsh)
	if err != nil {
		return nil, err
	}
	w := walker{opts: clean(opts), script: &Script{}, zsh: opts.Zsh}
	w.scanAssigned(f)
	w.stmts(f.Stmts, ctx{src: src, pipe: -1}, w.opts.Dir)
	if w.err != nil {
		return nil, w.err
	}
	exported := w.lineExports()
	for _, c := range w.script.Commands {
		c.LineEnv = exported
	}
	return w.script, nil
}

// lineExports are the NAME=VALUE words the line may put in the
// environment of the commands it starts: those of its export, declare,
// typeset and local commands, a name they export without a value with the
// value the line last gives it (GIT_DIR=x; export GIT_DIR), and with set
// -a (allexport) every name the line assigns.
func (w *walker) lineExports() []Word {
	var env []Word
	exportName := func(name string) {
		if !syntax.ValidName(name) {
			return
		}
		v, _ := w.lookup(name)
		env = append(env, Word{Raw: name, Value: name + "=" + v.Value, Known: v.Known})
	}
	allexport := false
	for _, c := range w.script.Commands {
		switch b := c.Base(); b {
		case "export", "declare", "typeset", "local":
			exports := b == "export" || slices.ContainsFunc(c.Args, func(a Word) bool {
				return a.IsFlag() && a.Value[0] == '-' && strings.ContainsRune(a.Value, 'x')
			})
			for _, a := range c.Args {
				switch {
				case a.IsFlag():
				case strings.Contains(a.Value, "="):
					env = append(env, a)
				case exports && a.Known:
					exportName(a.Value)
				}
			}
		case "set":
			allexport = allexport || slices.ContainsFunc(c.Args, func(a Word) bool {
				return a.Value == "allexport" || a.IsFlag() && a.Value[0] == '-' && strings.ContainsRune(a.Value, 'a')
			})
		}
	}
	if allexport {
		for _, name := range slices.Sorted(maps.Keys(w.assigned)) {
			exportName(name)
		}
	}
	return env[:len(env):len(env)]
}

// clean drops trailing slashes so that ~/x and $PWD/x join without "//".
func clean(o Options) Options {
	if o.Dir != "" {
		o.Dir = path.Clean(o.Dir)
	}
	if o.Home != "" {
		o.Home = path.Clean(o.Home)
	}
	return o
}

// parsers recycles syntax parsers: each carries a few kilobytes of buffers
// and Parse runs on every tool call. A parser holds nothing of the trees it
// built, so it can go back as soon as Parse returns.
var parsers = sync.Pool{New: func() any { return syntax.NewParser() }}

func parse(src string, lang syntax.LangVariant, zsh bool) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	syntax.Variant(lang)(p)
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	if why := opaqueRuns(f, src); why != "" {
		return nil, errors.New(why)
	}
	if zsh || lang == syntax.LangZsh {
		if why := zshExpansions(f); why != "" {
			return nil, errors.New(why)
		}
	}
	return f, nil
}
