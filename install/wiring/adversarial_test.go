package wiring

// Adversarial tests of Install/Uninstall: generated and hand-written
// settings files in every layout, checked for the promises of install.go
// (valid JSON, idempotent, nobody else's hooks lost, uninstall restores).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/testrace"
)

// ---- the promises, checked on one file ----

type advSpec struct {
	name    string
	spec    Spec
	entries []Entry
}

func advSpecs() []advSpec {
	grouped := Spec{Shape: Grouped, Ours: testSpec.Ours}
	flat := Spec{Shape: Flat, Skeleton: struct {
		Version int `json:"version"`
	}{1}, Ours: testSpec.Ours}
	bash := flat
	bash.CommandField = "bash"
	flatEntries := func(field string) []Entry {
		h := func(cmd string) any { return map[string]any{field: cmd, "timeout": 10} }
		return []Entry{
			{Event: "preToolUse", Key: "pre", Handler: h("ours pre")},
			{Event: "stop", Key: "stop", Handler: h("ours stop")},
		}
	}
	return []advSpec{
		{"grouped", grouped, append(entries(10),
			// An event name full of gjson path syntax: wiring must never
			// use it as a path.
			Entry{Event: "We.ird#*?|ev\\ent", Key: "weird", Handler: testHandler{"command", "ours weird", 5}})},
		{"flat", flat, flatEntries("command")},
		{"flat-bash", bash, flatEntries("bash")},
	}
}

// effective decodes data as JSON.parse would (the last of duplicate keys).
func effective(t *testing.T, data []byte) map[string]any {
	t.Helper()
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not valid JSON (%v):\n%s", err, data)
	}
	return v
}

func (a advSpec) field() string { return a.spec.commandField() }

func (a advSpec) oursKey(h any) (string, bool) {
	m, ok := h.(map[string]any)
	if !ok {
		return "", false
	}
	cmd, ok := m[a.field()].(string)
	if !ok {
		return "", false
	}
	return a.spec.Ours(cmd)
}

// withoutOurs is v with every handler of ours taken out, and then every
// empty group, event list and "hooks" object (whoever left them empty).
func (a advSpec) withoutOurs(v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		out[k] = x
	}
	hooks, ok := v["hooks"].(map[string]any)
	if !ok {
		return out
	}
	nh := map[string]any{}
	for ev, list := range hooks {
		items, ok := list.([]any)
		if !ok {
			nh[ev] = list
			continue
		}
		var keep []any
		for _, it := range items {
			if a.spec.Shape == Flat {
				if _, ours := a.oursKey(it); !ours {
					keep = append(keep, it)
				}
				continue
			}
			g, ok := it.(map[string]any)
			hs, ok2 := g["hooks"].([]any)
			if !ok || !ok2 {
				keep = append(keep, it)
				continue
			}
			var hk []any
			for _, h := range hs {
				if _, ours := a.oursKey(h); !ours {
					hk = append(hk, h)
				}
			}
			if len(hk) == 0 {
				continue
			}
			ng := map[string]any{}
			for k, x := range g {
				ng[k] = x
			}
			ng["hooks"] = hk
			keep = append(keep, ng)
		}
		if len(keep) > 0 {
			nh[ev] = keep
		}
	}
	delete(out, "hooks")
	if len(nh) > 0 {
		out["hooks"] = nh
	}
	return out
}

// oursIn counts, per event and key, the handlers of ours that count.
func (a advSpec) oursIn(v map[string]any) map[[2]string]int {
	n := map[[2]string]int{}
	hooks, _ := v["hooks"].(map[string]any)
	for ev, list := range hooks {
		items, _ := list.([]any)
		for _, it := range items {
			hs := []any{it}
			if a.spec.Shape == Grouped {
				g, _ := it.(map[string]any)
				hs, _ = g["hooks"].([]any)
			}
			for _, h := range hs {
				if k, ok := a.oursKey(h); ok {
					n[[2]string{ev, k}]++
				}
			}
		}
	}
	return n
}

