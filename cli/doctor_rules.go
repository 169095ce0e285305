package cli

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// wiredHandler is one handler of a settings file, kept for the duplicate
// check across files.
type wiredHandler struct {
	scope            *doctorScope
	line             int
	field            string
	event, matcher   string
	identity, source string
}

// handlerTypes are the handler types of Claude Code other than command,
// which doctor does not check further.
var handlerTypes = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"prompt": true, "agent": true, "http": true, "mcp_tool": true}
}}

// checkSettings checks the "hooks" of one settings file.
func (d *doctorRun) checkSettings(s *doctorScope, f *wiring.File) {
	data := f.Data
	hooks := gjson.GetBytes(data, "hooks")
	if all := gjson.GetBytes(data, "disableAllHooks"); all.Type == gjson.True {
		d.add(s, wiring.LineOf(data, all.Index), "disableAllHooks", doctor.Issue{Severity: doctor.Note,
			Message: "is true: Claude Code runs no hook at all while it is set"})
	}
	handlers, shapes := wiring.List(f, wiring.Grouped)
	for _, e := range shapes {
		d.add(s, e.Line, e.Field, doctor.Issue{Severity: doctor.Problem, Message: e.Msg + "; what it holds is not wired"})
	}
	d.checkEvents(s, data, hooks)
	groups := groupsOf(hooks)
	seenGroup := map[int]bool{}
	for _, h := range handlers {
		s.Handlers++
		known := doctor.IsEvent(h.Event)
		if g, ok := groups.containing(h.Raw.Index); ok && !seenGroup[g.Index] {
			seenGroup[g.Index] = true
			if m := g.Get("matcher"); known && m.Exists() {
				field := strings.TrimSuffix(h.Field, h.Field[strings.LastIndex(h.Field, ".hooks["):]) + ".matcher"
				if m.Type != gjson.String && m.Type != gjson.Null {
					d.add(s, wiring.LineOf(data, m.Index), field, doctor.Issue{Severity: doctor.Problem, Message: "must be a string, got " + m.Raw})
				}
				for _, is := range doctor.CheckMatcher(h.Event, h.Matcher, h.HasMatcher) {
					d.add(s, wiring.LineOf(data, m.Index), field, is)
				}
			}
		}
		d.checkHandler(s, data, h, known)
	}
}

// checkEvents checks the event names of "hooks", and names given twice
// (JSON.parse keeps only the last).
func (d *doctorRun) checkEvents(s *doctorScope, data []byte, hooks gjson.Result) {
	if !hooks.IsObject() {
		return
	}
	last := map[string]int{}
	type key struct {
		name string
		line int
	}
	var keys []key
	hooks.ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, key{k.Str, wiring.LineOf(data, k.Index)})
		last[k.Str] = len(keys) - 1
		return true
	})
	for i, k := range keys {
		for _, is := range doctor.CheckEvent(k.name) {
			d.add(s, k.line, "hooks."+k.name, is)
		}
		if last[k.name] != i {
			d.add(s, k.line, "hooks."+k.name, doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
				"is given again on line %d, and Claude Code keeps only the last, so the handlers here never run; merge the two lists", keys[last[k.name]].line)})
		}
	}
}

// checkHandler checks one handler's type, timeout and command.
func (d *doctorRun) checkHandler(s *doctorScope, data []byte, h wiring.Handler, known bool) {
	at := func(field string) int {
		if v := h.Raw.Get(field); v.Exists() {
			return wiring.LineOf(data, v.Index)
		}
		return h.Line
	}
	switch {
	case h.Type == "":
		d.add(s, h.Line, h.Field, doctor.Issue{Severity: doctor.Problem, Message: `has no "type"; add "type": "command"`})
	case h.Type != "command":
		if !handlerTypes.Get()[h.Type] {
			d.add(s, at("type"), h.Field+".type", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
				"%q is not a handler type Claude Code knows; use \"command\"", h.Type)})
		}
		return
	}
	if h.HasTimeout {
		for _, is := range doctor.CheckTimeout(h.Raw.Get("timeout").Raw) {
			d.add(s, at("timeout"), h.Field+".timeout", is)
		}
	}
	var c doctor.Command
	field, source := h.Field+".command", h.Command
	switch {
	case h.Raw.Get("args").Exists():
		field, source = h.Field+".args", strings.Join(h.Args, " ")
		c = doctor.CheckArgs(h.Args, d.env)
	case h.Raw.Get("command").Exists():
		c = doctor.CheckCommand(h.Command, d.env)
	default:
		d.add(s, h.Line, h.Field, doctor.Issue{Severity: doctor.Problem, Message: `has neither "command" nor "args"; give the command to run`})
		return
	}
	line := at(field[strings.LastIndex(field, ".")+1:])
	for _, is := range c.Issues {
		d.add(s, line, field, is)
	}
	if _, ours := c.Subcommand(); doctor.StopEvents.Get()[h.Event] && !ours {
		for _, is := range doctor.CheckLoopGuard(h.Event, source, c) {
			d.add(s, line, field, is)
		}
	}
	if known {
		d.handlers = append(d.handlers, wiredHandler{scope: s, line: line, field: field,
			event: h.Event, matcher: h.Matcher, identity: c.Identity(), source: source})
	}
}

// duplicates reports handlers wired twice for one event, where some name
// matches both. Claude Code runs byte-identical commands once (a note);
// different commands that run the same thing both run (a problem).
func (d *doctorRun) duplicates() {
	reported := map[int]bool{}
	for j, b := range d.handlers {
		for i := 0; i < j && !reported[j]; i++ {
			a := d.handlers[i]
			if a.event != b.event || !sameHandler(a, b) || !doctor.MatchersOverlap(a.event, a.matcher, b.matcher) {
				continue
			}
			reported[j] = true
			where := fmt.Sprintf("%s:%d (%s)", a.scope.File, a.line, a.field)
			is := doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
				"the same command as %s, for %s; Claude Code runs identical commands once, so one of them can go", where, b.event)}
			if a.source != b.source {
				what := "the same handler"
				if strings.HasPrefix(b.identity, doctor.ProgramName+" ") {
					what = b.identity
				}
				is = doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
					"runs %s again, as %s does, for %s: both run in parallel and answer twice; remove one", what, where, b.event)}
			}
			d.add(b.scope, b.line, b.field, is)
		}
	}
}

func sameHandler(a, b wiredHandler) bool {
	if a.source == b.source {
		return true
	}
	return a.identity != "" && a.identity == b.identity
}

// groupList is the matcher groups of "hooks", every event's.
type groupList []gjson.Result

func groupsOf(hooks gjson.Result) groupList {
	var out groupList
	if !hooks.IsObject() {
		return nil
	}
	hooks.ForEach(func(_, list gjson.Result) bool {
		if list.IsArray() {
			list.ForEach(func(_, g gjson.Result) bool {
				if g.IsObject() {
					out = append(out, g)
				}
				return true
			})
		}
		return true
	})
	return out
}

// containing is the group whose text holds offset.
func (gs groupList) containing(offset int) (gjson.Result, bool) {
	for _, g := range gs {
		if g.Index <= offset && offset < g.Index+len(g.Raw) {
			return g, true
		}
	}
	return gjson.Result{}, false
}
