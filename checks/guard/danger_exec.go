package guard

import (
	"context"
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// The pipe-to-shell rule: code downloaded and run unread.

// downloader says whether program fetches from the network.
func downloader(program string) bool {
	switch program {
	case "curl", "wget", "fetch", "aria2c":
		return true
	}
	return false
}

// codeOptions is, for a program that runs a script from stdin when given
// no script operand, the short options that give the program on the
// command line instead (sh -c, python -c/-m, perl -e, node -e/-p, php -r);
// ok is false for any other program.
func codeOptions(program string) (opts string, ok bool) {
	switch program {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish":
		return "c", true
	case "python", "python3", "python2":
		return "cm", true
	case "perl":
		return "eE", true
	case "ruby":
		return "e", true
	case "node":
		return "ep", true
	case "php":
		return "r", true
	}
	return "", false
}

func pipeToShell(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	base := c.Base()
	opts, isInterpreter := codeOptions(base)
	runsCode := isInterpreter || base == "eval" || base == "source" || base == "."
	if !runsCode {
		return "", ""
	}
	// An argument built from a download: bash <(curl ...), sh -c "$(curl ...)", eval "$(wget ...)".
	for _, a := range c.Args {
		for _, in := range a.Inner {
			if downloader(in.Base()) {
				return fmt.Sprintf("%s runs code downloaded by %s without anyone reading it", quoteCmd(c), in.Base()), instead
			}
		}
	}
	// A pipeline: curl ... | sh.
	if c.Stage == 0 || !isInterpreter || !readsScriptFromStdin(c, opts) {
		return "", ""
	}
	for _, o := range d.script.Commands {
		if o.Pipeline == c.Pipeline && o.Stage < c.Stage && downloader(o.Base()) {
			return fmt.Sprintf("%s | %s runs code downloaded by %s without anyone reading it", o.Base(), base, o.Base()), instead
		}
	}
	return "", ""
}

const instead = "Download the script to a file, read it, and run it only if it is what you expect (or ask the user to)."

// readsScriptFromStdin reports whether an interpreter takes its program
// from stdin: no program option (programFlags) and no script operand, or
// an explicit "-" or -s. Other options, such as a shell's -e, -x or
// -o pipefail, do not change where the program comes from.
func readsScriptFromStdin(c *shellcmd.Command, programFlags string) bool {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Known {
			return false
		}
		v := a.Value
		switch {
		case v == "-" || v == "-s" || v == "--":
			return true
		case strings.HasPrefix(v, "--"):
			if v == "--eval" || v == "--print" || v == "--command" {
				return false
			}
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.ContainsAny(v[1:], programFlags) {
				return false
			}
			if programFlags == "c" && strings.ContainsAny(v[len(v)-1:], "oO") {
				i++ // -o pipefail, -euo pipefail: the next word is the option's name
			}
		default:
			return false // a script file
		}
	}
	return true
}
