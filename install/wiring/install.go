package wiring

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// Shape is how a file lists the handlers of an event.
type Shape int

const (
	// Grouped is Claude Code's shape, also Gemini CLI's and Codex's:
	// "hooks": {"Event": [{"matcher": M, "hooks": [handler, ...]}]}.
	Grouped Shape = iota
	// Flat is Cursor's: "hooks": {"event": [handler, ...]}, the matcher
	// inside the handler.
	Flat
)

// Spec says how a file holds hooks and which of its handlers are ours.
type Spec struct {
	Shape Shape
	// Skeleton is what a new file holds before any hook (Cursor's
	// {"version": 1}); nil is {}.
	Skeleton any
	// CommandField is the handler field holding its shell command:
	// "command", or Copilot's "bash".
	CommandField string
	// Ours returns the key of a handler command we wrote (the subcommand
	// it runs), ok false for anyone else's.
	Ours func(command string) (key string, ok bool)
}

// Entry is one handler to wire.
type Entry struct {
	Event string
	// Key tells our handlers of one event apart; Spec.Ours returns it.
	Key string
	// Matcher is the group's matcher (Grouped only); "" writes none.
	Matcher string
	// Handler is the handler object, marshalled in its fields' order.
	Handler any
}

// group is one Grouped matcher group.
type group struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []any  `json:"hooks"`
}

func (e Entry) item(shape Shape) any {
	if shape == Flat {
		return e.Handler
	}
	return group{Matcher: e.Matcher, Hooks: []any{e.Handler}}
}

