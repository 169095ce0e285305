package guard

import (
	"context"
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// The unknown-code rule: a shell, eval or interpreter running code that
// is only known at run time. Code the command line gives in full (a -c
// string, a heredoc, echo piped into bash, a script it writes with echo)
// is read by shellcmd and its commands are judged like any other; a
// script that was on disk before is run unread, as `bash build.sh` is.

func unknownCode(_ context.Context, _ *dangerCall, c *shellcmd.Command) (string, string) {
	code := c.Code
	if code == nil || generatedSetup(code) {
		return "", ""
	}
	if code.Text.Known {
		return unreadableProgram(c, code)
	}
	lang := "shell"
	instead := "Run the commands directly, written out in the command line; or save the script to a file, read it, and run the file."
	if code.From == "input" {
		instead = "Pass the input to the code as arguments instead (xargs -I{} sh -c 'do \"$1\"' _ {}), so it stays data."
	}
	if code.Lang != "sh" {
		lang = code.Lang
		instead = "Give the program in full on the command line (-c, -e) or in a quoted heredoc, or run a script file."
	}
	return fmt.Sprintf("%s runs %s code that is only known at run time (%s)", quoteCmd(c), lang, codeSource(c, code)), instead
}

// unreadableProgram judges an interpreter program given in full by what
// its scan could not read: a construct it cannot follow (exec of code built
// at run time, a module reached through a variable), a command it runs
// that is not known, or a delete of a path that is not known. Each could
// be anything, so each is refused.
func unreadableProgram(c *shellcmd.Command, code *shellcmd.Code) (string, string) {
	s := code.Scan
	if s == nil {
		return "", ""
	}
	const instead = "Write the program so that the paths it deletes and the commands it runs are plain string literals, or run the commands directly."
	if len(s.Opaque) > 0 {
		o := s.Opaque[0]
		return fmt.Sprintf("%s runs %s code that cannot be checked: %s (`%s`)", quoteCmd(c), code.Lang, o.What, hookenv.OneLine(o.Raw, 60)), instead
	}
	for _, r := range s.Runs {
		if !r.Known {
			return fmt.Sprintf("%s runs %s code that starts a command only known at run time (%s)", quoteCmd(c), code.Lang, r.Call), instead
		}
	}
	for _, e := range s.Effects {
		if e.Op == shellcmd.Delete && !e.Path.Known {
			return fmt.Sprintf("%s runs %s code that deletes a path only known at run time (`%s`)", quoteCmd(c), code.Lang, hookenv.OneLine(e.Path.Raw, 60)), instead
		}
	}
	return "", ""
}

// codeSource says where code comes from, for a denial.
func codeSource(c *shellcmd.Command, code *shellcmd.Code) string {
	raw := hookenv.OneLine(code.Text.Raw, 80)
	switch code.From {
	case "-c", "-e", "-E", "-r", "-p":
		return fmt.Sprintf("its %s string, %s", code.From, raw)
	case "eval":
		return "eval of " + raw
	case "pipe":
		return "piped in from `" + raw + "`"
	case "file", "source":
		return raw + ", which this command line writes with text that cannot be known"
	case "<(...)":
		return "the output of " + raw
	case "heredoc", "here-string":
		return "a " + code.From + " with substitutions in it"
	case "awk":
		return "its program " + raw + " runs commands (system(), or a pipe to or from a command) built at run time"
	case "sed":
		return "its script " + raw + " runs commands (the e command, or the e flag of s///) taken from its input"
	case "command name":
		return "its program and arguments are " + raw + ", which this command line sets from a command's output or its input"
	case "parallel input":
		return "command lines parallel reads from its input"
	case "parallel option":
		return "parallel's " + raw + " changes what its commands are, or where they run, in ways not followed here"
	case "input":
		return "code built from the input of xargs or parallel, " + raw
	}
	return code.From + " " + raw
}

// setupGenerators print shell code that sets up the tool itself
// (eval "$(ssh-agent -s)", eval "$(pyenv init -)"): the code is the
// program's own, as a script on disk is. Each maps to the subcommands
// that print it ("" for any).
var setupGenerators = &lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"ssh-agent": {""}, "dircolors": {""}, "keychain": {""},
		"pyenv": {"init", "virtualenv-init"}, "rbenv": {"init"}, "nodenv": {"init"}, "jenv": {"init"}, "goenv": {"init"},
		"direnv": {"hook", "export"}, "brew": {"shellenv"}, "conda": {"shell.bash", "shell.zsh", "shell.posix"},
		"opam": {"env", "config"}, "fnm": {"env"}, "mise": {"activate", "env"}, "zoxide": {"init"},
		"starship": {"init"}, "luarocks": {"path"}, "kubectl": {"completion"}, "gh": {"completion"}, "helm": {"completion"},
	}
}}

// generatedSetup reports code that is the whole output of setup
// generators: eval "$(pyenv init -)", source <(kubectl completion bash).
func generatedSetup(code *shellcmd.Code) bool {
	if code.Lang != "sh" || (code.From != "eval" && code.From != "<(...)" && code.From != "source") || len(code.Text.Inner) == 0 {
		return false
	}
	raw := strings.Trim(code.Text.Raw, `"`)
	whole := (strings.HasPrefix(raw, "$(") || strings.HasPrefix(raw, "<(")) && strings.HasSuffix(raw, ")") ||
		strings.HasPrefix(raw, "`") && strings.HasSuffix(raw, "`")
	if !whole {
		return false
	}
	for _, in := range code.Text.Inner {
		subs, ok := setupGenerators.Get()[in.Base()]
		if !ok || len(in.Wrappers) != len(code.Text.Inner[0].Wrappers) {
			return false
		}
		first := ""
		if len(in.Args) > 0 && in.Args[0].Known {
			first = in.Args[0].Value
		}
		match := false
		for _, s := range subs {
			match = match || s == "" || s == first
		}
		if !match {
			return false
		}
	}
	return true
}
