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

// Option tables of the wrappers, from sudo 1.9, GNU coreutils 9,
// findutils 4.9, util-linux 2.38, OpenBSD doas and polkit's manuals.
var (
	sudoOptions = &OptionTable{Short: "AbBEeHiKklnPSsVvh::D:C:g:p:R:r:t:T:U:u:", Abbrev: true,
		Long: "askpass background bell close-from= chdir= preserve-env[=] edit group= set-home help " +
			"host= login remove-timestamp reset-timestamp list non-interactive preserve-groups prompt= " +
			"chroot= role= stdin shell type= command-timeout= other-user= user= version validate"}
	wrapperOptions = map[string]*OptionTable{
		"xargs": {Short: "0a:d:E:e::I:i::L:l::n:oP:prs:txJ:R:S:", Abbrev: true,
			Long: "null arg-file= delimiter= eof[=] replace[=] max-lines[=] max-args= open-tty " +
				"max-procs= interactive process-slot-var= no-run-if-empty max-chars= show-limits " +
				"verbose exit help version"},
		"doas":    {Short: "nsu:C:L"},
		"pkexec":  {Abbrev: true, Long: "user= disable-internal-agent keep-cwd help version"},
		"nice":    {Short: "n:", Abbrev: true, Long: "adjustment= help version"},
		"nohup":   {Abbrev: true, Long: "help version"},
		"setsid":  {Short: "cfwhV", Abbrev: true, Long: "ctty fork wait help version"},
		"time":    {Short: "apqvf:o:", Abbrev: true, Long: "append portability quiet verbose format= output= help version"},
		"stdbuf":  {Short: "i:o:e:", Abbrev: true, Long: "input= output= error= help version"},
		"exec":    {Short: "cla:"},
		"command": {Short: "pvV"},
		"builtin": {},
	}
	timeoutOptions = &OptionTable{Short: "k:s:v", Abbrev: true,
		Long: "preserve-status foreground kill-after= signal= verbose help version"}
	ioniceOptions = &OptionTable{Short: "c:n:p:P:tu:hV", Abbrev: true,
		Long: "class= classdata= pid= pgid= ignore uid= help version"}
	chrtOptions = &OptionTable{Short: "abdefiormRpvhVT:P:D:", Abbrev: true,
		Long: "all-tasks batch deadline ext fifo idle other rr reset-on-fork max pid verbose help " +
			"version sched-runtime= sched-period= sched-deadline="}
)

func unwrapSudo(args []Word) wrapped {
	l := sudoOptions.Parse(args)
	var u wrapped
	for _, o := range l.Opts {
		switch {
		case o.Is('e', "edit"), o.Is('l', "list"), o.Is('v', "validate"),
			o.Is('K', "remove-timestamp"), o.Is('V', "version"), o.Is(0, "help"):
			return wrapped{} // sudo runs no command line
		case o.Is('D', "chdir") && o.HasVal:
			u.dir, u.hasDir = o.Val, true
		}
	}
	u.rest = args[skipAssigns(args, l.Rest):]
	return u
}

// unwrapSimple unwraps the wrappers that take options and then a command.
func unwrapSimple(base string, args []Word) wrapped {
	l := wrapperOptions[base].Parse(args)
	switch base {
	case "command":
		if l.Has('v', "") || l.Has('V', "") {
			return wrapped{} // command -v only looks the name up
		}
	case "doas":
		if l.Has('C', "") || l.Has('s', "") {
			return wrapped{} // checks a config, or starts a shell
		}
	}
	return wrapped{rest: args[l.Rest:]}
}

func unwrapTimeout(args []Word) wrapped {
	i := timeoutOptions.Parse(args).Rest
	if i+1 >= len(args) {
		return wrapped{}
	}
	return wrapped{rest: args[i+1:]} // after the duration
}

func unwrapIonice(args []Word) wrapped {
	l := ioniceOptions.Parse(args)
	if l.Has('p', "pid") || l.Has('P', "pgid") || l.Has('u', "uid") {
		return wrapped{} // sets the class of running processes
	}
	return wrapped{rest: args[l.Rest:]}
}

func unwrapChrt(args []Word) wrapped {
	l := chrtOptions.Parse(args)
	i := l.Rest
	if l.Has('p', "pid") || l.Has('m', "max") {
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