// hasEmptyHookContainer reports a "hooks" object or an event list the user
// left empty: install fills it and uninstall then removes it, by design
// (TestInstallKeepsOthersAndUninstallRestores exempts it too).
func (a advSpec) hasEmptyHookContainer(v map[string]any) bool {
	hooks, ok := v["hooks"].(map[string]any)
	if !ok {
		return false
	}
	if len(hooks) == 0 {
		return true
	}
	for _, e := range a.entries {
		if l, ok := hooks[e.Event].([]any); ok && len(l) == 0 {
			return true
		}
	}
	return false
}

// emptyRootWithSpace is a file like "{ }" or "{\n}": the space inside is
// lost (the whitespace inside an empty object, a known cosmetic limit), checked on its own.
func emptyRootWithSpace(data []byte) bool {
	r := bytes.TrimSpace(data)
	return len(r) > 2 && r[0] == '{' && len(bytes.TrimSpace(r[1:len(r)-1])) == 0
}

// check runs every promise on data; it returns a description of the first
// broken one, "" when all hold.
func (a advSpec) check(t *testing.T, data []byte) (problem string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("panic: %v\n%s\n%s", r, data, debug.Stack())
		}
	}()
	f, err := Parse("settings.json", data, 0o644)
	if err != nil {
		return "" // not ours to edit; Parse said so
	}
	orig := effective(t, data)

	// Uninstall on its own: valid, none of ours left, others kept.
	un, _ := Uninstall(f, a.spec)
	if len(bytes.TrimSpace(un)) > 0 && !json.Valid(un) {
		return fmt.Sprintf("Uninstall wrote invalid JSON:\n%s", un)
	}
	if n := a.oursIn(effective(t, un)); len(n) != 0 {
		return fmt.Sprintf("Uninstall left handlers of ours %v:\n%s", n, un)
	}
	if !reflect.DeepEqual(a.withoutOurs(orig), a.withoutOurs(effective(t, un))) {
		return fmt.Sprintf("Uninstall changed someone else's hooks:\n%s\n---\n%s", data, un)
	}

	out, err := Install(f, a.spec, a.entries)
	if err != nil {
		var shape *ShapeError
		if !errors.As(err, &shape) {
			return fmt.Sprintf("Install failed with a %T: %v", err, err)
		}
		return ""
	}
	if !json.Valid(out) {
		return fmt.Sprintf("Install wrote invalid JSON:\n%s\n--- from:\n%s", out, data)
	}
	if _, err := Parse("settings.json", out, 0o644); err != nil {
		return fmt.Sprintf("Install wrote a file Parse rejects (%v):\n%s", err, out)
	}
	got := effective(t, out)
	if !reflect.DeepEqual(a.withoutOurs(orig), a.withoutOurs(got)) {
		return fmt.Sprintf("Install changed someone else's hooks or keys:\n%s\n--- became:\n%s", data, out)
	}
	n := a.oursIn(got)
	for _, e := range a.entries {
		if c := n[[2]string{e.Event, e.Key}]; c != 1 {
			return fmt.Sprintf("after Install, %s/%s is wired %d times (JSON.parse view):\n%s\n--- from:\n%s", e.Event, e.Key, c, out, data)
		}
	}
	if len(n) != len(a.entries) {
		return fmt.Sprintf("after Install, handlers of ours beyond the entries: %v\n%s", n, out)
	}
	again, err := Install(&File{Path: f.Path, Data: out, Exists: true}, a.spec, a.entries)
	if err != nil || !bytes.Equal(again, out) {
		return fmt.Sprintf("second Install changed the file (%v): %s\n%s\n---\n%s", err, firstDiff(out, again), out, again)
	}
	back, _ := Uninstall(&File{Path: f.Path, Data: out, Exists: true}, a.spec)
	if !json.Valid(back) && len(bytes.TrimSpace(data)) > 0 {
		return fmt.Sprintf("Uninstall after Install wrote invalid JSON:\n%s", back)
	}
	if len(a.oursIn(orig)) == 0 && len(bytes.TrimSpace(data)) > 0 && !a.hasEmptyHookContainer(orig) &&
		!emptyRootWithSpace(data) && !bytes.Equal(back, data) {
		return fmt.Sprintf("Uninstall(Install(x)) != x:\n%q\n--- installed:\n%s\n--- back:\n%q", data, out, back)
	}
	return ""
}

