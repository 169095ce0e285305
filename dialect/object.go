package dialect

import (
	"bytes"
	"encoding/json"
	"io"
)

// object is a JSON object whose values stay raw until a field is touched,
// so translating an event does not decode a megabyte of tool output.
type object map[string]any

func decode(raw []byte) (object, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	o := make(object, len(fields))
	for k, v := range fields {
		o[k] = v
	}
	return o, nil
}

func (o object) has(key string) bool { _, ok := o[key]; return ok }

// str is the field's string value, "" when it is missing or not a string.
func (o object) str(key string) string {
	var s string
	if raw, ok := o[key].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &s)
	} else if v, ok := o[key].(string); ok {
		s = v
	}
	return s
}

// num is the field's number, 0 when it is missing or not a number.
func (o object) num(key string) float64 {
	var n float64
	if raw, ok := o[key].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &n)
	}
	return n
}

func (o object) set(key string, v any) { o[key] = v }

// rename moves from to to, unless to is already there (it wins).
func (o object) rename(from, to string) {
	v, ok := o[from]
	if !ok {
		return
	}
	delete(o, from)
	if !o.has(to) {
		o[to] = v
	}
}

// unstring turns a field that holds JSON as a string (Cursor's MCP
// tool_input, Copilot's toolArgs) into that JSON; other text stays text.
func (o object) unstring(key string) {
	s := o.str(key)
	if s == "" || !json.Valid([]byte(s)) {
		return
	}
	o[key] = json.RawMessage(s)
}

// mapTool renames the tool to Claude Code's name for it, so rules and the
// built-in guards written for Bash, Write or Edit apply.
func (o object) mapTool(names map[string]string) {
	if name, ok := names[o.str("tool_name")]; ok {
		o.set("tool_name", name)
	}
}

func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// input is the tool input as an object; false when it is not one.
func (o object) input() (object, bool) {
	raw, ok := o["tool_input"]
	if !ok {
		return nil, false
	}
	in, err := decode(rawOf(raw))
	return in, err == nil
}

// renameArgs gives the tool input Claude Code's argument names, each pair
// the CLI's name first, and notes the renames in n for the way back. The
// CLI reads its own argument, so where the input holds both names (a
// model may add Claude Code's) the CLI's value is the one kept: the other
// is not what runs, and a guard judging it would judge a decoy.
func (o object) renameArgs(n *Native, pairs ...[2]string) {
	in, ok := o.input()
	if !ok {
		return
	}
	for _, p := range pairs {
		if in.has(p[0]) {
			delete(in, p[1])
			in.rename(p[0], p[1])
			n.args = append(n.args, p)
		}
	}
	o.set("tool_input", in)
}

// rawOf is a field's JSON, whichever form it is held in.
func rawOf(v any) []byte {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	raw, _ := json.Marshal(v)
	return raw
}

// cliInput is a rewritten tool input in the CLI's terms: its argument
// names, or its text where the CLI's input was text.
func (n Native) cliInput(input json.RawMessage) any {
	args, err := decode(input)
	if err != nil {
		return input
	}
	if n.textInput != "" {
		if text, ok := args[n.textInput].(json.RawMessage); ok {
			return text
		}
	}
	for _, p := range n.args {
		args.rename(p[1], p[0])
	}
	if len(n.itemArgs) > 0 {
		back := make([][2]string, len(n.itemArgs))
		for i, p := range n.itemArgs {
			back[i] = [2]string{p[1], p[0]}
		}
		if items, ok := renameItems(args["edits"], back); ok {
			args.set("edits", items)
		}
	}
	return args
}
