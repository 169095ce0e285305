package guard

import (
	"context"
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// The pipe-to-shell rule: code downloaded and run unread.

var downloaders = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true}
}}

// interpreters run a script from stdin when given no script operand. Each
// maps to the short options that give the program on the command line
// instead (sh -c, python -c/-m, perl -e, node -e/-p, php -r).
var interpreters = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"sh": "c", "bash": "c", "zsh": "c", "dash": "c", "ksh": "c", "mksh": "c", "fish": "c",
		"python": "cm", "python3": "cm", "python2": "cm", "perl": "eE", "ruby": "e", "node": "ep", "php": "r",
	}
}}

func pipeToShell(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	base := c.Base()
	_, isInterpreter := interpreters.Get()[base]
	runsCode := isInterpreter || base == "eval" || base == "source" || base == "."
	if !runsCode {
		return "", ""
	}
	// An argument built from a download: bash <(curl ...), sh -c "$(curl ...)", eval "$(wget ...)".
	for _, a := range c.Args {
		for _, in := range a.Inner {
			if downloaders.Get()[in.Base()] {
				return fmt.Sprintf("%s runs code downloaded by %s without anyone reading it", quoteCmd(c), in.Base()), instead
			}
		}
	}
	// A pipeline: curl ... | sh.
	if c.Stage == 0 || !isInterpreter || !readsScriptFromStdin(c, interpreters.Get()[base]) {
		return "", ""
	}
	for _, o := range d.script.Commands {
		if o.Pipeline == c.Pipeline && o.Stage < c.Stage && downloaders.Get()[o.Base()] {
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