// ---- hand-written files ----

var advFiles = []string{
	"{}",
	"{}\n",
	"  \n\t{}\n\n",
	"{ }",
	"{\n}\n",
	`{"a":1}`,
	`{"a": 1, "b": [1, 2]}`,
	"{\r\n\t\"a\": {\r\n\t\t\"b\": []\r\n\t}\r\n}",
	"{\r\n  \"hooks\": {\r\n    \"Notification\": [\r\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}\r\n    ]\r\n  }\r\n}\r\n",
	"{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"Bash\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\"type\": \"command\", \"command\": \"other\"}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}",
	`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"other"},{"type":"command","command":"ours pre"}]}]}}`,
	`{"hooks":{"PreToolUse":[{"hooks":[{"command":"ours pre"}]},{"hooks":[{"command":"ours pre"}]}],"Stop":[{"hooks":[{"command":"ours pre"},{"command":"ours stop"}]}]}}`,
	`{"hooks":{"Stop":[{"hooks":[{"command":42},{"command":null},{"command":["ours stop"]},"ours stop",null,7]}]}}`,
	`{"hooks":{"Stop":[{"matcher":"x"},{"hooks":null},{"hooks":"ours stop"},{}]}}`,
	`{"hooks":{"Notification":null,"SessionEnd":"x","Other":{"a":1}}}`,
	`{"hooks":{"Stop":null}}`,
	`{"hooks":{"Stop":"ours stop"}}`,
	`{"hooks":null}`,
	`{"hooks":[]}`,
	`{"hooks":"x"}`,
	`{"hooks":{}}`,
	`{"hooks":{"Stop":[]}}`,
	`{"a.b":{"c#d":1,"*":2,"?":[]},"hooks.PreToolUse":[],"h\u006fmebrew":"\u00e9\ud83d\ude00","\"q\"":{"\\":1}}`,
	"{\"k\u00e9y\": \"val\u00fc\u4e2d\u6587\", \"emoji\": \"\U0001F600\"}",
	`{"x":{"y":{"z":{}}},"e":[[],{},[{}]],"hooks":{"Stop":[{"hooks":[]}]}}`,
	`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ours stop","timeout":10}]}]}, "z": 1}`,
	`{"a": "{\"hooks\":{}}", "hooks": {"Stop": [{"hooks": [{"command": "echo \"hooks\": {} ours stop"}]}]}}`,
	"{\"b\": \"\\n\\r\\t\\\\ \\u2028\",\n \"hooks\": {}}\n",
	"{\n    \"first\": 1\n  , \"second\": 2\n}",
	"{\"only\":{\n  \"a\": 1\n}}",
	"{\"a\": [\n1,\n2\n], \"hooks\": {\"Stop\": [\n{\"hooks\": [{\"command\": \"x\"}]}\n]}}",
	"\n\n{\"a\":1}   \n\n\n",
	`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/opt/my tools/ours' pre"},{"command":"ours  pre"}]}]}}`,
}

func TestAdvInstallHandWritten(t *testing.T) {
	for _, a := range advSpecs() {
		for i, data := range advFiles {
			if p := a.check(t, []byte(data)); p != "" {
				t.Errorf("%s, file %d %q: %s", a.name, i, data, p)
			}
		}
	}
}

// ---- generated files ----

