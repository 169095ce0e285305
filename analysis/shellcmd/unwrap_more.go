package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// More wrappers, each running the command after its own words: flock
// (util-linux: a lock file, then a command or -c STRING), taskset (a CPU
// mask or -c list, then a command), unshare and nsenter (namespace
// options, then a command), and script (-c STRING). Option tables from
// util-linux 2.39.
var (
	flockOptions = &OptionTable{Short: "sexunw:oE:Fc:hV", Abbrev: true,
		Long: "shared exclusive unlock nonblock nb timeout= wait= close conflict-exit-code= no-fork verbose command= help version"}
	tasksetOptions = &OptionTable{Short: "acphV", Abbrev: true,
		Long: "all-tasks cpu-list pid help version"}
	unshareOptions = &OptionTable{Short: "muinpUCTrcfw:S:G:R:hV", Abbrev: true,
		Long: "mount[=] uts[=] ipc[=] net[=] pid[=] user[=] cgroup[=] time[=] fork kill-child[=] " +
			"mount-proc[=] map-root-user map-current-user map-user= map-group= map-users= map-groups= " +
			"map-auto setgroups= propagation= monotonic= boottime= keep-caps root= wd= setuid= setgid= " +
			"load-interp= help version"}
	nsenterOptions = &OptionTable{Short: "aAt:m::u::i::n::p::C::U::T::S:G:r::w::W::FZechV", Abbrev: true,
		Long: "all target= mount[=] uts[=] ipc[=] net[=] pid[=] cgroup[=] user[=] time[=] setuid= setgid= " +
			"preserve-credentials root[=] wd[=] wdns= env no-fork follow-context join-cgroup keep-caps help version"}
	scriptOptions = &OptionTable{Short: "aBc:eE:fI:O:qT:t::m:hV", Abbrev: true,
		Long: "append log-io= command= return echo= flush log-in= log-out= quiet log-timing= timing[=] " +
			"logging-format= output-limit= help version"}
)

// asShell is the command line that runs s with sh -c.
func asShell(s Word) []Word {
	return []Word{{Raw: "sh", Value: "sh", Known: true}, {Raw: "-c", Value: "-c", Known: true}, s}
}

func unwrapFlock(args []Word) wrapped {
	l := flockOptions.Parse(args)
	if cs := l.Vals('c', "command"); len(cs) > 0 {
		return wrapped{rest: asShell(cs[len(cs)-1])}
	}
	rest := args[l.Rest:]
	if len(rest) >= 2 && rest[1].Known && rest[1].Value == "-c" && len(rest) >= 3 {
		return wrapped{rest: asShell(rest[2])} // flock FILE -c STRING
	}
	if len(rest) < 2 {
		return wrapped{} // flock FD: locks, runs nothing
	}
	return wrapped{rest: rest[1:]}
}

func unwrapTaskset(args []Word) wrapped {
	l := tasksetOptions.Parse(args)
	rest := args[l.Rest:]
	if l.Has('p', "pid") || len(rest) < 2 {
		return wrapped{} // changes a running process
	}
	return wrapped{rest: rest[1:]} // after the mask or list
}

// unshare and nsenter without a command start a shell, which reads its
// code from stdin.
func unwrapNamespace(base string, args []Word) wrapped {
	t := unshareOptions
	if base == "nsenter" {
		t = nsenterOptions
	}
	rest := args[t.Parse(args).Rest:]
	if len(rest) == 0 {
		return wrapped{rest: []Word{{Raw: "sh", Value: "sh", Known: true}}}
	}
	return wrapped{rest: rest}
}

func unwrapScript(args []Word) wrapped {
	if cs := scriptOptions.Parse(args).Vals('c', "command"); len(cs) > 0 {
		return wrapped{rest: asShell(cs[len(cs)-1])}
	}
	return wrapped{} // an interactive shell of its own; its log file is a write
}

// Package runners that run a command of the project's (pnpm exec, yarn
// exec, npm exec, npx): the command is looked up in node_modules/.bin and
// then on PATH, so `pnpm exec sh -c '…'` runs sh. -c (--call for npm,
// --shell-mode for pnpm) gives a shell command line instead. Options that
// take a value are skipped with it; an option not listed ends the reading,
// and the runner is then judged as the program it is.
var packageRunnerOptions = optionTables{
	{"pnpm exec", &OptionTable{Short: "rcF:C:h", Long: "recursive parallel shell-mode filter= dir= workspace-root no-bail report-summary resume-from= help"}},
	{"yarn exec", &OptionTable{}},
	{"npm exec", &OptionTable{Short: "yc:p:w:", Long: "yes no call= package= workspace= workspaces include-workspace-root"}},
	{"npx", &OptionTable{Short: "yqc:p:", Long: "yes no quiet call= package="}},
}

