package shellcmd

import (
	"path"
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// wrapped is what a wrapper command runs.
type wrapped struct {
	rest   []Word // the command line it runs; empty when it runs none
	dir    Word   // the directory it changes to first, if hasDir
	hasDir bool
}

// run lists the command that words run, looking through wrappers, and
// returns the shell's working directory after it. redirs are all the
// redirections that apply: a wrapper that is not listed hands them to the
// commands it runs.
func (w *walker) run(words []Word, redirs []Redirect, c ctx, dir string) string {
	wrappers := c.wrappers
	cmdDir := dir
	ownShell := true // only builtin/command so far: a cd changes this shell
	owned := false   // wrappers is our own copy, safe to append to in place
	for len(words) > 1 && words[0].Known {
		base := path.Base(words[0].Value)
		args := words[1:]
		var u wrapped
		switch base {
		case "find":
			w.find(words, redirs, c, wrappers, cmdDir)
			return dir
		case "eval":
			if d, ok := w.eval(args, redirs, c, wrappers, cmdDir); ok {
				if ownShell {
					return d // eval runs in this shell
				}
				return dir
			}
		case "sudo":
			u = unwrapSudo(args)
		case "env":
			u = w.unwrapEnv(args, c, cmdDir)
		case "xargs", "doas", "pkexec", "nice", "nohup", "setsid", "time", "stdbuf", "exec", "command", "builtin":
			u = unwrapSimple(base, args)
		case "timeout":
			u = unwrapTimeout(args)
		case "ionice":
			u = unwrapIonice(args)
		case "chrt":
			u = unwrapChrt(args)
		default:
			if shells[base] && w.shell(base, args, redirs, c, wrappers, cmdDir) {
				return dir
			}
		}
		if len(u.rest) == 0 {
			break
		}
		if u.hasDir {
			cmdDir = chdir(cmdDir, u.dir)
		}
		if base != "builtin" && base != "command" {
			ownShell = false
		}
		if owned {
			wrappers = append(wrappers, base)
		} else {
			wrappers, owned = appendClip(wrappers, base), true
		}
		words = u.rest
	}
	cmd := w.emit(words[0], words[1:], redirs, slices.Clip(wrappers), c, cmdDir)
	if !ownShell {
		return dir
	}
	switch base := cmd.Base(); {
	case base == "cd":
		w.sawCd = true
		if c.loop {
			return ""
		}
		return cdDir(cmd.Args, w.opts.Home, dir)
	case base == "pushd" || base == "popd":
		w.sawCd = true
		return ""
	case w.cdFuncs[base]:
		return ""
	}
	return dir
}

// Option specs of the wrappers, from their GNU, sudo, util-linux and BSD
// manuals. Only options taking an argument matter.
var (
	sudoSpec = optSpec{short: "CDghpRrtTUu", long: []string{
		"close-from", "chdir", "group", "host", "prompt", "chroot", "role",
		"type", "command-timeout", "other-user", "user"}}
	wrapperSpecs = map[string]*optSpec{
		"xargs": {short: "adEILnPsJRS", optional: "eil", long: []string{
			"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}},
		"doas":    {short: "uC"},
		"pkexec":  {long: []string{"user"}},
		"nice":    {short: "n", long: []string{"adjustment"}},
		"nohup":   {},
		"setsid":  {},
		"time":    {short: "fo", long: []string{"format", "output"}},
		"stdbuf":  {short: "ioe", long: []string{"input", "output", "error"}},
		"exec":    {short: "a"},
		"command": {},
		"builtin": {},
	}
	timeoutSpec = optSpec{short: "sk", long: []string{"signal", "kill-after"}}
	ioniceSpec  = optSpec{short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}}
	chrtSpec    = optSpec{short: "TPD", long: []string{"sched-runtime", "sched-period", "sched-deadline"}}
)

func unwrapSudo(args []Word) wrapped {
	opts, _, i := scanOpts(args, &sudoSpec, false)
	var u wrapped
	for _, o := range opts {
		switch {
		case o.is('e', "edit"), o.is('l', "list"), o.is('v', "validate"),
			o.is('K', "remove-timestamp"), o.is('V', "version"), o.is(0, "help"):
			return wrapped{} // sudo runs no command line
		case o.is('D', "chdir") && o.hasVal:
			u.dir, u.hasDir = o.val, true
		}
	}
	u.rest = args[skipAssigns(args, i):]
	return u
}

// unwrapSimple unwraps the wrappers that take options and then a command.
func unwrapSimple(base string, args []Word) wrapped {
	opts, _, i := scanOpts(args, wrapperSpecs[base], false)
	switch base {
	case "command":
		if has(opts, 'v', "") || has(opts, 'V', "") {
			return wrapped{} // command -v only looks the name up
		}
	case "doas":
		if has(opts, 'C', "") || has(opts, 's', "") {
			return wrapped{} // checks a config, or starts a shell
		}
	}
	return wrapped{rest: args[i:]}
}

func unwrapTimeout(args []Word) wrapped {
	_, _, i := scanOpts(args, &timeoutSpec, false)
	if i+1 >= len(args) {
		return wrapped{}
	}
	return wrapped{rest: args[i+1:]} // after the duration
}

func unwrapIonice(args []Word) wrapped {
	opts, _, i := scanOpts(args, &ioniceSpec, false)
	if has(opts, 'p', "pid") || has(opts, 'P', "pgid") || has(opts, 'u', "uid") {
		return wrapped{} // sets the class of running processes
	}
	return wrapped{rest: args[i:]}
}

func unwrapChrt(args []Word) wrapped {
	opts, _, i := scanOpts(args, &chrtSpec, false)
	if has(opts, 'p', "pid") || has(opts, 'm', "max") {
		return wrapped{}
	}
	if i < len(args) && isNumber(args[i]) {
		i++ // the priority
	}
	return wrapped{rest: args[i:]}
}

// skipAssigns skips the NAME=VALUE words from i on, which sudo and env
// put in the environment.
func skipAssigns(args []Word, i int) int {
	for i < len(args) && isAssign(args[i]) {
		i++
	}
	return i
}

func isAssign(a Word) bool {
	for i := 0; i < len(a.Value); i++ {
		if a.Value[i] == '=' {
			return i > 0 && syntax.ValidName(a.Value[:i])
		}
	}
	return false
}

func isNumber(a Word) bool {
	if !a.Known || a.Value == "" {
		return false
	}
	for i := 0; i < len(a.Value); i++ {
		if a.Value[i] < '0' || a.Value[i] > '9' {
			return false
		}
	}
	return true
}

// find lists find itself and then the command of each -exec, -execdir,
// -ok and -okdir, which runs as a child of find: the redirections stay with
// find. -execdir runs in each match's directory, so its Dir is unknown.
func (w *walker) find(words []Word, redirs []Redirect, c ctx, wrappers []string, dir string) {
	w.emit(words[0], words[1:], redirs, slices.Clip(wrappers), c, dir)
	args := words[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			continue
		}
		execDir := dir
		switch a.Value {
		case "-exec", "-ok":
		case "-execdir", "-okdir":
			execDir = ""
		default:
			continue
		}
		start := i + 1
		end := start
		for ; end < len(args); end++ {
			v := args[end]
			if v.Known && (v.Value == ";" || (v.Value == "+" && end > start && args[end-1].Value == "{}")) {
				break
			}
		}
		if end > start {
			ec := c
			ec.wrappers = appendClip(wrappers, "find -exec")
			w.run(args[start:end], nil, ec, execDir)
		}
		i = end
	}
}