// jv is a JSON value keeping member order and duplicates.
type jv struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal
	text    string
	members []jkv
	elems   []jv
}

type jkv struct {
	key string
	val jv
}

func js(s string) jv        { return jv{kind: 's', text: s} }
func jn(n int) jv           { return jv{kind: 'n', text: fmt.Sprint(n)} }
func jl(s string) jv        { return jv{kind: 'l', text: s} }
func ja(e ...jv) jv         { return jv{kind: 'a', elems: e} }
func jo(m ...jkv) jv        { return jv{kind: 'o', members: m} }
func kv(k string, v jv) jkv { return jkv{k, v} }

// layout is how a generated file is written.
type layout struct {
	r       *rand.Rand
	nl      string
	unit    string // "" writes everything on one line
	spaced  bool   // ", " and ": " in one-line containers
	sloppy  bool   // random extra whitespace between tokens
	escapes bool   // write some characters of keys as \u escapes
}

func (l *layout) ws() string {
	if !l.sloppy || l.r.Intn(3) != 0 {
		return ""
	}
	return []string{" ", "\t", "  ", l.nl + " "}[l.r.Intn(4)]
}

func (l *layout) str(s string, key bool) string {
	b, _ := json.Marshal(s)
	out := string(b)
	if key && l.escapes && len(s) > 0 && l.r.Intn(3) == 0 {
		// Escape the first character: the key stays the same to JSON.
		r := []rune(s)
		first, _ := json.Marshal(string(r[0]))
		if string(first) == `"`+string(r[0])+`"` && r[0] < 0x10000 {
			out = fmt.Sprintf(`"\u%04x%s`, r[0], string(b)[1+len(string(r[0])):])
		}
	}
	return out
}

func (l *layout) write(b *strings.Builder, v jv, indent string) {
	switch v.kind {
	case 's':
		b.WriteString(l.str(v.text, false))
		return
	case 'n', 'l':
		b.WriteString(v.text)
		return
	}
	open, close := "{", "}"
	n := len(v.members)
	if v.kind == 'a' {
		open, close, n = "[", "]", len(v.elems)
	}
	multi := l.unit != "" && n > 0 && l.r.Intn(4) != 0
	b.WriteString(open)
	inner := indent + l.unit
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(l.ws() + ",")
			if !multi && l.spaced {
				b.WriteString(" ")
			}
		}
		if multi {
			b.WriteString(l.nl + inner)
		} else {
			b.WriteString(l.ws())
		}
		if v.kind == 'o' {
			b.WriteString(l.str(v.members[i].key, true) + l.ws() + ":")
			if multi || l.spaced {
				b.WriteString(" ")
			}
			l.write(b, v.members[i].val, inner)
		} else {
			l.write(b, v.elems[i], inner)
		}
	}
	if multi {
		b.WriteString(l.nl + indent)
	} else if n == 0 && l.sloppy && l.r.Intn(2) == 0 {
		b.WriteString(" ")
	}
	b.WriteString(close)
}

// gen builds random settings files in the shape of spec.
type gen struct {
	r    *rand.Rand
	flat bool
	cmd  string // the handler's command field
}

var advKeys = []string{"model", "env", "permissions", "a.b", "c#d", "*", "x?y", "h|k", "\\", "\"", "ключ", "鍵", "🙂", "", " ", "hooks2", "Hooks", "statusLine"}

func (g gen) pick(s []string) string { return s[g.r.Intn(len(s))] }

func (g gen) scalar() jv {
	switch g.r.Intn(6) {
	case 0:
		return jn(g.r.Intn(1000) - 500)
	case 1:
		return jl(g.pick([]string{"true", "false", "null", "1.5e3", "-0"}))
	default:
		return js(g.pick([]string{"", "x", "opus", "a\nb", `q"uote`, "tab\t", "ünï", "\u2028", "&&<>", "{\"hooks\":{}}", strings.Repeat("long ", 40)}))
	}
}

