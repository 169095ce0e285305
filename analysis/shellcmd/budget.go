package shellcmd

import "fmt"

// A command line is read as bash would run it: aliases, eval, source and
// shell strings are read again where they run, loops are unrolled, and
// substitutions are walked where they nest. Text that names other text
// multiplies, so the walk's work is bounded apart from the line's length:
// five aliases each naming the next forty times (540 bytes) made 2.5
// million commands, and substitutions nested 20,000 deep (60 KB) took 4
// GB. A line past a bound is refused as one that cannot be parsed: what
// it would run cannot be listed in reasonable time and memory. Everyday
// lines stay far below each bound.
const (
	// maxInner bounds the strings read again as shell code, and
	// maxInnerBytes their text.
	maxInner      = 1000
	maxInnerBytes = 4 << 20
	// maxCommands bounds the simple commands listed.
	maxCommands = 50000
	// maxExpanded bounds the bytes of known values (variables, the
	// output of substitutions) copied into words.
	maxExpanded = 16 << 20
	// maxSubst bounds how deep command and process substitutions nest:
	// each level carries a copy of what the levels around it carry.
	maxSubst = 64
)

// walkBudget is what the walk has spent of its bounds.
type walkBudget struct {
	inners, innerBytes, expanded int
}

// refuse ends the walk with err, unless it has ended already: Parse
// returns the first error, and stmt walks nothing more.
func (w *walker) refuse(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf(format, args...)
	}
}

// readAgain spends on a string read again as shell code; false once the
// walk is over budget.
func (w *walker) readAgain(src string) bool {
	w.spent.inners++
	w.spent.innerBytes += len(src)
	switch {
	case w.spent.inners > maxInner:
		w.refuse("it expands to more than %d aliases, eval, source and shell strings", maxInner)
	case w.spent.innerBytes > maxInnerBytes:
		w.refuse("it expands to more than %d MiB of aliases, eval, source and shell strings", maxInnerBytes>>20)
	}
	return w.err == nil
}

// expandBytes spends on n bytes of a known value copied into a word; false
// once the walk is over budget.
func (w *walker) expandBytes(n int) bool {
	if w.spent.expanded += n; w.spent.expanded > maxExpanded {
		w.refuse("it expands more than %d MiB of variables and substitutions into its words", maxExpanded>>20)
	}
	return w.err == nil
}
