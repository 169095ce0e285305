package shellcmd

import "strings"

// dd reads if=PATH and writes of=PATH (the last of each wins, as in dd);
// without of= it prints what it reads.
func ddEffects(c *Command) []Effect {
	in, out := ddOperand(c.Args, "if="), ddOperand(c.Args, "of=")
	if len(out) > 0 {
		return all(Write, false, out)
	}
	return all(Read, false, in)
}

// ddOperand returns the value of dd's key= operand.
func ddOperand(args []Word, key string) []Word {
	for i := len(args) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(args[i].Value, key); ok {
			return []Word{part(args[i], v)}
		}
	}
	return nil
}