// Install returns f's content with every entry wired: a handler of ours
// already there is updated in place, a missing one is appended in a group of
// its own, and handlers of ours no entry asks for (duplicates, subcommands
// dropped since) are removed. Nobody else's hooks, keys or layout change;
// a second Install with the same entries returns the bytes unchanged.
func Install(f *File, spec Spec, entries []Entry) ([]byte, error) {
	data := f.Data
	if len(bytes.TrimSpace(data)) == 0 {
		data = spec.skeleton()
	}
	s := styleOf(data)
	if hooks, at := member(root(data), "hooks"); at >= 0 && !hooks.IsObject() {
		return nil, f.shapeError(data, hooks, `"hooks"`, "must be an object of event names")
	}
	wanted := map[[2]string]bool{}
	for _, e := range entries {
		wanted[[2]string{e.Event, e.Key}] = true
	}
	// Stale and duplicate handlers go first, so a handler that shared a
	// group only with them is alone and gets its whole group updated.
	// That may take "hooks" with them, so it is looked for after.
	data = spec.prune(data, func(l loc, seen bool) bool { return seen || !wanted[[2]string{l.event, l.key}] })
	if r := root(data); !has(r, "hooks") {
		data = s.appendTo(data, r, memberText("hooks", struct{}{}))
	}
	for _, e := range entries {
		var err error
		if data, err = install(f, spec, s, data, e); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// Uninstall returns f's content with every handler of ours removed, and
// the groups, events and "hooks" object that held only ours with them.
// empty reports that nothing but the skeleton is left: the file can go.
func Uninstall(f *File, spec Spec) (out []byte, empty bool) {
	if len(bytes.TrimSpace(f.Data)) == 0 {
		return f.Data, false
	}
	out = spec.prune(f.Data, func(loc, bool) bool { return true })
	// A file that had none of ours is not ours to delete, however empty.
	return out, !bytes.Equal(out, f.Data) && sameJSON(root(out).Raw, spec.skeletonValue())
}

func install(f *File, spec Spec, s style, data []byte, e Entry) ([]byte, error) {
	hooks, _ := member(root(data), "hooks")
	event, at := member(hooks, e.Event)
	item := e.item(spec.Shape)
	if at < 0 {
		return s.appendTo(data, hooks, memberText(e.Event, []any{item})), nil
	}
	if !event.IsArray() {
		return nil, f.shapeError(data, event, `"hooks"."`+e.Event+`"`, "must be a list")
	}
	for _, l := range spec.ours(data) {
		if l.event != e.Event || l.key != e.Key {
			continue
		}
		switch {
		case spec.Shape == Flat || l.alone:
			if !sameJSON(l.item.Raw, item) {
				data = s.replace(data, l.item, item)
			}
		case !sameJSON(l.handler.Raw, e.Handler):
			// The user put our handler in a group with others: update
			// the handler, leave their group alone.
			data = s.replace(data, l.handler, e.Handler)
		}
		return data, nil
	}
	return s.appendTo(data, event, valueText(item)), nil
}

// loc is one handler of ours, where it sits.
type loc struct {
	event, key string
	// item is the event's list element holding it: its group, or the
	// handler itself when Flat; handler is the handler object.
	item, handler gjson.Result
	// alone is true when its group holds nothing else.
	alone bool
	// path indexes: the event among hooks' members, the item in the
	// event's list, the handler in its group's list.
	ei, ii, hi int
}

// ours lists every handler of ours in data, in file order.
func (spec Spec) ours(data []byte) []loc {
	var out []loc
	hooks, _ := member(root(data), "hooks")
	if !hooks.IsObject() {
		return nil
	}
	events := elements(hooks)
	for ei, ev := range events {
		if !ev.Value.IsArray() || !lastOf(events, ei) {
			continue // a key given twice: JSON.parse keeps the last
		}
		for ii, it := range elements(ev.Value) {
			handlers := []element{it}
			if spec.Shape == Grouped {
				list, _ := member(it.Value, "hooks")
				handlers = elements(list)
			}
			for hi, h := range handlers {
				cmd := h.Value.Get(spec.commandField())
				if !h.Value.IsObject() || cmd.Type != gjson.String {
					continue
				}
				if key, ok := spec.Ours(cmd.Str); ok {
					out = append(out, loc{event: ev.Key.Str, key: key, item: it.Value, handler: h.Value,
						alone: len(handlers) == 1, ei: ei, ii: ii, hi: hi})
				}
			}
		}
	}
	return out
}

// prune removes, one at a time, each handler of ours that drop selects;
// seen tells drop that an earlier handler had the same event and key.
func (spec Spec) prune(data []byte, drop func(l loc, seen bool) bool) []byte {
	for {
		seen := map[[2]string]bool{}
		removed := false
		for _, l := range spec.ours(data) {
			k := [2]string{l.event, l.key}
			if drop(l, seen[k]) {
				data = spec.removeHandler(data, l)
				removed = true
				break
			}
			seen[k] = true
		}
		if !removed {
			return data
		}
	}
}

// removeHandler removes l, and each container it leaves empty: its group,
// its event, the "hooks" object.
func (spec Spec) removeHandler(data []byte, l loc) []byte {
	r := root(data)
	hooks, hooksAt := member(r, "hooks")
	event := elements(hooks)[l.ei].Value
	if spec.Shape == Grouped && !l.alone {
		list, _ := member(l.item, "hooks")
		return remove(data, list, l.hi)
	}
	switch {
	case len(elements(event)) > 1:
		return remove(data, event, l.ii)
	case len(elements(hooks)) > 1:
		return remove(data, hooks, l.ei)
	default:
		return remove(data, r, hooksAt)
	}
}

func has(o gjson.Result, key string) bool {
	_, at := member(o, key)
	return at >= 0
}

// lastOf reports whether member i is the last with its key.
func lastOf(members []element, i int) bool {
	for _, m := range members[i+1:] {
		if m.Key.Str == members[i].Key.Str {
			return false
		}
	}
	return true
}

// member finds key among object o's members: its value and index, or -1.
// A key given twice is the last one, as JSON.parse in Claude Code reads it.
func member(o gjson.Result, key string) (gjson.Result, int) {
	found, at := gjson.Result{}, -1
	for i, e := range elements(o) {
		if e.Key.Str == key {
			found, at = e.Value, i
		}
	}
	return found, at
}

func (spec Spec) commandField() string {
	if spec.CommandField == "" {
		return "command"
	}
	return spec.CommandField
}

func (spec Spec) skeletonValue() any {
	if spec.Skeleton == nil {
		return struct{}{}
	}
	return spec.Skeleton
}

func (spec Spec) skeleton() []byte {
	return append(style{unit: "  ", newline: "\n"}.render(spec.skeletonValue(), ""), '\n')
}

func (f *File) shapeError(data []byte, v gjson.Result, field, msg string) error {
	return &ShapeError{Path: f.Path, Field: field, Line: LineOf(data, v.Index), Msg: msg}
}
