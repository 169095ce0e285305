package doctor

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Env is what a hook command sees when Claude Code runs it, as far as
// doctor knows it.
type Env struct {
	// Project is $CLAUDE_PROJECT_DIR.
	Project string
	// Home is $HOME and ~; "" when unknown.
	Home string
	// Path is $PATH, where bare program names are looked up.
	Path string
}

// value is a word's value: known, or why not.
type value struct {
	s     string
	known bool
	why   string
}

// eval is the value sw takes when the shell runs it: quotes removed,
// ~, $HOME and $CLAUDE_PROJECT_DIR expanded; anything else (other
// variables, substitutions, globs) makes it unknown.
func (env Env) eval(sw *syntax.Word) value {
	var b strings.Builder
	unknown := func(why string) value { return value{why: why} }
	for i, part := range sw.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Value
			if i == 0 && strings.HasPrefix(s, "~") {
				prefix, _, _ := strings.Cut(s, "/")
				if prefix != "~" {
					return unknown("~user is not expanded here")
				}
				if env.Home == "" {
					return unknown("$HOME is not set")
				}
				s = env.Home + s[len(prefix):]
			}
			if isGlob(s) {
				return unknown("it is a glob pattern")
			}
			b.WriteString(unescape(s, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return unknown("it uses a $'...' string")
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescape(q.Value, true))
				case *syntax.ParamExp:
					v := env.param(q)
					if !v.known {
						return v
					}
					b.WriteString(v.s)
				default:
					return unknown(expansionWhy(q))
				}
			}
		case *syntax.ParamExp:
			v := env.param(p)
			if !v.known {
				return v
			}
			b.WriteString(v.s)
		default:
			return unknown(expansionWhy(p))
		}
	}
	return value{s: b.String(), known: true}
}

func expansionWhy(p syntax.WordPart) string {
	switch p.(type) {
	case *syntax.CmdSubst:
		return "its value comes from a command substitution, known only when it runs"
	case *syntax.ArithmExp:
		return "it uses arithmetic expansion"
	case *syntax.ProcSubst:
		return "it uses process substitution"
	}
	return "it uses a shell expansion doctor does not evaluate"
}

// param is the value of a parameter expansion: $CLAUDE_PROJECT_DIR and
// $HOME are known, nothing else.
func (env Env) param(p *syntax.ParamExp) value {
	if !simpleParam(p) {
		return value{why: "it uses a ${...} expansion doctor does not evaluate"}
	}
	switch name := p.Param.Value; name {
	case "CLAUDE_PROJECT_DIR":
		return value{s: env.Project, known: true}
	case "HOME":
		if env.Home != "" {
			return value{s: env.Home, known: true}
		}
		return value{why: "$HOME is not set"}
	default:
		return value{why: fmt.Sprintf("$%s is only known when Claude Code runs the hook", name)}
	}
}

func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// unescape removes the backslashes of unquoted text, or of double-quoted
// text (where only \$ \` \" \\ and a newline are escapes).
func unescape(s string, dq bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!dq || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unquotedVars lists the variables expanded outside quotes in sw, where
// word splitting cuts a value with a space into several words; fixed is sw
// with each of them double-quoted.
func unquotedVars(sw *syntax.Word, src string) (names []string, fixed string) {
	var b strings.Builder
	for _, part := range sw.Parts {
		text := src[part.Pos().Offset():part.End().Offset()]
		if p, ok := part.(*syntax.ParamExp); ok && p.Param != nil && !special(p.Param.Value) {
			names = append(names, p.Param.Value)
			text = `"` + text + `"`
		}
		b.WriteString(text)
	}
	return names, b.String()
}

// special reports the shell's special parameters ($?, $#, $1...), which
// hold no paths.
func special(name string) bool {
	return len(name) > 0 && strings.IndexByte("?#$!-@*0123456789", name[0]) >= 0
}

// isGlob reports unquoted glob characters: * ?, or a [ closed by a ] (a
// lone [ is the test command).
func isGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}
