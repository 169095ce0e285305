package protocol

import (
	"io"
	"strings"
)

// LastWins returns the JSON value raw as the agent's runtime reads it: when
// an object repeats a key, JavaScript's JSON.parse and Python's json keep the
// last value (in the place of the first), while gjson, which the built-in
// checks read with, finds the first. An input {"file_path": "ok.txt",
// "file_path": ".env"} would be checked as ok.txt and run as .env. So a
// value that repeats a key anywhere is re-encoded, compact, with each
// object's keys once, in first-seen order, holding their last values; any
// other value (nearly all) comes back as it is, not copied. raw must be
// valid JSON; text that is not, or is nested past MaxDepth, is returned as
// it is.
func LastWins(raw []byte) []byte {
	s := bytesString(raw)
	if !repeatsKey(s) {
		return raw
	}
	root, err := buildTree(s)
	if err != nil {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	root.write(&b)
	return []byte(b.String())
}

// repeatsKey reports whether an object anywhere in s has a key twice. Keys
// are compared unescaped ("a" and "\u0061" are one key). One pass; the key
// sets of finished objects are reused.
func repeatsKey(s string) bool {
	var frames []keySet // for each open container: an object's keys so far
	tk := NewTokens(s)
	for {
		tok, err := tk.Next()
		if err != nil {
			return false // io.EOF, or not JSON: nothing to normalise
		}
		switch tok.Kind {
		case BeginObject, BeginArray:
			if d := tk.Depth(); d > len(frames) {
				frames = append(frames, keySet{})
			}
			frames[tk.Depth()-1].reset()
		case Key:
			if !frames[tk.Depth()-1].add(tok.Str()) {
				return true
			}
		}
	}
}

// node is a JSON value being rebuilt by LastWins.
type node struct {
	raw    string   // a scalar's text, or "{" or "["
	keys   []string // an object's keys as written, first occurrence
	values []*node  // an object's values (last occurrence) or an array's items
	index  map[string]int
}

// buildTree parses s into nodes, each object keeping one value per key
// (the last). It uses an explicit stack, not recursion.
func buildTree(s string) (*node, error) {
	tk := NewTokens(s)
	var stack []*node
	var root *node
	var pending []string // per open object, the key waiting for its value
	add := func(n *node) {
		if len(stack) == 0 {
			root = n
			return
		}
		parent := stack[len(stack)-1]
		if parent.raw == "[" {
			parent.values = append(parent.values, n)
			return
		}
		key := pending[len(pending)-1]
		name := (Token{Kind: Key, Raw: key}).Str()
		if i, ok := parent.index[name]; ok {
			parent.values[i] = n
			return
		}
		parent.index[name] = len(parent.keys)
		parent.keys = append(parent.keys, key)
		parent.values = append(parent.values, n)
	}
	for {
		tok, err := tk.Next()
		if err == io.EOF && len(stack) == 0 && root != nil {
			return root, nil
		}
		if err != nil {
			return nil, err // io.EOF too soon: not JSON
		}
		switch tok.Kind {
		case BeginObject, BeginArray:
			n := &node{raw: tok.Raw}
			add(n)
			if tok.Kind == BeginObject {
				n.index = map[string]int{}
				pending = append(pending, "")
			}
			stack = append(stack, n)
		case EndObject, EndArray:
			if tok.Kind == EndObject {
				pending = pending[:len(pending)-1]
			}
			stack = stack[:len(stack)-1]
		case Key:
			pending[len(pending)-1] = tok.Raw
		default:
			add(&node{raw: tok.Raw})
		}
	}
}

// write writes n as compact JSON, with an explicit stack.
func (n *node) write(b *strings.Builder) {
	type frame struct {
		n    *node
		next int
	}
	stack := []frame{{n: n}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		cur := f.n
		if cur.raw != "{" && cur.raw != "[" {
			b.WriteString(cur.raw)
			stack = stack[:len(stack)-1]
			continue
		}
		if f.next == 0 {
			b.WriteString(cur.raw)
		}
		if f.next == len(cur.values) {
			if cur.raw == "{" {
				b.WriteByte('}')
			} else {
				b.WriteByte(']')
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if f.next > 0 {
			b.WriteByte(',')
		}
		if cur.raw == "{" {
			b.WriteString(cur.keys[f.next])
			b.WriteByte(':')
		}
		child := cur.values[f.next]
		f.next++
		stack = append(stack, frame{n: child})
	}
}

// keySet is a set of an object's keys: a list while it is short, as an
// event's is, and a map past that, so no object costs quadratic time.
type keySet struct {
	list []string
	m    map[string]struct{}
}

// add adds k and reports whether it was new.
func (s *keySet) add(k string) bool {
	if s.m != nil {
		_, seen := s.m[k]
		s.m[k] = struct{}{}
		return !seen
	}
	for _, x := range s.list {
		if x == k {
			return false
		}
	}
	s.list = append(s.list, k)
	if len(s.list) > 32 {
		s.m = make(map[string]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
	}
	return true
}

// reset empties s for another object, keeping its memory.
func (s *keySet) reset() {
	s.list = s.list[:0]
	s.m = nil
}
