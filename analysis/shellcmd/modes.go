package shellcmd

import "strings"

// Mode and owner changers: GNU coreutils 9 option tables.
var (
	chmodOptions = &OptionTable{Short: "cfvR", Abbrev: true, Permute: true,
		Long: "changes silent quiet verbose dereference no-dereference no-preserve-root preserve-root " +
			"reference= recursive help version"}
	chownOptions = &OptionTable{Short: "cfvhRHLP", Abbrev: true, Permute: true,
		Long: "changes silent quiet verbose dereference no-dereference from= no-preserve-root " +
			"preserve-root reference= recursive help version"}
)

// chmod changes the mode of its files, with -R of everything below them.
func chmodEffects(c *Command) []Effect {
	_, files, l := chmodLine(c.Args)
	return all(Meta, l.Has('R', "recursive"), files)
}

// ChmodMode returns the mode a chmod command sets (a symbolic or octal
// mode, or "" with --reference) and whether it recurses; ok is false when
// c is not chmod.
func (c *Command) ChmodMode() (mode Word, recursive, ok bool) {
	if c.Base() != "chmod" {
		return Word{}, false, false
	}
	mode, _, l := chmodLine(c.Args)
	return mode, l.Has('R', "recursive"), true
}

// chmodLine reads chmod's arguments. A word like -x or -w is a mode, not
// an option, so the words that are not chmod's options are set aside
// before the table reads the rest; the first operand is the mode unless
// --reference gives one.
func chmodLine(args []Word) (mode Word, files []Word, l Line) {
	var opts, modes []Word
	ended := false
	for _, a := range args {
		v := a.Value
		switch {
		case ended || !a.Known || len(v) < 2 || v[0] != '-':
		case v == "--":
			ended = true
		case v[1] != '-' && strings.Trim(v[1:], "cfvR") != "":
			modes = append(modes, a) // -x, -w, -rwx: a mode
			continue
		}
		opts = append(opts, a)
	}
	l = chmodOptions.Parse(opts)
	files = l.Operands
	switch {
	case len(modes) > 0:
		mode = modes[0]
	case !l.Has(0, "reference") && len(files) > 0:
		mode, files = files[0], files[1:]
	}
	return mode, files, l
}

// chown and chgrp change the owner of their files (after the owner
// operand, unless --reference gives it).
func chownEffects(c *Command) []Effect {
	l := chownOptions.Parse(c.Args)
	files := l.Operands
	if !l.Has(0, "reference") && len(files) > 0 {
		files = files[1:]
	}
	return all(Meta, l.Has('R', "recursive"), files)
}
