package wiring

import (
	"bytes"
	"fmt"

	"github.com/tidwall/gjson"
)

// Handler is one hook handler as a file wires it, for checking.
type Handler struct {
	Event string
	// Matcher is the group's matcher (Grouped) or the handler's (Flat).
	Matcher    string
	HasMatcher bool
	Type       string
	// Command is the shell-form command; Args the exec form's argv.
	Command string
	Args    []string
	// Timeout is the timeout as written, in the file's unit.
	Timeout    float64
	HasTimeout bool
	// Field names where it is, like hooks.PreToolUse[0].hooks[1].
	Field string
	Line  int
	// Raw is the handler object.
	Raw gjson.Result
}

// List returns every handler in f and every place where the wiring is not
// the shape it must be (those places wire nothing).
func List(f *File, shape Shape) ([]Handler, []*ShapeError) {
	var hs []Handler
	var probs []*ShapeError
	bad := func(v gjson.Result, field, msg string) {
		probs = append(probs, &ShapeError{Path: f.Path, Field: field, Line: LineOf(f.Data, v.Index), Msg: msg})
	}
	if len(f.Data) == 0 {
		return nil, nil
	}
	hooks, at := member(root(f.Data), "hooks")
	if at < 0 {
		return nil, nil
	}
	if !hooks.IsObject() {
		bad(hooks, "hooks", "must be an object of event names")
		return nil, nil
	}
	for _, ev := range elements(hooks) {
		event := ev.Key.Str
		field := "hooks." + event
		if !ev.Value.IsArray() {
			bad(ev.Value, field, "must be a list")
			continue
		}
		for i, it := range elements(ev.Value) {
			itemField := fmt.Sprintf("%s[%d]", field, i)
			if !it.Value.IsObject() {
				bad(it.Value, itemField, "must be an object")
				continue
			}
			matcher := it.Value.Get("matcher")
			if shape == Flat {
				hs = append(hs, handler(f, event, matcher, it.Value, itemField))
				continue
			}
			group := it.Value.Get("hooks")
			if !group.IsArray() {
				bad(it.Value, itemField+".hooks", "must be a list of handlers")
				continue
			}
			for j, h := range elements(group) {
				hField := fmt.Sprintf("%s.hooks[%d]", itemField, j)
				if !h.Value.IsObject() {
					bad(h.Value, hField, "must be an object")
					continue
				}
				hs = append(hs, handler(f, event, matcher, h.Value, hField))
			}
		}
	}
	return hs, probs
}

func handler(f *File, event string, matcher, h gjson.Result, field string) Handler {
	out := Handler{
		Event: event, Matcher: matcher.String(), HasMatcher: matcher.Exists() && matcher.Type != gjson.Null,
		Type: h.Get("type").String(), Command: h.Get("command").String(),
		Field: field, Line: LineOf(f.Data, h.Index), Raw: h,
	}
	for _, a := range h.Get("args").Array() {
		out.Args = append(out.Args, a.String())
	}
	if t := h.Get("timeout"); t.Exists() {
		out.Timeout, out.HasTimeout = t.Float(), true
	}
	return out
}

// Wired is one handler of ours, as Spec.Ours recognises it.
type Wired struct {
	Event string
	// Key is what Spec.Ours returned: the subcommand and its arguments.
	Key     string
	Command string
	Line    int
}

// Ours lists the handlers of ours in f, in file order.
func Ours(f *File, spec Spec) []Wired {
	if len(bytes.TrimSpace(f.Data)) == 0 {
		return nil
	}
	var out []Wired
	for _, l := range spec.ours(f.Data) {
		out = append(out, Wired{Event: l.event, Key: l.key, Command: l.handler.Get(spec.commandField()).Str,
			Line: LineOf(f.Data, l.handler.Index)})
	}
	return out
}
