package shellcmd

import (
	"slices"
	"strings"
)

// optSpec says which options of a command take an argument: that is what
// tells an option's argument from an operand (`sudo -u root rm` runs rm,
// not root).
type optSpec struct {
	short    string   // short options taking an argument, attached (-uroot) or next (-u root)
	optional string   // short options whose argument can only be attached (sed -i.bak)
	digits   string   // short options followed by optional attached digits (perl -l, -0777)
	long     []string // long options taking an argument, as --opt=ARG or --opt ARG
}

// option is one option found by scanOpts.
type option struct {
	short  byte   // the letter, or 0 for a long option
	long   string // the name without "--", or "" for a short option
	val    Word
	hasVal bool
}

// is reports whether o is the short option s or the long option l (0 and
// "" match nothing).
func (o option) is(s byte, l string) bool {
	return (s != 0 && o.short == s) || (l != "" && o.long == l)
}

// scanOpts reads options the way getopt does. With permute (GNU style)
// options may follow operands and every operand is returned; without (the
// style of commands that run commands), scanning stops at the first
// operand and rest is its index. "--" ends the options either way. A word
// that starts with "-" but is not known is taken for an option we cannot
// read.
func scanOpts(args []Word, spec *optSpec, permute bool) (opts []option, operands []Word, rest int) {
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.Value
		if len(v) < 2 || v[0] != '-' {
			if !permute {
				return opts, nil, i
			}
			operands = append(operands, a)
			i++
			continue
		}
		i++
		switch {
		case !a.Known:
			opts = append(opts, option{})
		case v == "--":
			if permute {
				operands = append(operands, args[i:]...)
				i = len(args)
			}
			return opts, operands, i
		case v[1] == '-':
			name, val, eq := strings.Cut(v[2:], "=")
			o := option{long: name}
			if eq {
				o.val, o.hasVal = part(a, val), true
			} else if i < len(args) && slices.Contains(spec.long, name) {
				o.val, o.hasVal = args[i], true
				i++
			}
			opts = append(opts, o)
		default:
			for j := 1; j < len(v); j++ {
				o := option{short: v[j]}
				switch {
				case strings.IndexByte(spec.short, v[j]) >= 0:
					if j+1 < len(v) {
						o.val, o.hasVal = part(a, v[j+1:]), true
					} else if i < len(args) {
						o.val, o.hasVal = args[i], true
						i++
					}
					j = len(v)
				case strings.IndexByte(spec.optional, v[j]) >= 0:
					if j+1 < len(v) {
						o.val, o.hasVal = part(a, v[j+1:]), true
					}
					j = len(v)
				case strings.IndexByte(spec.digits, v[j]) >= 0:
					k := j + 1
					for k < len(v) && '0' <= v[k] && v[k] <= '9' {
						k++
					}
					if k > j+1 {
						o.val, o.hasVal = part(a, v[j+1:k]), true
					}
					j = k - 1
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, operands, i
}

// part returns the word for s, a piece of a's value (an attached option
// argument).
func part(a Word, s string) Word {
	return Word{Raw: a.Raw, Value: s, Known: a.Known, Glob: a.Glob, Inner: a.Inner}
}

// has reports whether any option is s or l.
func has(opts []option, s byte, l string) bool {
	for _, o := range opts {
		if o.is(s, l) {
			return true
		}
	}
	return false
}

// vals returns the arguments of the options s or l.
func vals(opts []option, s byte, l string) []Word {
	var out []Word
	for _, o := range opts {
		if o.is(s, l) && o.hasVal {
			out = append(out, o.val)
		}
	}
	return out
}
