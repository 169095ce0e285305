package shellcmd

import "strings"

// dd reads if=PATH and writes of=PATH (the last of each wins, as in dd):
// what it reads is printed, or copied to of=.
func ddEffects(c *Command) []Effect {
	return append(all(Write, false, ddOperand(c.Args, "of=")), all(Read, false, ddOperand(c.Args, "if="))...)
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
