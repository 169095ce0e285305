package shellcmd

// Writers of every operand: GNU coreutils 9 option tables.
var (
	teeOptions = &OptionTable{Short: "aip", Abbrev: true, Permute: true,
		Long: "append ignore-interrupts output-error[=] help version"}
	touchOptions = &OptionTable{Short: "acd:fhmr:t:", Abbrev: true, Permute: true,
		Long: "no-create date= no-dereference reference= time= help version"}
	mkdirOptions = &OptionTable{Short: "m:pvZ", Abbrev: true, Permute: true,
		Long: "mode= parents verbose context[=] help version"}
	truncateOptions = &OptionTable{Short: "cor:s:", Abbrev: true, Permute: true,
		Long: "no-create io-blocks reference= size= help version"}
)

func teeEffects(c *Command) []Effect {
	return all(Write, false, teeOptions.Parse(c.Args).Operands)
}

// touch creates its files, or changes their times.
func touchEffects(c *Command) []Effect {
	return all(Write, false, touchOptions.Parse(c.Args).Operands)
}

func mkdirEffects(c *Command) []Effect {
	return all(Write, false, mkdirOptions.Parse(c.Args).Operands)
}

func truncateEffects(c *Command) []Effect {
	return all(Write, false, truncateOptions.Parse(c.Args).Operands)
}
