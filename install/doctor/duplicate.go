package doctor

import "strings"

// ProgramName is the base name of massgen-hook's binary.
const ProgramName = "massgen-hook"

// Subcommand returns the massgen-hook subcommand a command runs, when it
// is one command whose program is named massgen-hook: its first operand,
// global flags skipped.
func (c Command) Subcommand() (string, bool) {
	var run []Program
	for _, p := range c.Programs {
		if !p.Builtin {
			run = append(run, p)
		}
	}
	if len(run) != 1 || run[0].Base() != ProgramName {
		return "", false
	}
	args := run[0].Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--project-dir" || a == "--config":
			i++ // the flag's value
		case strings.HasPrefix(a, "-"):
		default:
			return a, true
		}
	}
	return "", true
}

// Identity is what a handler runs, for telling duplicates apart: a
// massgen-hook subcommand, else the files and arguments of its programs
// when they are all known, else "" (compare the command text).
func (c Command) Identity() string {
	if sub, ok := c.Subcommand(); ok {
		return ProgramName + " " + sub
	}
	var parts []string
	for _, p := range c.Programs {
		file := p.Path
		if p.Builtin {
			file = p.Value
		}
		if file == "" {
			return ""
		}
		parts = append(parts, file+"\x00"+strings.Join(p.Args, "\x00"))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\x01")
}
