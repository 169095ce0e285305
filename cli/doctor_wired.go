package cli

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// wiredScopes reads every agent CLI's hook files (see wiredFiles): each
// other CLI's file that wires massgen-hook becomes a scope of the report,
// Codex's are checked for trust, and each file that wires massgen-hook is
// compared with what init would write there.
func (d *doctorRun) wiredScopes() {
	d.wired = d.wiredFiles(d.project)
	for _, wf := range d.wired {
		s := d.scopeNamed(wf.name())
		if wf.target.name == "claude" && wf.err == nil && s != nil {
			d.pluginEnabled(s, wf)
		}
		if wf.target.name != "claude" {
			if wf.err == nil && len(wf.ours) == 0 {
				continue // another tool's hooks: not ours to judge
			}
			s = d.scope(wf.name(), wf.path)
			s.Present, s.Handlers = true, len(wf.ours)
			if wf.err != nil {
				d.fileError(s, wf.err, cliNames.Get()[wf.target.name])
				continue
			}
			if wf.target.name == "codex" {
				d.codexTrust(s, wf)
			}
			if wf.target.name == "gemini" && wf.scope == "project" && !d.wiresUserScope("gemini") {
				d.add(s, 0, "", doctor.Issue{Severity: doctor.Note, Message: geminiSubfolderNote})
			}
		}
		if s == nil || wf.err != nil || len(wf.ours) == 0 {
			continue
		}
		if _, differs := d.initWrites(wf); differs != "" {
			// A note: hooks tuned by hand (one matcher split in two, a
			// longer timeout) may be on purpose.
			d.add(s, 0, "", doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
				"massgen-hook's hooks here are not what init writes (%s); unless that is on purpose, run %s, or massgen-hook doctor --fix", differs, initLine(wf))})
		}
	}
}

// geminiSubfolderNote says where Gemini CLI looks for a project's hooks:
// only in the folder it starts in, so in a subfolder of the project it
// runs none of them, and the guards are off without a word.
const geminiSubfolderNote = "Gemini CLI runs these hooks only when started in the project's top folder (where .gemini/ is); started in a subfolder it runs none, and nothing guards the agent: start gemini there"

// wiresUserScope reports whether massgen-hook is wired in the user scope
// of the CLI named.
func (d *doctorRun) wiresUserScope(name string) bool {
	for _, wf := range d.wired {
		if wf.target.name == name && wf.scope == "user" && len(wf.ours) > 0 {
			return true
		}
	}
	return false
}

// cliNames are the agent CLIs as their users call them.
var cliNames = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"claude": "Claude Code", "codex": "Codex", "cursor": "Cursor", "gemini": "Gemini CLI", "copilot": "Copilot CLI",
		"opencode": "OpenCode", "pi": "pi",
	}
}}

func (d *doctorRun) scopeNamed(name string) *doctorScope {
	for _, s := range d.scopes {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// pluginEnabled notes where a settings file enables the massgen-hook
// Claude Code plugin (enabledPlugins: {"massgen-hook@MARKETPLACE": true}):
// its hooks are wired from the plugin's folder, which doctor does not read.
func (d *doctorRun) pluginEnabled(s *doctorScope, wf wiredFile) {
	gjson.GetBytes(wf.file.Data, "enabledPlugins").ForEach(func(k, v gjson.Result) bool {
		if strings.HasPrefix(k.Str, doctor.ProgramName+"@") && v.Type == gjson.True {
			d.plugin = true
			d.add(s, wiring.LineOf(wf.file.Data, k.Index), "enabledPlugins", doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
				"enables the %s plugin: its hooks run from the plugin's folder, which doctor does not check or run", k.Str)})
		}
		return true
	})
}

// wiredAnywhere reports whether some hook file doctor read runs
// massgen-hook, or the plugin is enabled.
func (d *doctorRun) wiredAnywhere() bool {
	if d.plugin {
		return true
	}
	for _, wf := range d.wired {
		if len(wf.ours) > 0 {
			return true
		}
	}
	return false
}

// initCommand is how init names the binary in wf's commands: by the
// project variable in a project, else by the path the file already runs.
func (d *doctorRun) initCommand(wf wiredFile) string {
	if wf.scope != "user" {
		return wf.target.projectVar + "/" + projectBinary
	}
	if name, _ := commandWords(wf.ours[0].Command); name != "" {
		return shellQuote(name)
	}
	return ""
}

// initWrites is what init would make of wf, for the parts it wires now,
// and in words how that differs from what is there ("" when it does not).
func (d *doctorRun) initWrites(wf wiredFile) ([]byte, string) {
	if wf.target.plugin {
		return pluginInitWrites(wf)
	}
	cmd := d.initCommand(wf)
	if cmd == "" {
		return nil, ""
	}
	entries := wf.target.entries(cmd, wiredParts(wf))
	want, err := wiring.Install(wf.file, wf.target.specFor(cmd), entries)
	if err != nil || bytes.Equal(want, wf.file.Data) {
		return nil, ""
	}
	have := map[[2]string]int{}
	for _, h := range wf.ours {
		have[[2]string{h.Event, h.Key}]++
	}
	var missing, twice []string
	for _, e := range entries {
		switch n := have[[2]string{e.Event, e.Key}]; {
		case n == 0:
			missing = append(missing, e.Event)
		case n > 1:
			twice = append(twice, e.Event)
		}
	}
	switch {
	case len(missing) > 0:
		return want, "no hook for " + strings.Join(missing, ", ")
	case len(twice) > 0:
		return want, "wired twice for " + strings.Join(twice, ", ")
	}
	return want, "a command, matcher or timeout differs"
}

// wiredParts are the parts of init --only that wf wires some hook of; nil
// when it wires some of every part.
func wiredParts(wf wiredFile) partSet {
	ps := partSet{}
	for _, h := range wf.ours {
		sub, _, _ := strings.Cut(h.Key, " ")
		if p := partOf(sub); p != "" {
			ps[p] = true
		}
	}
	if len(ps) == len(parts.Get()) {
		return nil
	}
	return ps
}

// initLine is the init command line that wires wf as it is meant to be.
func initLine(wf wiredFile) string {
	line := "massgen-hook init"
	if wf.target.name != "claude" {
		line += " --agent " + wf.target.name
	}
	if wf.scope != "project" {
		line += " --scope " + wf.scope
	}
	if ps := wiredParts(wf); ps != nil {
		line += " --only " + strings.Join(slices.Sorted(maps.Keys(ps)), ",")
	}
	return line
}
