// Package pluginfile writes and reads the plugin file massgen-hook puts in
// the plugin folder of an agent CLI that runs no command hooks (OpenCode's
// .opencode/plugins/, pi's .pi/extensions/). The shipped source holds three
// placeholders, each once, as JavaScript literals; init fills them in with
// what a settings file's hook commands would say: which binary to run, in
// which scope, and for which subcommands. Reading a file back finds those
// values where the source put them, so doctor and uninstall need no
// JavaScript parser.
package pluginfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The placeholders, as they stand in the source.
const (
	binaryMark = `"@MASSGEN_HOOK_BINARY@"`
	scopeMark  = `"@MASSGEN_HOOK_SCOPE@"`
	subsMark   = `["@MASSGEN_HOOK_SUBCOMMANDS@"]`
)

// Wiring is what one plugin file runs.
type Wiring struct {
	// Binary is the massgen-hook binary: relative to the project root in
	// the project scope, absolute in the user scope.
	Binary string `json:"binary"`
	// Scope is project or user: where the plugin finds the project (the
	// folder above its own plugin folder, or the CLI's).
	Scope string `json:"scope"`
	// Subcommands are the hooks it hands events to.
	Subcommands []string `json:"subcommands"`
}

// Marker is the first line of the plugin of cli: what tells massgen-hook's
// plugin file from any other in the folder.
func Marker(cli string) string {
	return "// massgen-hook " + cli + " plugin: massgen-hook init wrote this file; massgen-hook uninstall removes it."
}

// Render fills src's placeholders in with w. A source without its marker,
// or with a placeholder missing or twice, is a build mistake, reported.
func Render(cli string, src []byte, w Wiring) ([]byte, error) {
	if !isOurs(cli, src) {
		return nil, fmt.Errorf("the %s plugin source does not start with its marker line", cli)
	}
	subs := w.Subcommands
	if subs == nil {
		subs = []string{}
	}
	out := string(src)
	for _, r := range []struct {
		mark  string
		value any
	}{{binaryMark, w.Binary}, {scopeMark, w.Scope}, {subsMark, subs}} {
		if n := strings.Count(out, r.mark); n != 1 {
			return nil, fmt.Errorf("the %s plugin source holds %s %d times, want once", cli, r.mark, n)
		}
		value, err := json.Marshal(r.value)
		if err != nil {
			return nil, err
		}
		out = strings.Replace(out, r.mark, string(value), 1)
	}
	return []byte(out), nil
}

// Read finds in data, a plugin file of cli, the wiring init wrote into it,
// by the text that comes before each placeholder in src on its line. ok is
// false when data is not massgen-hook's plugin (no marker) or a value
// cannot be found: the user rewrote it.
func Read(cli string, src, data []byte) (w Wiring, ok bool) {
	if !isOurs(cli, data) {
		return Wiring{}, false
	}
	for _, r := range []struct {
		mark string
		into any
	}{{binaryMark, &w.Binary}, {scopeMark, &w.Scope}, {subsMark, &w.Subcommands}} {
		anchor := lineBefore(src, r.mark)
		if anchor == "" {
			return Wiring{}, false
		}
		at := bytes.Index(data, []byte(anchor))
		if at < 0 {
			return Wiring{}, false
		}
		if err := json.NewDecoder(bytes.NewReader(data[at+len(anchor):])).Decode(r.into); err != nil {
			return Wiring{}, false
		}
	}
	return w, true
}

// isOurs reports whether data starts with cli's marker line.
func isOurs(cli string, data []byte) bool {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return string(bytes.TrimRight(first, "\r")) == Marker(cli)
}

// lineBefore is the text on mark's line in src before it, from the line's
// start: `const BINARY = ` for `const BINARY = "@MASSGEN_HOOK_BINARY@";`.
func lineBefore(src []byte, mark string) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if before, _, found := strings.Cut(sc.Text(), mark); found {
			return before
		}
	}
	return ""
}
