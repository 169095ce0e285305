package hookenv

import (
	"strings"
	"unicode/utf8"
)

// OneLine is s on one line, cut to at most n bytes at a rune boundary.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
