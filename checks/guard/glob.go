package guard

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globFiles is what a path pattern matches on disk now, as the shell (or
// find, for the DIR/**/NAME a find -name -exec gives) would find it: **
// crosses folders, including none, which filepath.Glob cannot do. A
// pattern it cannot read matches nothing, as a glob that matches nothing
// stays a word of its own.
func globFiles(pattern string) []string {
	var m []string
	var err error
	if strings.Contains(pattern, "**") {
		m, err = doublestar.FilepathGlob(pattern, doublestar.WithNoFollow())
	} else {
		m, err = filepath.Glob(pattern)
	}
	if err != nil {
		return nil
	}
	return m
}

// escapeGlob quotes the characters filepath.Match treats as special.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// extglobAsAny is v with each extended glob group (bash's @(a|b), *(x),
// +(x), ?(x), !(x); zsh's *(D) qualifier parses the same) read as *: more
// names than the group matches, never fewer, and a dot among them
// (@(.env) and *(D) name dotfiles). ext says whether v had one.
func extglobAsAny(v string) (pattern string, ext bool) {
	if !strings.Contains(v, "(") {
		return v, false
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			b.WriteString(v[i : i+2])
			i++
			continue
		}
		if strings.IndexByte("?*+@!", c) >= 0 && i+1 < len(v) && v[i+1] == '(' {
			if end := groupEnd(v, i+1); end > 0 {
				if s := b.String(); !strings.HasSuffix(s, "*") {
					b.WriteByte('*')
				}
				for i = end; i+1 < len(v) && v[i+1] == '*'; i++ {
				}
				ext = true
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String(), ext
}

// groupEnd is the index of the ) that closes the ( at open, or -1.
func groupEnd(v string, open int) int {
	depth := 0
	for i := open; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// shellSkips reports whether the shell's default globbing would not give
// match for pattern (a pattern filepath.Glob matched it with): a part of
// the pattern that starts with * or ? matched a name that starts with a
// dot, which bash and zsh match only when the pattern's part starts with
// a dot too (or dotglob, GLOB_DOTS is on: see shellHidesDots). A pattern
// Glob cleaned, or one with **, is not judged (false).
func shellSkips(pattern, match string) bool {
	if filepath.Clean(pattern) != pattern || strings.Contains(pattern, "**") {
		return false
	}
	ps, ms := strings.Split(pattern, "/"), strings.Split(match, "/")
	if len(ps) != len(ms) {
		return false
	}
	for i := range ps {
		if (strings.HasPrefix(ps[i], "*") || strings.HasPrefix(ps[i], "?")) && strings.HasPrefix(ms[i], ".") {
			return true
		}
	}
	return false
}
