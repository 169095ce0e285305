package shellcmd

// Removers: GNU coreutils 9 option tables.
var (
	rmOptions = &OptionTable{Short: "fiIrRdv", Abbrev: true, Permute: true,
		Long: "force interactive[=] one-file-system no-preserve-root preserve-root[=] recursive dir verbose help version"}
	rmdirOptions = &OptionTable{Short: "pv", Abbrev: true, Permute: true,
		Long: "ignore-fail-on-non-empty parents verbose help version"}
	unlinkOptions = &OptionTable{Abbrev: true, Permute: true, Long: "help version"}
	shredOptions  = &OptionTable{Short: "fn:s:uvxz", Abbrev: true, Permute: true,
		Long: "force iterations= random-source= size= remove[=] verbose exact zero help version"}
)

// rm deletes its operands; with -r, -R or --recursive, everything below
// them too.
func rmEffects(c *Command) []Effect {
	l := rmOptions.Parse(c.Args)
	return all(Delete, l.Has('r', "recursive") || l.Has('R', ""), l.Operands)
}

func rmdirEffects(c *Command) []Effect {
	return all(Delete, false, rmdirOptions.Parse(c.Args).Operands)
}

func unlinkEffects(c *Command) []Effect {
	return all(Delete, false, unlinkOptions.Parse(c.Args).Operands)
}

// shred overwrites its files, and with -u removes them.
func shredEffects(c *Command) []Effect {
	return all(Write, false, shredOptions.Parse(c.Args).Operands)
}
