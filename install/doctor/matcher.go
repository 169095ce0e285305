package doctor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// exactForm is Claude Code's test for a matcher of exact names: only
// letters, digits, _, -, spaces, commas and bars. Anything else is an
// unanchored JavaScript regex.
var exactForm = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_\- ,|]*$`) }}

// MatchesAll reports whether m matches every name ("", "*").
func MatchesAll(m string) bool { return m == "" || m == "*" }

// IsExact reports whether Claude Code reads m as a list of exact names.
func IsExact(m string) bool { return exactForm.Get().MatchString(m) }

// ExactNames splits an exact-form matcher into its names.
func ExactNames(m string) []string {
	var out []string
	for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// jsOnly finds regex constructs JavaScript has and Go's RE2 lacks:
// lookahead, lookbehind, backreferences.
var jsOnly = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`) }}

// CheckMatcher checks the matcher of a group of event's handlers, with
// Claude Code's semantics (PROTOCOL §1). has is false when there is none.
func CheckMatcher(event, m string, has bool) []Issue {
	if !has || MatchesAll(m) {
		return nil
	}
	if matcherIgnored.Get()[event] {
		return []Issue{note(fmt.Sprintf("Claude Code ignores the matcher of %s (%q): the handlers run on every %s; remove the matcher", event, m, event))}
	}
	if IsExact(m) {
		for _, n := range ExactNames(m) {
			if server, ok := strings.CutPrefix(n, "mcp__"); ok && !strings.Contains(server, "__") {
				fixed := strings.Replace(m, n, n+"__.*", 1)
				return []Issue{problem(fmt.Sprintf("%q names an MCP server, not a tool, so it matches nothing (MCP tools are mcp__<server>__<tool>); for all of the server's tools write %q", n, fixed))}
			}
		}
		return nil
	}
	if _, err := regexp.Compile(m); err != nil {
		if c := jsOnly.Get().FindString(m); c != "" {
			return []Issue{note(fmt.Sprintf("cannot check the regex %q: it uses %s, which JavaScript has and Go's regexp lacks", m, c))}
		}
		msg := fmt.Sprintf("%q is not a valid regular expression (%s), so it never matches as meant", m, regexError(err))
		if fixed := globToRegex(m); fixed != m {
			if _, err := regexp.Compile(fixed); err == nil {
				msg += fmt.Sprintf("; a * alone is not a wildcard in a regex: write %q", fixed)
			}
		}
		return []Issue{problem(msg)}
	}
	return nil
}

// regexError is err without Go's "error parsing regexp: " prefix.
func regexError(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

// globToRegex turns each * that starts an alternative (a glob habit, as in
// MassGen's *update_task_status) into .*.
func globToRegex(m string) string {
	alts := strings.Split(m, "|")
	for i, a := range alts {
		if strings.HasPrefix(a, "*") {
			alts[i] = "." + a
		}
	}
	return strings.Join(alts, "|")
}

// MatchersOverlap reports whether some name can match both a and b (two
// matchers of one event). Two different regexes are taken not to overlap:
// that cannot be told in general.
func MatchersOverlap(event, a, b string) bool {
	if matcherIgnored.Get()[event] || MatchesAll(a) || MatchesAll(b) || a == b {
		return true
	}
	if IsExact(b) && !IsExact(a) {
		a, b = b, a
	}
	if !IsExact(a) {
		return false
	}
	names := ExactNames(a)
	if IsExact(b) {
		for _, x := range ExactNames(b) {
			for _, y := range names {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	re, err := regexp.Compile(b)
	if err != nil {
		return false
	}
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}
