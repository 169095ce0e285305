package wiring

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// An edit is text spliced in at gjson positions. Insertions go after a
// container's last element and removals take the separator before an
// element with it, so removing what was inserted gives back the exact bytes
// of before: uninstall after init restores the file.

// style is how the file is laid out, copied by what is inserted.
type style struct {
	unit    string // one level of indentation; "" for a one-line file
	newline string // "\n" or "\r\n"
}

// styleOf guesses the file's indentation from its first member's line.
func styleOf(data []byte) style {
	s := style{unit: "  ", newline: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		s.newline = "\r\n"
	}
	r := root(data)
	if !r.IsObject() || !bytes.Contains([]byte(r.Raw), []byte("\n")) {
		if r.IsObject() && len(r.Map()) > 0 {
			s.unit = "" // a one-line file stays one line
		}
		return s
	}
	r.ForEach(func(key, _ gjson.Result) bool {
		if ind := indentAt(data, key.Index); ind != "" {
			s.unit = ind
		}
		return false
	})
	return s
}

// indentAt is the leading whitespace of the line holding offset, when
// nothing but whitespace comes before offset on that line.
func indentAt(data []byte, offset int) string {
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	lead := data[start:offset]
	if len(bytes.TrimLeft(lead, " \t")) != 0 {
		return ""
	}
	return string(lead)
}

// lineIndent is the leading whitespace of the line holding offset.
func lineIndent(data []byte, offset int) string {
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// render marshals v as it will sit at an indentation of prefix: key order
// as v declares it, no HTML escaping (commands hold && and <).
func (s style) render(v any, prefix string) []byte {
	out := marshal(v)
	if s.unit == "" {
		return out
	}
	var ind bytes.Buffer
	_ = json.Indent(&ind, out, prefix, s.unit)
	return []byte(strings.ReplaceAll(ind.String(), "\n", s.newline))
}

func (s style) colon() string {
	if s.unit == "" {
		return ":"
	}
	return ": "
}

func splice(data []byte, start, end int, text []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// element is one member of an object (Key set) or one element of an array.
type element struct {
	Key   gjson.Result // the member's key; zero for an array element
	Value gjson.Result
}

func (e element) start() int {
	if e.Key.Exists() {
		return e.Key.Index
	}
	return e.Value.Index
}

func (e element) end() int { return e.Value.Index + len(e.Value.Raw) }

func elements(c gjson.Result) []element {
	var out []element
	c.ForEach(func(k, v gjson.Result) bool {
		if c.IsObject() {
			out = append(out, element{Key: k, Value: v})
		} else {
			out = append(out, element{Value: v})
		}
		return true
	})
	return out
}

// appendTo adds text (a rendered member `"k": v` or element) at the end of
// container c.
func (s style) appendTo(data []byte, c gjson.Result, text func(s style, prefix string) []byte) []byte {
	elems := elements(c)
	if len(elems) > 0 {
		last := elems[len(elems)-1]
		if s.unit == "" || !strings.Contains(c.Raw, "\n") {
			// A container written on one line stays on one line.
			sep := ","
			if s.unit != "" && strings.Contains(c.Raw, ", ") {
				sep = ", "
			}
			return splice(data, last.end(), last.end(), append([]byte(sep), text(oneLine, "")...))
		}
		prefix := lineIndent(data, last.start())
		ins := append([]byte(","+s.newline+prefix), text(s, prefix)...)
		return splice(data, last.end(), last.end(), ins)
	}
	closing := c.Index + len(c.Raw) - 1
	if s.unit == "" {
		return splice(data, c.Index+1, closing, text(s, ""))
	}
	outer := lineIndent(data, c.Index)
	prefix := outer + s.unit
	ins := append([]byte(s.newline+prefix), text(s, prefix)...)
	ins = append(ins, s.newline+outer...)
	return splice(data, c.Index+1, closing, ins)
}

// oneLine is the style of a container written on one line.
var oneLine = style{}

// memberText renders `"key": value` for appendTo.
func memberText(key string, value any) func(s style, prefix string) []byte {
	return func(s style, prefix string) []byte {
		k, _ := json.Marshal(key)
		return append(append(k, s.colon()...), s.render(value, prefix)...)
	}
}

// valueText renders an array element for appendTo.
func valueText(v any) func(s style, prefix string) []byte {
	return func(s style, prefix string) []byte { return s.render(v, prefix) }
}

// remove deletes element i of container c with its separator: the one
// before it, or for the first element the one after it. Removing the only
// element empties the container.
func remove(data []byte, c gjson.Result, i int) []byte {
	elems := elements(c)
	switch {
	case len(elems) == 1:
		return splice(data, c.Index+1, c.Index+len(c.Raw)-1, nil)
	case i > 0:
		return splice(data, elems[i-1].end(), elems[i].end(), nil)
	default:
		return splice(data, elems[0].start(), elems[1].start(), nil)
	}
}

// replace puts v where value is, keeping the indentation of its line.
func (s style) replace(data []byte, value gjson.Result, v any) []byte {
	return splice(data, value.Index, value.Index+len(value.Raw), s.render(v, lineIndent(data, value.Index)))
}

// marshal is compact JSON without HTML escaping. Entries are the caller's
// own strings, numbers and lists, which always encode.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// sameJSON reports whether raw is v, ignoring layout.
func sameJSON(raw string, v any) bool {
	var a bytes.Buffer
	return json.Compact(&a, []byte(raw)) == nil && bytes.Equal(a.Bytes(), marshal(v))
}