func unwrapPackageRunner(base string, args []Word) wrapped {
	name := base
	switch {
	case base == "npx":
	case (base == "pnpm" || base == "yarn" || base == "npm") && len(args) > 0 && args[0].Known &&
		(args[0].Value == "exec" || base == "npm" && args[0].Value == "x"):
		name, args = base+" exec", args[1:]
	default:
		return wrapped{}
	}
	table := packageRunnerOptions.get(name)
	l := table.Parse(args)
	if l.Unknown() {
		return wrapped{}
	}
	if cs := l.Vals('c', "call"); len(cs) > 0 {
		return wrapped{rest: asShell(cs[len(cs)-1])}
	}
	rest := args[l.Rest:]
	if len(rest) > 0 && rest[0].Known && rest[0].Value == "--" {
		rest = rest[1:]
	}
	if name == "pnpm exec" && (l.On('c', "shell-mode")) && len(rest) > 0 {
		return wrapped{rest: asShell(rest[0])}
	}
	return wrapped{rest: rest}
}

// makeCode reads what make runs from its own command line. make splices a
// variable given there into the recipes that use it, which a shell runs,
// and runs $(shell …) at once: `make 'CC=$(shell cat key)'` runs `cat
// key`. A value with $(shell …) is read as that command line; a value with
// other shell syntax (`, $(, ;, |, &) as a command line itself. Makefile
// text given with --eval (-E) is not read: its recipes are code only known
// when make runs. rest is the shell command line to judge, if any.
func makeCode(args []Word) (rest []Word, code *Code) {
	var texts []string
	for i, a := range args {
		if !a.Known {
			continue
		}
		v := a.Value
		var eval string
		switch {
		case v == "--eval" || v == "-E":
			if i+1 < len(args) {
				eval = args[i+1].Raw
			}
		case strings.HasPrefix(v, "--eval="):
			eval = strings.TrimPrefix(v, "--eval=")
		case strings.HasPrefix(v, "-E") && !strings.HasPrefix(v, "--"):
			eval = v[2:]
		}
		if eval != "" || v == "--eval" || v == "-E" {
			return nil, &Code{Lang: "sh", From: "the makefile text given with --eval, whose recipes are not read here:", Text: Word{Raw: eval, Value: eval}}
		}
		name, value, ok := makeAssignment(v)
		if !ok {
			continue
		}
		if strings.HasSuffix(name, "!") {
			texts = append(texts, value) // X!=cmd runs cmd at once (GNU make 4.0)
		} else if shells := makeShellCalls(value); len(shells) > 0 {
			texts = append(texts, shells...)
		} else if strings.ContainsAny(value, "`;|&") || strings.Contains(value, "$(") {
			texts = append(texts, value)
		}
	}
	if len(texts) == 0 {
		return nil, nil
	}
	line := strings.Join(texts, "; ")
	return asShell(Word{Raw: line, Value: line, Known: true}), nil
}

// makeAssignment splits a variable assignment given on make's command
// line (NAME=VALUE, NAME:=, NAME::=, NAME+=, NAME?=, NAME!=); name keeps
// its operator's leading characters.
func makeAssignment(v string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(v, "=")
	if !ok || strings.HasPrefix(v, "-") || !syntax.ValidName(strings.TrimRight(name, ":+?!")) {
		return "", "", false
	}
	return name, value, true
}

// makeEffects are what make's own arguments read: a variable's value
// (a makefile may read the file it names), not the assignment word
// itself, whose name is no path; an X!=cmd is code, judged as the command
// line it is (makeCode). Other arguments as any program's.
func makeEffects(c *Command) []Effect {
	var out []Effect
	for _, a := range c.Args {
		if name, value, ok := makeAssignment(a.Value); ok && a.Known {
			if !strings.HasSuffix(name, "!") && value != "" {
				out = append(out, Effect{Op: Read, Path: part(a, value)})
			}
			continue
		}
		out = append(out, argumentReads([]Word{a})...)
	}
	return out
}

// makeShellCalls returns the command lines of the $(shell …) and
// ${shell …} calls in a make value, parentheses balanced.
func makeShellCalls(value string) []string {
	var out []string
	for _, open := range []string{"$(shell ", "${shell "} {
		rest := value
		for {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			body := rest[i+len(open):]
			depth, end := 1, -1
			for j := 0; j < len(body) && end < 0; j++ {
				switch body[j] {
				case '(', '{':
					depth++
				case ')', '}':
					if depth--; depth == 0 {
						end = j
					}
				}
			}
			if end < 0 {
				out = append(out, body)
				break
			}
			out = append(out, body[:end])
			rest = body[end+1:]
		}
	}
	return out
}
