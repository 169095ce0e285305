package match

import "unicode/utf8"

// glob reports whether name matches the fnmatch pattern p as a whole. Both
// are walked rune by rune; a "*" remembers where it was so a failed match
// can resume one rune further, which keeps the match linear in practice and
// free of recursion.
func glob(p, name string) bool {
	var starP, starN = -1, -1
	pi, ni := 0, 0
	for ni < len(name) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if pi == len(p) {
					return true
				}
				starP, starN = pi, ni
				continue
			case '?':
				_, w := utf8.DecodeRuneInString(name[ni:])
				pi++
				ni += w
				continue
			case '[':
				r, w := utf8.DecodeRuneInString(name[ni:])
				if ok, end := inClass(p, pi, r); ok {
					pi = end
					ni += w
					continue
				}
			default:
				pr, pw := utf8.DecodeRuneInString(p[pi:])
				r, w := utf8.DecodeRuneInString(name[ni:])
				if pr == r {
					pi += pw
					ni += w
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		// Let the last "*" swallow one more rune and try again from there.
		_, w := utf8.DecodeRuneInString(name[starN:])
		starN += w
		pi, ni = starP, starN
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// inClass matches r against the bracket expression starting at p[start]
// ("["), returning whether it matched and the index just past the "]".
// As in fnmatch: "!" first negates, "]" first is literal, "a-z" is a range
// (an inverted one matches nothing). Compile has already rejected an
// unclosed "[".
func inClass(p string, start int, r rune) (matched bool, end int) {
	i := start + 1
	negate := false
	if i < len(p) && p[i] == '!' {
		negate = true
		i++
	}
	first := true
	for i < len(p) && (first || p[i] != ']') {
		first = false
		lo, w := utf8.DecodeRuneInString(p[i:])
		i += w
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi, w = utf8.DecodeRuneInString(p[i+1:])
			i += 1 + w
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return matched != negate, i + 1
}

// unclosedBracket returns the offset of a "[" in p that no "]" closes, or -1.
func unclosedBracket(p string) int {
	for i := 0; i < len(p); i++ {
		if p[i] != '[' {
			continue
		}
		j := i + 1
		if j < len(p) && p[j] == '!' {
			j++
		}
		if j < len(p) && p[j] == ']' {
			j++
		}
		for j < len(p) && p[j] != ']' {
			j++
		}
		if j >= len(p) {
			return i
		}
		i = j
	}
	return -1
}
