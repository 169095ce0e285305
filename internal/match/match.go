// Package match decides which tool names a hook's matcher selects.
//
// A matcher is MassGen's glob (Python fnmatch semantics: "*", "?", "[seq]",
// "[!seq]"), with alternatives split on "|", case-sensitive and anchored at
// both ends: "mcp__*", "Write|Edit", "*update_task_status". "" and "*" match
// every tool. A matcher starting with "re:" is a Go regular expression
// instead, also anchored, so "re:Edit" never matches "NotebookEdit" by
// accident (Claude Code's own matchers are unanchored, a known pitfall).
//
// Globs are matched directly rather than translated to regular expressions:
// MassGen passed its globs to a regex engine and broke on
// "*update_task_status", and a glob match costs no compilation on the hot path.
package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// RegexPrefix marks a matcher written as a regular expression.
const RegexPrefix = "re:"

// Matcher is a compiled matcher. The zero Matcher matches everything.
type Matcher struct {
	source string
	globs  []string
	re     *regexp.Regexp
}

// Compile checks pattern and compiles it. The error says what is wrong in
// words a config author can act on.
func Compile(pattern string) (Matcher, error) {
	m := Matcher{source: pattern}
	if rest, ok := strings.CutPrefix(pattern, RegexPrefix); ok {
		if rest == "" {
			return Matcher{}, fmt.Errorf("matcher %q: empty regular expression after %q", pattern, RegexPrefix)
		}
		// The expression is parsed alone first: "re:a)|(b" would compile
		// inside the wrapper while escaping its anchors, and an error then
		// quotes what the user wrote, not the wrapper.
		if _, err := syntax.Parse(rest, syntax.Perl); err != nil {
			return Matcher{}, fmt.Errorf("matcher %q: invalid regular expression: %s", pattern, RegexpError(err))
		}
		re, err := regexp.Compile(`^(?:` + rest + `)$`)
		if err != nil {
			return Matcher{}, fmt.Errorf("matcher %q: invalid regular expression: %s", pattern, RegexpError(err))
		}
		m.re = re
		return m, nil
	}
	if pattern == "" || pattern == "*" {
		return m, nil
	}
	for _, alt := range strings.Split(pattern, "|") {
		if alt == "" {
			return Matcher{}, fmt.Errorf("matcher %q: empty alternative (a stray \"|\"); write \"*\" or leave the matcher out to match every tool", pattern)
		}
		if strings.TrimSpace(alt) != alt {
			return Matcher{}, fmt.Errorf("matcher %q: alternative %q has spaces around it; tool names have none (write \"Write|Edit\")", pattern, alt)
		}
		if i := unclosedBracket(alt); i >= 0 {
			return Matcher{}, fmt.Errorf("matcher %q: \"[\" at offset %d of %q is never closed", pattern, i, alt)
		}
		m.globs = append(m.globs, alt)
	}
	return m, nil
}

// MustCompile is Compile for patterns known to be valid, such as a built-in
// check's default matcher.
func MustCompile(pattern string) Matcher {
	m, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return m
}

// String returns the matcher as written.
func (m Matcher) String() string { return m.source }

// MatchesAll reports whether m selects every tool.
func (m Matcher) MatchesAll() bool { return m.re == nil && m.globs == nil }

// Match reports whether m selects the tool called name.
func (m Matcher) Match(name string) bool {
	if m.re != nil {
		return m.re.MatchString(name)
	}
	if m.globs == nil {
		return true
	}
	for _, g := range m.globs {
		if glob(g, name) {
			return true
		}
	}
	return false
}

// RegexpError is a regexp compile error without the "error parsing regexp: "
// prefix, for configuration errors that already say what failed.
func RegexpError(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}
