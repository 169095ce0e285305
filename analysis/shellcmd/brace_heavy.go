package shellcmd

// BraceHeavy reports whether a glob pattern's brace alternatives, every
// group's multiplied, come to more than maxBraceWords. doublestar matches
// braces by trying each alternative in turn, so its work grows with that
// product: "{,}" forty times over is 2^40 tries, and a pattern an agent
// writes (rg -g, Grep's glob) would run the hook past the agent's
// timeout. A caller judges such a pattern the safe way instead of
// matching it. A backslash escapes the character after it.
func BraceHeavy(pattern string) bool {
	product := 1
	var commas []int // one count per open group
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			commas = append(commas, 0)
		case ',':
			if len(commas) > 0 {
				commas[len(commas)-1]++
			}
		case '}':
			if len(commas) == 0 {
				continue
			}
			product *= commas[len(commas)-1] + 1
			commas = commas[:len(commas)-1]
			if product > maxBraceWords {
				return true
			}
		}
	}
	return false
}