func (g gen) any(depth int) jv {
	if depth <= 0 || g.r.Intn(3) == 0 {
		return g.scalar()
	}
	n := g.r.Intn(4)
	if g.r.Intn(2) == 0 {
		var e []jv
		for range n {
			e = append(e, g.any(depth-1))
		}
		return ja(e...)
	}
	var m []jkv
	for range n {
		m = append(m, kv(g.pick(advKeys), g.any(depth-1)))
	}
	return jo(m...)
}

func (g gen) handler(events []string) jv {
	var cmd jv
	switch g.r.Intn(10) {
	case 0, 1, 2:
		cmd = js("ours " + g.pick([]string{"pre", "stop", "old", "weird"}))
	case 3:
		cmd = jn(3)
	case 4:
		cmd = jl("null")
	default:
		cmd = js(g.pick([]string{"other-tool guard", "echo ours pre", "./ours pre", "ours", "npx thing && x < y"}))
	}
	m := []jkv{kv("type", js("command")), kv(g.cmd, cmd)}
	if g.r.Intn(2) == 0 {
		m = append(m, kv("timeout", jn(g.r.Intn(100))))
	}
	if g.r.Intn(5) == 0 {
		m = append(m, kv("matcher", js("Bash")))
	}
	if g.r.Intn(15) == 0 {
		return g.scalar() // not a handler at all
	}
	return jo(m...)
}

func (g gen) item(events []string) jv {
	if g.flat {
		return g.handler(events)
	}
	if g.r.Intn(15) == 0 {
		return g.scalar()
	}
	var m []jkv
	if g.r.Intn(2) == 0 {
		m = append(m, kv("matcher", js(g.pick([]string{"*", "Bash", "", "Write|Edit"}))))
	}
	if g.r.Intn(12) != 0 {
		var hs []jv
		for range g.r.Intn(4) {
			hs = append(hs, g.handler(events))
		}
		m = append(m, kv("hooks", ja(hs...)))
	}
	return jo(m...)
}

func (g gen) file(a advSpec) jv {
	events := []string{"Notification", "SessionEnd", "weird.name", "*"}
	for _, e := range a.entries {
		events = append(events, e.Event)
	}
	var top []jkv
	for range g.r.Intn(4) {
		top = append(top, kv(g.pick(advKeys), g.any(3)))
	}
	if g.r.Intn(8) != 0 {
		var hm []jkv
		used := map[string]bool{}
		for range g.r.Intn(5) {
			ev := g.pick(events)
			if used[ev] {
				continue // duplicated event keys: TestRegression_DuplicateEventKey
			}
			used[ev] = true
			var items []jv
			for range g.r.Intn(4) {
				items = append(items, g.item(events))
			}
			val := ja(items...)
			if g.r.Intn(25) == 0 {
				val = g.scalar()
			}
			hm = append(hm, kv(ev, val))
		}
		hooks := jo(hm...)
		if g.r.Intn(30) == 0 {
			hooks = g.scalar()
		}
		at := g.r.Intn(len(top) + 1)
		top = append(top[:at], append([]jkv{kv("hooks", hooks)}, top[at:]...)...)
	}
	if a.spec.Shape == Flat && g.r.Intn(2) == 0 {
		top = append([]jkv{kv("version", jn(1))}, top...)
	}
	// A key given twice at the top level (not "hooks"): JSON.parse keeps
	// the last, and nothing about it may change.
	if len(top) > 0 && top[0].key != "hooks" && g.r.Intn(6) == 0 {
		top = append(top, kv(top[0].key, g.any(2)))
	}
	return jo(top...)
}

