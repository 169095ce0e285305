package shellcmd

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// maxBraceWords caps the words one brace expansion may give: past it the
// word is not known (a sequence such as {1..100000} names no path a guard
// could check one by one).
const maxBraceWords = 256

// braceWords is sw brace-expanded as bash does first, before tildes,
// variables and globs: `rm -rf {~,x}` is `rm -rf ~ x`, `cat .e{n,}v` is
// `cat .env .ev`. ok is false when sw has no brace expansion, or when it
// would give more than maxBraceWords words or a sequence bash would not
// expand (then the caller judges the word as it is, unknown).
func braceWords(sw *syntax.Word) (words []*syntax.Word, expands, ok bool) {
	tmp := &syntax.Word{Parts: append([]syntax.WordPart(nil), sw.Parts...)}
	syntax.SplitBraces(tmp)
	has := false
	for _, p := range tmp.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			has = true
		}
	}
	if !has {
		return nil, false, false
	}
	out, ok := expandBraces(tmp.Parts)
	if !ok {
		return nil, true, false
	}
	words = make([]*syntax.Word, len(out))
	for i, parts := range out {
		words[i] = &syntax.Word{Parts: parts}
	}
	return words, true, true
}

// expandBraces gives the part lists parts expands to, left to right.
func expandBraces(parts []syntax.WordPart) ([][]syntax.WordPart, bool) {
	for i, p := range parts {
		br, isBrace := p.(*syntax.BraceExp)
		if !isBrace {
			continue
		}
		var elems [][]syntax.WordPart
		if br.Sequence {
			seq, ok := braceSequence(br)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				elems = append(elems, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, e := range br.Elems {
				inner, ok := expandBraces(e.Parts)
				if !ok {
					return nil, false
				}
				elems = append(elems, inner...)
			}
		}
		rest, ok := expandBraces(parts[i+1:])
		if !ok || len(elems)*len(rest) > maxBraceWords {
			return nil, false
		}
		var out [][]syntax.WordPart
		for _, e := range elems {
			for _, r := range rest {
				w := append(append(append([]syntax.WordPart(nil), parts[:i]...), e...), r...)
				out = append(out, w)
			}
		}
		return out, true
	}
	// Brace splitting leaves empty literals around a brace; one after a
	// leading ~ would read as a part that stops tilde expansion.
	var kept []syntax.WordPart
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			kept = append(kept, p)
		}
	}
	return [][]syntax.WordPart{kept}, true
}

// braceSequence is {x..y[..incr]} for numbers or single letters.
func braceSequence(br *syntax.BraceExp) ([]string, bool) {
	if len(br.Elems) < 2 || len(br.Elems) > 3 {
		return nil, false
	}
	lits := make([]string, len(br.Elems))
	for i, e := range br.Elems {
		lits[i] = e.Lit()
		if lits[i] == "" {
			return nil, false
		}
	}
	step := 1
	if len(lits) == 3 {
		n, err := strconv.Atoi(lits[2])
		if err != nil {
			return nil, false
		}
		step = max(n, -n, 1)
	}
	from, err1 := strconv.Atoi(lits[0])
	to, err2 := strconv.Atoi(lits[1])
	chars := false
	if err1 != nil || err2 != nil {
		if len(lits[0]) != 1 || len(lits[1]) != 1 {
			return nil, false
		}
		from, to, chars = int(lits[0][0]), int(lits[1][0]), true
	}
	if (to-from)/step+1 > maxBraceWords || (from-to)/step+1 > maxBraceWords {
		return nil, false
	}
	var out []string
	for n := from; ; {
		if chars {
			out = append(out, string(rune(n)))
		} else {
			out = append(out, strconv.Itoa(n))
		}
		if n == to {
			break
		}
		if from < to {
			n += step
			if n > to {
				break
			}
		} else {
			n -= step
			if n < to {
				break
			}
		}
	}
	return out, true
}

// posixClasses are the [:name:] classes of a bash bracket expression, as
// ranges Go's path.Match reads (for the C locale).
var posixClasses = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
		"xdigit": "0-9a-fA-F", "space": " \t\n\r\f\v", "blank": " \t",
		"punct": "!-/:-@\\[-`{-~", "word": "a-zA-Z0-9_",
	}
}}

// goGlob rewrites a bash glob as a pattern for Go's path.Match and
// filepath.Glob: [!x] is [^x], and [:class:] inside brackets becomes its
// ranges. ok is false for what Go cannot match as bash does (an unknown
// class, an unclosed bracket): the caller then cannot know the paths.
func goGlob(p string) (string, bool) {
	if !strings.Contains(p, "[") {
		return p, true
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			b.WriteString(p[i : i+2])
			i++
			continue
		}
		if c != '[' {
			b.WriteByte(c)
			continue
		}
		end := classEnd(p, i)
		if end < 0 {
			return p, false
		}
		b.WriteByte('[')
		j := i + 1
		if j < end && (p[j] == '!' || p[j] == '^') {
			b.WriteByte('^')
			j++
		}
		for ; j < end; j++ {
			if strings.HasPrefix(p[j:], "[:") {
				k := strings.Index(p[j+2:], ":]")
				if k < 0 {
					return p, false
				}
				r, known := posixClasses.Get()[p[j+2:j+2+k]]
				if !known {
					return p, false
				}
				b.WriteString(r)
				j += k + 3
				continue
			}
			if p[j] == '\\' && j+1 < end {
				b.WriteString(p[j : j+2])
				j++
				continue
			}
			b.WriteByte(p[j])
		}
		b.WriteByte(']')
		i = end
	}
	return b.String(), true
}

// classEnd is the index of the ] that closes the bracket expression
// opening at p[i], or -1: a ] first in it (after ! or ^) is a member, and
// [:name:] holds its own ].
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch {
		case strings.HasPrefix(p[j:], "[:"):
			k := strings.Index(p[j+2:], ":]")
			if k < 0 {
				return -1
			}
			j += k + 3
		case p[j] == '\\':
			j++
		case p[j] == ']':
			return j
		}
	}
	return -1
}
