package protocol

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// MaxDepth bounds how deeply nested JSON the hook reads: encoding/json's own
// limit, which the dialects and command handlers' encoders share (an event
// itself is held to MaxEventDepth). No client
// sends deeper events, and gjson's validator, which recurses, would spend
// seconds and a stack of hundreds of MiB on a few MiB of brackets.
const MaxDepth = 10000

// ErrTooDeep says JSON nests arrays or objects more than MaxDepth levels.
// (A type, not fmt.Errorf: formatting at start-up would be paid by every
// hook process.)
var ErrTooDeep error = tooDeepError{}

type tooDeepError struct{}

func (tooDeepError) Error() string {
	return fmt.Sprintf("JSON nested more than %d levels deep", MaxDepth)
}

// errTokens says text handed to Tokens is not JSON after all.
var errTokens = errors.New("not JSON: brackets do not match")

// TooDeep reports whether the JSON text s nests arrays or objects more than
// MaxDepth levels deep. It is one pass with no recursion (two quick counts
// first, enough for text that holds few brackets); brackets inside strings
// do not count.
func TooDeep(s string) bool { return nestsDeeper(s, MaxDepth) }

// nestsDeeper is TooDeep for a limit of its own.
func nestsDeeper(s string, limit int) bool {
	if strings.Count(s, "[")+strings.Count(s, "{") <= limit {
		return false // too few brackets to nest that deep: a fast, exact pass
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			i = stringEnd(s, i)
			if i < 0 {
				return false
			}
		case '[', '{':
			depth++
			if depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// Valid is gjson.Valid for text from anyone: JSON deeper than MaxDepth is
// not valid here, so the recursive validator never sees it.
func Valid(s string) bool { return !TooDeep(s) && gjson.Valid(s) }

// ValidBytes is Valid for bytes, without copying them.
func ValidBytes(b []byte) bool { return Valid(bytesString(b)) }

func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// stringEnd returns the index of the quote that closes the JSON string
// opening at s[open], or -1 when it is never closed. A quote counts when an
// even number of backslashes precedes it; each run of backslashes is looked
// at once, so the search is linear.
func stringEnd(s string, open int) int {
	for from := open + 1; ; {
		j := strings.IndexByte(s[from:], '"')
		if j < 0 {
			return -1
		}
		j += from
		k := j
		for k > from && s[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		from = j + 1
	}
}

// TokenKind is what a Token is.
type TokenKind uint8

// The kinds of Token.
const (
	BeginObject TokenKind = iota + 1
	EndObject
	BeginArray
	EndArray
	Key     // an object's key, a string
	String  // a string value
	Literal // a number, true, false or null
)

// Token is one token of JSON text.
type Token struct {
	Kind TokenKind
	// Raw is the token as written: a string with its quotes and escapes.
	Raw string
}

// Str is a Key's or String's value, unescaped.
func (t Token) Str() string {
	if strings.IndexByte(t.Raw, '\\') < 0 {
		return t.Raw[1 : len(t.Raw)-1]
	}
	return gjson.Parse(t.Raw).Str
}

// Tokens reads valid JSON text one token at a time, with no recursion: a
// level of nesting costs a byte of its stack, not a call frame, and every
// byte is looked at once. A walk over a tool's output built on it is linear
// in the output's size however the output nests, where one that recurses
// over gjson results scans each value again at every level above it.
// Nesting past MaxDepth is ErrTooDeep.
type Tokens struct {
	s     string
	i     int
	stack []byte // the open containers, '{' or '['
	key   bool   // the next string is an object's key
}

// NewTokens reads s, which must be valid JSON (see Valid): on other text
// the tokens mean nothing, though Next still ends.
func NewTokens(s string) *Tokens { return &Tokens{s: s} }

// Depth is how many containers are open.
func (t *Tokens) Depth() int { return len(t.stack) }

// Next returns the next token, or io.EOF after the last.
func (t *Tokens) Next() (Token, error) {
	for t.i < len(t.s) {
		c := t.s[t.i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			t.i++
			continue
		case ',':
			t.i++
			t.key = len(t.stack) > 0 && t.stack[len(t.stack)-1] == '{'
			continue
		case '{', '[':
			if len(t.stack) >= MaxDepth {
				return Token{}, ErrTooDeep
			}
			t.stack = append(t.stack, c)
			t.i++
			t.key = c == '{'
			kind := BeginArray
			if c == '{' {
				kind = BeginObject
			}
			return Token{Kind: kind, Raw: t.s[t.i-1 : t.i]}, nil
		case '}', ']':
			open := byte('{')
			if c == ']' {
				open = '['
			}
			if len(t.stack) == 0 || t.stack[len(t.stack)-1] != open {
				return Token{}, errTokens
			}
			t.stack = t.stack[:len(t.stack)-1]
			t.i++
			t.key = false
			kind := EndArray
			if c == '}' {
				kind = EndObject
			}
			return Token{Kind: kind, Raw: t.s[t.i-1 : t.i]}, nil
		case '"':
			end := stringEnd(t.s, t.i)
			if end < 0 {
				return Token{}, io.ErrUnexpectedEOF
			}
			raw := t.s[t.i : end+1]
			t.i = end + 1
			if t.key {
				t.key = false
				return Token{Kind: Key, Raw: raw}, nil
			}
			return Token{Kind: String, Raw: raw}, nil
		}
		j := t.i + 1
		for j < len(t.s) && !isDelimiter(t.s[j]) {
			j++
		}
		raw := t.s[t.i:j]
		t.i = j
		return Token{Kind: Literal, Raw: raw}, nil
	}
	return Token{}, io.EOF
}

// Skip reads past the rest of the value that tok, just read, begins: the
// whole container for a Begin token, nothing for any other.
func (t *Tokens) Skip(tok Token) error {
	if tok.Kind != BeginObject && tok.Kind != BeginArray {
		return nil
	}
	for depth := t.Depth(); t.Depth() >= depth; {
		if _, err := t.Next(); err != nil {
			return err
		}
	}
	return nil
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}
