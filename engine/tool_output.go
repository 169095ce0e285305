package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// conformOutput gives replacement, a rule's updatedToolOutput, the shape
// of original, the tool's own output. Claude Code keeps a replacement only
// when it fits the tool's output schema and drops any other without a
// word: a string for Bash (whose output is an object with stdout, stderr,
// interrupted, ...), or an object with only the fields a rule cared to
// give. So:
//
//   - an object over an object is merged into it: the fields given replace
//     the tool's (objects field by field), the others keep the tool's
//     values; a field given with another JSON type than the tool's fails;
//   - a string over an object goes into the tool's text: Bash's stdout
//     (stderr emptied: the string is the whole output), Read's
//     file.content, the Agent tool's content; other tools have no known
//     text field, and fail;
//   - otherwise the replacement must be of the tool's own JSON type.
//
// ok is false when no shape that Claude Code keeps can be made: the caller
// falls back to telling the model instead. Without an original to go by,
// the replacement is taken as given.
func conformOutput(tool string, original, replacement json.RawMessage) (json.RawMessage, bool) {
	original, replacement = bytes.TrimSpace(original), bytes.TrimSpace(replacement)
	if len(original) == 0 {
		return replacement, true
	}
	switch want, got := jsonKind(original), jsonKind(replacement); {
	case want == '{' && got == '{':
		return mergeObject(original, replacement)
	case want == '{' && got == '"':
		return intoTextField(tool, original, replacement)
	case want == got && got != 0:
		return replacement, true
	}
	return nil, false
}

// jsonKind is the first byte that tells a JSON value's type: '{', '[',
// '"', 't' or 'f' (both booleans are 'b'), 'n', or '0' for a number; 0 for
// nothing valid.
func jsonKind(raw json.RawMessage) byte {
	if len(raw) == 0 || !json.Valid(raw) {
		return 0
	}
	switch c := raw[0]; c {
	case '{', '[', '"', 'n':
		return c
	case 't', 'f':
		return 'b'
	}
	return '0'
}

// textField is where a tool's output keeps its text, as a path of object
// keys, and how a string becomes its value.
type textField struct {
	path []string
	wrap func(text json.RawMessage) json.RawMessage
	// clear are sibling fields that held more of the text: emptied.
	clear []string
}

// textFields are the tools whose output's text is one known field.
var textFields = &lazy.Value[map[string]textField]{New: func() map[string]textField {
	return map[string]textField{
		"Bash":  {path: []string{"stdout"}, clear: []string{"stderr"}},
		"Read":  {path: []string{"file", "content"}},
		"Agent": {path: []string{"content"}, wrap: textBlocks},
		"Task":  {path: []string{"content"}, wrap: textBlocks},
	}
}}

// textBlocks is text as the content blocks the Agent tool returns.
func textBlocks(text json.RawMessage) json.RawMessage {
	return json.RawMessage(`[{"type":"text","text":` + string(text) + `}]`)
}

// intoTextField puts the string text in tool's text field of original,
// where that field exists with the type it will get.
func intoTextField(tool string, original, text json.RawMessage) (json.RawMessage, bool) {
	f, ok := textFields.Get()[tool]
	if !ok {
		return nil, false
	}
	value := text
	if f.wrap != nil {
		value = f.wrap(text)
	}
	// Build the patch {"a":{"b":value}} and merge it, so the field must
	// already be there with value's type.
	patch := value
	for i := len(f.path) - 1; i >= 0; i-- {
		key, _ := json.Marshal(f.path[i])
		patch = json.RawMessage(`{` + string(key) + `:` + string(patch) + `}`)
	}
	if !hasPath(original, f.path) {
		return nil, false
	}
	out, ok := mergeObject(original, patch)
	if !ok {
		return nil, false
	}
	for _, c := range f.clear {
		key, _ := json.Marshal(c)
		if cleared, ok := mergeObject(out, json.RawMessage(`{`+string(key)+`:""}`)); ok && hasPath(out, []string{c}) {
			out = cleared
		}
	}
	return out, true
}

// hasPath reports whether the object raw has the nested keys of path.
func hasPath(raw json.RawMessage, path []string) bool {
	for _, key := range path {
		fields, ok := objectFields(raw)
		if !ok {
			return false
		}
		v, found := fields.get(key)
		if !found {
			return false
		}
		raw = v
	}
	return true
}

// mergeObject is base with patch's fields laid over it, in base's key
// order (patch's new keys after): objects merge field by field, any other
// value replaces the base's when both have the same JSON type.
func mergeObject(base, patch json.RawMessage) (json.RawMessage, bool) {
	b, ok1 := objectFields(base)
	p, ok2 := objectFields(patch)
	if !ok1 || !ok2 {
		return nil, false
	}
	var out bytes.Buffer
	out.WriteByte('{')
	write := func(key string, v json.RawMessage) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	for _, f := range b {
		v := f.value
		if pv, given := p.get(f.key); given {
			switch bk, pk := jsonKind(v), jsonKind(pv); {
			case bk == '{' && pk == '{':
				merged, ok := mergeObject(v, pv)
				if !ok {
					return nil, false
				}
				v = merged
			case bk == pk:
				v = pv
			default:
				return nil, false
			}
		}
		write(f.key, v)
	}
	for _, f := range p {
		if _, there := b.get(f.key); !there {
			write(f.key, f.value)
		}
	}
	out.WriteByte('}')
	return out.Bytes(), true
}

// field is one key of a JSON object and its value's text.
type field struct {
	key   string
	value json.RawMessage
}

type fields []field

func (fs fields) get(key string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.key == key {
			return f.value, true
		}
	}
	return nil, false
}

// objectFields reads a JSON object's fields in order; a key given twice
// counts as its last value, as JSON.parse reads it.
func objectFields(raw json.RawMessage) (fields, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out fields
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if i := out.index(key); i >= 0 {
			out = append(out[:i], out[i+1:]...)
		}
		out = append(out, field{key, v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return out, true
}

func (fs fields) index(key string) int {
	for i, f := range fs {
		if f.key == key {
			return i
		}
	}
	return -1
}

// outputFallback is what the model is told when a rule's replacement of
// the tool output cannot be given a shape Claude Code keeps: the output
// stands, and the replacement follows it as context.
func outputFallback(rule, tool string, replacement json.RawMessage) string {
	text := toolOutputText(replacement)
	return fmt.Sprintf("massgen-hook: hook %q replaced the output of this %s call, in a form that cannot stand in for it; "+
		"the output above is the tool's own. The hook's replacement:\n%s", rule, tool, text)
}
