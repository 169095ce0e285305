package shellcmd

import (
	"strings"
	"sync"
)

// OptionTable is a command's option table, written as its manual lists it, so
// that its command line is read the way the command itself reads it:
// bundled short options (-rf), attached and separate arguments (-uroot,
// -u root, --user=root, --user root), and, for programs built on GNU
// getopt_long or git's parse-options, any unambiguous prefix of a long
// option (--har is --hard). A table that is not complete cannot resolve
// prefixes correctly: list every option, not only those a rule looks at.
type OptionTable struct {
	// Short lists the short options in getopt's notation: a letter alone
	// takes no argument, "x:" takes one (attached or the next word), "x::"
	// takes one only when attached (sed -i.bak).
	Short string
	// Long lists the long options, separated by spaces: "name" takes no
	// argument, "name=" takes one (--name=ARG or --name ARG), "name[=]"
	// takes one only as --name=ARG.
	Long string
	// Digits lists the short options followed by optional attached
	// digits (perl -l, -0777).
	Digits string
	// Abbrev: a unique prefix of a long option is that option, as GNU
	// getopt_long and git's parse-options read them.
	Abbrev bool
	// Negate: every long option also has a "no-" form, and a "no-" option
	// a form without it (git's parse-options).
	Negate bool
	// Permute: options may follow operands (GNU). Otherwise the first
	// operand ends the options (POSIX, and commands that run commands).
	Permute bool

	longOnce sync.Once // long and names, read
	long     map[string]arity
	names    []string // long names in table order, for prefix search
}

type arity uint8

const (
	noOption arity = iota
	noArg
	needArg     // takes an argument: attached or the next word
	attachedArg // takes an argument only when attached
)

// shortArity is what the table says of the short option c. The table is
// read where it is, on each lookup (a few dozen bytes): compiled into an
// array of the table's own, each table a process touched wrote a page of
// memory of its own, a fault that cost more than every lookup.
func (o *OptionTable) shortArity(c byte) arity {
	i := strings.IndexByte(o.Short, c) // each letter once: TestShortOptionsListedOnce
	if i < 0 || c == ':' {
		return noOption
	}
	switch rest := o.Short[i+1:]; {
	case strings.HasPrefix(rest, "::"):
		return attachedArg
	case strings.HasPrefix(rest, ":"):
		return needArg
	}
	return noArg
}

// compileLong reads the table's long options once, when a command line
// first holds one: most lines hold none, and a table of a hundred long
// options (grep's, git's) is a map of a hundred entries to build, in a
// process that judges one command.
func (o *OptionTable) compileLong() {
	o.longOnce.Do(func() {
		o.long = map[string]arity{}
		add := func(name string, a arity) {
			if _, dup := o.long[name]; !dup {
				o.names = append(o.names, name)
			}
			o.long[name] = a
		}
		for _, f := range strings.Fields(o.Long) {
			name, a := f, noArg
			switch {
			case strings.HasSuffix(f, "[=]"):
				name, a = strings.TrimSuffix(f, "[=]"), attachedArg
			case strings.HasSuffix(f, "="):
				name, a = strings.TrimSuffix(f, "="), needArg
			}
			add(name, a)
		}
		if o.Negate {
			for _, name := range append([]string(nil), o.names...) {
				if rest, ok := strings.CutPrefix(name, "no-"); ok {
					add(rest, noArg)
				} else if o.long[name] == noArg {
					add("no-"+name, noArg)
				}
			}
		}
	})
}

// Opt is one option as the command reads it.
type Opt struct {
	Short byte   // the letter, or 0 for a long option
	Long  string // the option's full name without "--" ("" for a short one)
	// Also lists the other options an ambiguous prefix could mean (--f
	// of a table with --force and --fixup): a rule that asks for any of
	// them gets true, so an abbreviation never hides an option.
	Also   []string
	Val    Word
	HasVal bool
	// Unknown marks an option the table does not list, or a word that
	// looks like an option but is not known: the command may read it in a
	// way we cannot tell.
	Unknown bool
	// At is the index, in the words parsed, of the word the option is in.
	At int
}

// Is reports whether o is the short option s or the long option l (0 and
// "" match nothing).
func (o Opt) Is(s byte, l string) bool {
	if s != 0 && o.Short == s {
		return true
	}
	if l == "" {
		return false
	}
	if o.Long == l {
		return true
	}
	for _, a := range o.Also {
		if a == l {
			return true
		}
	}
	return false
}

// Line is a command line read against an option table.
type Line struct {
	Opts     []Opt
	Operands []Word
	// Rest is the index of the first argument not read as an option: for
	// a table without Permute, where the operands (or a command to run)
	// begin.
	Rest int
	// DashAt is, for a table with Permute, how many operands came before
	// a "--" (git checkout REV -- PATH reads them differently); -1 when
	// there was none.
	DashAt int
}

// Has reports whether any option is s or l.
func (l Line) Has(s byte, long string) bool {
	for _, o := range l.Opts {
		if o.Is(s, long) {
			return true
		}
	}
	return false
}

// On reports whether the option s or long is in effect: given, and not
// turned off by its "no-" form (or, for a "no-" option, the form without
// it) later on the line, as git reads --force --no-force. A prefix that
// could be the opposite or something else does not turn it off.
func (l Line) On(s byte, long string) bool {
	off := "no-" + long
	if rest, ok := strings.CutPrefix(long, "no-"); ok {
		off = rest // --no-verify is turned off by --verify
	}
	on := false
	for _, o := range l.Opts {
		switch {
		case o.Is(s, long):
			on = true
		case long != "" && o.Long == off && len(o.Also) == 0:
			on = false
		}
	}
	return on
}

