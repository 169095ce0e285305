package shellcmd

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// wrapped is what a wrapper command runs.
type wrapped struct {
	rest   []Word // the command line it runs; empty when it runs none
	env    []Word // the NAME=VALUE words it puts in that command's environment
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
	var code *Code
loop:
	for len(words) > 0 && words[0].Known {
		base := path.Base(words[0].Value)
		args := words[1:]
		var u wrapped
		switch base {
		case "find":
			w.find(words, redirs, c, wrappers, cmdDir)
			return dir
		case "xargs":
			w.xargs(args, redirs, c, appendClip(wrappers, "xargs"), cmdDir)
			return dir
		case "parallel":
			if w.parallel(args, redirs, c, appendClip(wrappers, "parallel"), cmdDir) {
				return dir
			}
		case "eval":
			d, ok, cd := w.eval(args, redirs, c, wrappers, cmdDir)
			if ok {
				if ownShell {
					return d // eval runs in this shell
				}
				return dir
			}
			code = cd
		case "source", ".":
			if len(args) > 0 {
				d, ok, cd := w.source(base, args[0], redirs, c, wrappers, cmdDir)
				if ok {
					if ownShell {
						return d
					}
					return dir
				}
				code = cd
			}
		case "busybox":
			u = unwrapBusybox(args)
		case "sudo":
			u = unwrapSudo(args)
		case "env":
			u = w.unwrapEnv(args, c, cmdDir)
		case "doas", "pkexec", "nice", "nohup", "setsid", "time", "stdbuf", "exec", "command", "builtin",
			"noglob", "nocorrect", "-":
			u = unwrapSimple(base, args)
		case "repeat":
			// zsh's repeat N COMMAND, the short form of a loop.
			if len(args) > 1 {
				u = wrapped{rest: args[1:]}
			}
		case "emulate":
			if w.zsh && emulateRuns(args) {
				w.refuse("it runs code through zsh's emulate -c, which the guards do not read; run the commands themselves")
				return dir
			}
		case "timeout":
			u = unwrapTimeout(args)
		case "ionice":
			u = unwrapIonice(args)
		case "chrt":
			u = unwrapChrt(args)
		case "flock":
			u = unwrapFlock(args)
		case "taskset":
			u = unwrapTaskset(args)
		case "unshare", "nsenter":
			u = unwrapNamespace(base, args)
		case "script":
			u = unwrapScript(args)
		case "make", "gmake":
			rest, cd := makeCode(args)
			if cd != nil {
				code = cd
			}
			if len(rest) == 0 {
				break loop
			}
			u = wrapped{rest: rest}
		case "pnpm", "yarn", "npm", "npx":
			if u = unwrapPackageRunner(base, args); len(u.rest) == 0 {
				break loop
			}
		default:
			if isShell(base) {
				done, cd := w.shell(base, args, redirs, c, wrappers, cmdDir)
				if done {
					return dir
				}
				code = cd
			} else if lang := interpreterLang(base); lang != "" {
				code = w.interpreterProgram(lang, args, c, cmdDir)
			} else if cd := editorCode(base, args); cd != nil {
				code = cd
			} else if base == "git" {
				w.gitLines(words, redirs, c, wrappers, cmdDir)
			} else if strings.Contains(words[0].Value, "/") {
				// A program named by its path: a script this line wrote is
				// read as the code it is.
				if done, cd := w.runFile(words[0], redirs, c, wrappers, cmdDir); done {
					return dir
				} else {
					code = cd
				}
			}
			break loop
		}
		if len(u.rest) == 0 {
			break
		}
		if u.hasDir {
			cmdDir = chdir(cmdDir, u.dir)
		}
		if len(u.env) > 0 {
			c.env = appendClip(c.env, u.env...)
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
	cmd := w.emitCode(words[0], words[1:], redirs, slices.Clip(wrappers), c, cmdDir, code)
	if code != nil && code.Lang != "sh" {
		w.interpreted(cmd, c, cmdDir)
	}
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
	case base == "source" || base == ".":
		// A script on disk may set any variable.
		for n := range w.vars {
			w.setVar(n, Word{})
		}
		w.unknownVars = true
	case setter(base) && base != "export" && base != "declare" && base != "local" && base != "typeset" && base != "readonly":
		for _, a := range cmd.Args {
			if a.Known && syntax.ValidName(a.Value) {
				w.setVar(a.Value, Word{})
			}
			if !a.Known {
				w.unknownVars = true
			}
		}
	case base == "alias":
		w.defineAliases(cmd.Args)
	case w.cdFuncs[base]:
		return ""
	}
	return dir
}

// unwrapBusybox: busybox APPLET ARGS runs the applet; its own options
// (--list, --install, --help) run none.
func unwrapBusybox(args []Word) wrapped {
	if len(args) == 0 || !args[0].Known || strings.HasPrefix(args[0].Value, "-") {
		return wrapped{}
	}
	return wrapped{rest: args}
}

// Option tables of the wrappers, from sudo 1.9, GNU coreutils 9,
// findutils 4.9, util-linux 2.38, OpenBSD doas and polkit's manuals.
var (
	sudoOptions = &OptionTable{Short: "AbBEeHiKklnPSsVvh::D:C:g:p:R:r:t:T:U:u:", Abbrev: true,
		Long: "askpass background bell close-from= chdir= preserve-env[=] edit group= set-home help " +
			"host= login remove-timestamp reset-timestamp list non-interactive preserve-groups prompt= " +
			"chroot= role= stdin shell type= command-timeout= other-user= user= version validate"}
	wrapperOptions = optionTables{
		{"doas", &OptionTable{Short: "nsu:C:L"}},
		{"pkexec", &OptionTable{Abbrev: true, Long: "user= disable-internal-agent keep-cwd help version"}},
		{"nice", &OptionTable{Short: "n:", Abbrev: true, Long: "adjustment= help version"}},
		{"nohup", &OptionTable{Abbrev: true, Long: "help version"}},
		{"setsid", &OptionTable{Short: "cfwhV", Abbrev: true, Long: "ctty fork wait help version"}},
		{"time", &OptionTable{Short: "apqvf:o:", Abbrev: true, Long: "append portability quiet verbose format= output= help version"}},
		{"stdbuf", &OptionTable{Short: "i:o:e:", Abbrev: true, Long: "input= output= error= help version"}},
		{"exec", &OptionTable{Short: "cla:"}},
		{"command", &OptionTable{Short: "pvV"}},
		{"builtin", &OptionTable{}},
		{"noglob", &OptionTable{}},    // zsh: the command's words are not globbed
		{"nocorrect", &OptionTable{}}, // zsh: the command's name is not spell-checked
		{"-", &OptionTable{}},         // zsh: runs the command as a login shell would
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
	end := skipAssigns(args, l.Rest)
	u.env, u.rest = args[l.Rest:end], args[end:]
	return u
}

// unwrapSimple unwraps the wrappers that take options and then a command.
func unwrapSimple(base string, args []Word) wrapped {
	l := wrapperOptions.get(base).Parse(args)
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
// find. {} stands for what find finds: each starting point, so that
// `-exec rm -rf {} +` is judged as deleting them (as trees, when the
// command deletes recursively); when the only test that narrows it is one
// -name or -iname, the pattern ROOT/**/NAME (`find . -name '*.o' -exec rm
// {} \;` removes *.o files, not "."). -execdir runs in each match's directory,
// so its Dir is unknown and {} is the starting point made absolute.
func (w *walker) find(words []Word, redirs []Redirect, c ctx, wrappers []string, dir string) {
	w.emit(words[0], words[1:], redirs, slices.Clip(wrappers), c, dir)
	args := words[1:]
	roots, expr := findParts(args)
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if !a.Known {
			continue
		}
		execDir := dir
		switch a.Value {
		case "-exec", "-ok":
		case "-execdir", "-okdir":
			execDir = ""
		default:
			i += findArgs(a.Value)
			continue
		}
		start := i + 1
		end := execEnd(expr, start)
		if end > start {
			ec := c
			ec.wrappers = appendClip(wrappers, "find -exec")
			ec.stdin = nil
			name, named := findName(expr[:i])
			for _, root := range roots {
				found := root
				if named && root.Known {
					// Only what the name matches, at any depth below.
					found = findMatches(root, name)
				}
				if execDir == "" {
					if p, ok := absPath(root, dir); ok {
						found = Word{Raw: root.Raw, Value: p, Known: true}
					} else if root.Known {
						found = Word{Raw: root.Raw, Value: root.Value}
					}
				}
				cmd := make([]Word, end-start)
				for j, wd := range expr[start:end] {
					cmd[j] = wd
					if wd.Known && strings.Contains(wd.Value, "{}") {
						cmd[j] = substitute(wd, "{}", Word{Raw: "{}", Value: found.Value, Known: found.Known, Temp: found.Temp, Glob: found.Glob})
						cmd[j].Raw = wd.Raw
						// {} alone is any file find meets; in a longer word
						// ({}.bak) it names paths of its own.
						cmd[j].Below = !named && wd.Value == "{}"
					}
				}
				w.run(cmd, nil, ec, execDir)
			}
		}
		i = end
	}
}

// findName returns the pattern of the one -name or -iname test of a find
// expression made only of tests joined by "and", or false. An -iname
// pattern comes back matching either case.
func findName(expr []Word) (string, bool) {
	name, n := "", 0
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if !a.Known {
			return "", false
		}
		switch a.Value {
		case "-o", "-or", "!", "-not", ",", "(", ")", "-path", "-ipath", "-wholename", "-iwholename",
			"-regex", "-iregex", "-exec", "-execdir", "-ok", "-okdir":
			return "", false
		case "-name", "-iname":
			if i+1 >= len(expr) || !expr[i+1].Known || !findNarrows(expr[i+1].Value) {
				return "", false
			}
			name, n = expr[i+1].Value, n+1
			if a.Value == "-iname" {
				name = caseless(name)
			}
		}
		i += findArgs(a.Value)
	}
	return name, n == 1
}

// findNarrows reports whether a -name pattern selects fewer files than
// all: it has a character of its own (`*.pyc`, not `*` or `?*`), no
// slash (which -name never matches) and no bracket or escape, which
// caseless could not rewrite.
func findNarrows(pat string) bool {
	if strings.ContainsAny(pat, "/[]\\") {
		return false
	}
	return strings.Trim(pat, "*?") != ""
}

// caseless rewrites a -name pattern free of brackets so that it matches
// as -iname does, whatever the case: `*.ENV` becomes `*.[eE][nN][vV]`.
func caseless(pat string) string {
	var b strings.Builder
	for _, r := range pat {
		lo, up := unicode.ToLower(r), unicode.ToUpper(r)
		if lo == up {
			b.WriteRune(r)
			continue
		}
		b.WriteString("[" + string(lo) + string(up) + "]")
	}
	return b.String()
}