// Regression (the generator finds TestRegressionPrunedGroupMateLeavesWrongMatcher: every
// failure it reports today is a second Install changing a group's matcher).
//
// It starts no goroutine but its parallel subtests, which share nothing
// (each shape its own generator; Parse, Install and Uninstall keep no
// state), and wiring starts none: the race detector has nothing to find
// here and made it five times slower (24 of the race job's CPU-seconds
// against 5). It skips itself under -race; `make test` runs it without.
func TestRegression_GeneratedSettingsFiles(t *testing.T) {
	t.Parallel()
	testrace.Skip(t)
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	// Each shape has a generator of its own (the same seed), so the shapes
	// run side by side, each on a core of its own.
	for _, a := range advSpecs() {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			generatedSettingsFiles(t, a, iterations)
		})
	}
}

// generatedSettingsFiles checks iterations files generated for a's shape.
func generatedSettingsFiles(t *testing.T, a advSpec, iterations int) {
	r := rand.New(rand.NewSource(20261120))
	failures := 0
	for i := range iterations {
		g := gen{r: r, flat: a.spec.Shape == Flat, cmd: a.field()}
		v := g.file(a)
		l := &layout{r: r, nl: []string{"\n", "\r\n"}[r.Intn(2)], unit: []string{"", "  ", "    ", "\t", " "}[r.Intn(5)],
			spaced: r.Intn(2) == 0, sloppy: r.Intn(4) == 0, escapes: r.Intn(4) == 0}
		var b strings.Builder
		if r.Intn(6) == 0 {
			b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[r.Intn(4)])
		}
		l.write(&b, v, "")
		if r.Intn(2) == 0 {
			b.WriteString(l.nl)
		}
		data := []byte(b.String())
		if !json.Valid(data) {
			t.Fatalf("generator wrote invalid JSON:\n%s", data)
		}
		if p := a.check(t, data); p != "" {
			failures++
			if testing.Verbose() {
				t.Logf("%s #%d: %s", a.name, i, strings.SplitN(p, "\n", 2)[0])
			}
			if failures <= 3 {
				t.Errorf("%s #%d: %s", a.name, i, p)
			}
		}
	}
	if failures > 3 {
		t.Errorf("%s: %d failures in all", a.name, failures)
	}
}

// A very long file: every promise holds and an install is not quadratic in
// the file's other hooks. Like the generated files' test, it starts no
// goroutine: it skips itself under -race (6 s there, 1 s without).
func TestAdvInstallLongFile(t *testing.T) {
	testrace.Skip(t)
	var b strings.Builder
	b.WriteString("{\n  \"hooks\": {\n    \"PreToolUse\": [\n")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `      {"matcher": "T%d", "hooks": [{"type": "command", "command": "other %d"}]}`, i, i)
	}
	b.WriteString("\n    ]\n  },\n  \"big\": \"" + strings.Repeat("x", 1<<20) + "\"\n}\n")
	a := advSpecs()[0]
	if p := a.check(t, []byte(b.String())); p != "" {
		t.Error(p[:min(len(p), 2000)])
	}
}

// Many stale handlers of ours are pruned in one Install. No goroutine:
// it skips itself under -race (2.7 s there, 0.8 s without).
func TestAdvInstallPrunesManyDuplicates(t *testing.T) {
	testrace.Skip(t)
	var b strings.Builder
	b.WriteString(`{"hooks":{"Stop":[`)
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"hooks":[{"type":"command","command":"other"},{"type":"command","command":"ours stop"}]}`)
	}
	b.WriteString(`]}}`)
	a := advSpecs()[0]
	if p := a.check(t, []byte(b.String())); p != "" {
		t.Error(p[:min(len(p), 2000)])
	}
}

// ---- bugs ----

// Regression (found by adversarial tests): a key given twice inside "hooks" counts once, the last time, as
// Claude Code's JSON.parse reads it (member() says so and init edits the
// last "hooks"). But Spec.ours walks every member of "hooks", the dead
// first copy of an event included. Install finds our handler there,
// "updates it in place" and adds nothing to the copy that is used: the
// hook is not wired, and a second init says "already wired".
// Expected: after Install, JSON.parse's view has our Stop handler.
// Actual: the effective "Stop" list holds only the other tool's handler.
func TestRegression_DuplicateEventKeyInstallsIntoDeadCopy(t *testing.T) {
	a := advSpecs()[0]
	data := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "ours stop", "timeout": 10}]}], "Stop": [{"hooks": [{"type": "command", "command": "other"}]}]}}`
	out, err := Install(parse(t, data), a.spec, a.entries)
	if err != nil {
		t.Fatal(err)
	}
	if n := a.oursIn(effective(t, out))[[2]string{"Stop", "stop"}]; n != 1 {
		t.Errorf("Stop/stop wired %d times in the copy JSON.parse keeps, want 1:\n%s", n, out)
	}
}

