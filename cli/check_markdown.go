package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/scratchpad"
)

// Symbols of the markdown grid.
const (
	mdCompliant  = "✅"
	mdIncomplete = "⚠️"
	mdMissing    = "❌"
	mdIdle       = "·"
)

var mdCells = &lazy.Value[map[scratchpad.Cell]string]{New: func() map[scratchpad.Cell]string {
	return map[scratchpad.Cell]string{
		scratchpad.CellIdle:       mdIdle,
		scratchpad.CellCompliant:  mdCompliant,
		scratchpad.CellIncomplete: mdIncomplete,
		scratchpad.CellMissing:    mdMissing,
		scratchpad.CellUnreadable: mdMissing,
	}
}}

// writeCheckMarkdown prints the report as GitHub-flavoured Markdown for a
// job summary ($GITHUB_STEP_SUMMARY): a heading, the summary line, a grid of
// agents by dates, a legend and the violations. Everything taken from file
// names goes through mdEscape, so no name can break the table or add markup.
func writeCheckMarkdown(w io.Writer, rep *scratchpad.Report) error {
	var b strings.Builder
	mark := mdCompliant
	if len(rep.Violations) > 0 {
		mark = mdMissing
	}
	fmt.Fprintf(&b, "### Scratchpad protocol\n\n%s %s\n", mark, mdEscape(checkSummary(rep)))
	if g := rep.Grid(); len(g.Rows) > 0 {
		b.WriteString("\n| agent |")
		for _, d := range g.Dates {
			b.WriteString(" " + d + " |")
		}
		b.WriteString("\n| :-- |" + strings.Repeat(" :-: |", len(g.Dates)) + "\n")
		for _, row := range g.Rows {
			b.WriteString("| " + mdEscape(row.Agent) + " |")
			for _, c := range row.Cells {
				b.WriteString(" " + mdCells.Get()[c] + " |")
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\n%s compliant, %s headings missing, %s missing or unreadable, %s did not work that day\n",
			mdCompliant, mdIncomplete, mdMissing, mdIdle)
	}
	if len(rep.Violations) > 0 {
		fmt.Fprintf(&b, "\n**%s**\n\n", plural(len(rep.Violations), "violation"))
		for _, v := range rep.Violations {
			sym := mdMissing
			if v.Kind == scratchpad.KindMissingSections {
				sym = mdIncomplete
			}
			// The symbol first: a path can then never start a heading or
			// a nested list.
			fmt.Fprintf(&b, "- %s %s: %s\n", sym, mdEscape(v.Path), mdEscape(v.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape makes text inline Markdown that shows as it is, in a paragraph,
// a list item or a table cell: punctuation that could start markup (code,
// emphasis, links, HTML, tables, strikethrough, entities, math) is
// backslash-escaped, and control characters, line breaks included, are
// written %XX as agent directory names are.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "%%%02X", r)
		case strings.ContainsRune("\\`*_[]<>|~&$", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