// Vals returns the arguments of the options s or l, in order.
func (l Line) Vals(s byte, long string) []Word {
	var out []Word
	for _, o := range l.Opts {
		if o.Is(s, long) && o.HasVal {
			out = append(out, o.Val)
		}
	}
	return out
}

// Unknown reports whether an option could not be read.
func (l Line) Unknown() bool {
	for _, o := range l.Opts {
		if o.Unknown {
			return true
		}
	}
	return false
}

// maxCluster is how many options of one cluster of short options (-rn)
// Parse makes room for before it reads them: real clusters are short.
const maxCluster = 8

// Parse reads args as the command reads its command line. "--" ends the
// options; a lone "-" is an operand (stdin).
func (o *OptionTable) Parse(args []Word) Line {
	l := Line{DashAt: -1}
	// Room for the options the words that start with a dash hold: a long
	// option, or one per letter of a cluster (-rn), counting at most
	// maxCluster letters of a word: an option's value or a quoted text may
	// start with a dash too, and a word of 200,000 characters must not
	// reserve 200,000 options. An Opt is 144 bytes, and growing the slice
	// one option at a time cost more than reading them.
	dashed := 0
	for _, a := range args {
		switch v := a.Value; {
		case len(v) > 2 && v[0] == '-' && v[1] == '-':
			dashed++
		case len(v) > 1 && v[0] == '-':
			dashed += min(len(v)-1, maxCluster)
		}
	}
	if dashed > 0 {
		l.Opts = make([]Opt, 0, dashed)
	}
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.Value
		if len(v) < 2 || v[0] != '-' {
			if !o.Permute {
				break
			}
			l.Operands = append(l.Operands, a)
			i++
			continue
		}
		i++
		switch {
		case !a.Known:
			l.Opts = append(l.Opts, Opt{Unknown: true, At: i - 1})
		case v == "--":
			if o.Permute {
				l.DashAt = len(l.Operands)
				l.Operands = append(l.Operands, args[i:]...)
				i = len(args)
			}
			l.Rest = i
			return l
		case v[1] == '-':
			at := i - 1
			var opt Opt
			opt, i = o.longOpt(a, args, i)
			opt.At = at
			l.Opts = append(l.Opts, opt)
		default:
			i = o.shortOpts(a, args, i, &l)
		}
	}
	l.Rest = i
	return l
}

// longOpt reads the long option a (args[i] is the word after it) and
// returns it with the index of the next word.
func (o *OptionTable) longOpt(a Word, args []Word, i int) (Opt, int) {
	o.compileLong()
	name, val, eq := strings.Cut(a.Value[2:], "=")
	opt := Opt{Long: name}
	ar, ok := o.long[name]
	if !ok && o.Abbrev {
		var cands []string
		for _, n := range o.names {
			if strings.HasPrefix(n, name) {
				cands = append(cands, n)
			}
		}
		if len(cands) > 0 {
			opt.Long, opt.Also, ar, ok = cands[0], cands[1:], o.long[cands[0]], true
			for _, c := range cands[1:] {
				ar = max(ar, o.long[c]) // the widest reading: an argument may follow
			}
		}
	}
	if !ok {
		opt.Unknown = true
	}
	switch {
	case eq:
		opt.Val, opt.HasVal = part(a, val), true
	case ar == needArg && i < len(args):
		opt.Val, opt.HasVal = args[i], true
		i++
	}
	return opt, i
}

// shortOpts reads the cluster of short options a (args[i] is the word
// after it) into l and returns the index of the next word.
func (o *OptionTable) shortOpts(a Word, args []Word, i int, l *Line) int {
	v := a.Value
	at := i - 1
	for j := 1; j < len(v); j++ {
		c := v[j]
		opt := Opt{Short: c, At: at}
		switch ar := o.shortArity(c); {
		case strings.IndexByte(o.Digits, c) >= 0:
			k := j + 1
			for k < len(v) && '0' <= v[k] && v[k] <= '9' {
				k++
			}
			if k > j+1 {
				opt.Val, opt.HasVal = part(a, v[j+1:k]), true
			}
			j = k - 1
		case ar == needArg:
			if j+1 < len(v) {
				opt.Val, opt.HasVal = part(a, v[j+1:]), true
			} else if i < len(args) {
				opt.Val, opt.HasVal = args[i], true
				i++
			}
			j = len(v)
		case ar == attachedArg:
			if j+1 < len(v) {
				opt.Val, opt.HasVal = part(a, v[j+1:]), true
			}
			j = len(v)
		case ar == noOption:
			opt.Unknown = true
		}
		l.Opts = append(l.Opts, opt)
	}
	return i
}

// part returns the word for s, a piece of a's value (an attached option
// argument).
func part(a Word, s string) Word {
	return Word{Raw: a.Raw, Value: s, Known: a.Known, Glob: a.Glob, Inner: a.Inner, spliced: a.spliced}
}

// optionTables are option tables by name (a command, or "command verb").
// Declared as a package-level composite literal of constant tables, a list
// is laid out by the linker: it costs nothing at start-up and allocates
// nothing when used, where a map is built, and every table in it
// allocated, on first use. The lists are a few dozen long.
type optionTables []namedOptions

type namedOptions struct {
	name  string
	table *OptionTable
}

// get is the table named name, nil if there is none.
func (ts optionTables) get(name string) *OptionTable {
	for i := range ts {
		if ts[i].name == name {
			return ts[i].table
		}
	}
	return nil
}