// Regression (found by adversarial tests): the same inside a group. gjson's Get("hooks") on a group returns the
// FIRST "hooks" key, JSON.parse the LAST. Our handler, sharing the dead
// first list with another tool's, counts as installed and is updated there.
// Expected: the handler is wired where Claude Code reads it.
// Actual: the effective list of the group holds only "other2".
func TestRegression_DuplicateGroupHooksKey(t *testing.T) {
	a := advSpec{"stop only", Spec{Shape: Grouped, Ours: testSpec.Ours}, entries(10)[1:]}
	data := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other1"}, {"type": "command", "command": "ours stop", "timeout": 10}], "hooks": [{"type": "command", "command": "other2"}]}]}}`
	out, err := Install(parse(t, data), a.spec, a.entries)
	if err != nil {
		t.Fatal(err)
	}
	if n := a.oursIn(effective(t, out))[[2]string{"Stop", "stop"}]; n != 1 {
		t.Errorf("Stop/stop wired %d times in JSON.parse's view, want 1:\n%s", n, out)
	}
}

// Regression (found by adversarial tests): Install is not idempotent, and wires pre-tool-use with the wrong
// matcher, when our handler shares a group only with handlers of ours that
// Install prunes (a stale subcommand, a duplicate). install() sees the
// handler "not alone", updates only the handler and keeps the group's
// matcher; prune() then removes the other handler, leaving ours alone in a
// group matching "Bash" only. The next Install sees it alone and replaces
// the group with matcher "*".
// Expected: one Install gives the final file (matcher "*"), a second
// changes nothing.
// Actual: after the first Install PreToolUse runs for Bash only; the second
// Install rewrites the group. (The generated test finds the same with a
// missing matcher, "matcher": "" and an escaped "\u006datcher".)
func TestRegressionPrunedGroupMateLeavesWrongMatcher(t *testing.T) {
	a := advSpec{"pre only", Spec{Shape: Grouped, Ours: testSpec.Ours}, entries(10)[:1]}
	data := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "ours pre", "timeout": 10}, {"type": "command", "command": "ours old"}]}]}}`
	out, err := Install(parse(t, data), a.spec, a.entries)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Install(parse(t, string(out)), a.spec, a.entries)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(out) {
		t.Errorf("second Install changed the file:\n%s\n---\n%s", out, again)
	}
	if !strings.Contains(string(out), `"matcher":"*"`) && !strings.Contains(string(out), `"matcher": "*"`) {
		t.Errorf("pre-tool-use left matching Bash only:\n%s", out)
	}
}

// An escaped key is the same key: "hoo\u006bs" is "hooks".
func TestAdvEscapedHooksKey(t *testing.T) {
	a := advSpecs()[0]
	data := `{"hoo\u006bs": {"Notification": [{"hooks": [{"type": "command", "command": "n"}]}]}}`
	if p := a.check(t, []byte(data)); p != "" {
		t.Error(p)
	}
}

// firstDiff shows where two outputs first differ, by line.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: %q became %q", i+1, strings.TrimSpace(al[i]), strings.TrimSpace(bl[i]))
		}
	}
	return "in length"
}
