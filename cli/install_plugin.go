package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/massgen/massgen-hook/install/pluginfile"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/integrations"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/state"
)

// maxPluginBytes bounds a plugin file read back: ours is a few KB.
const maxPluginBytes = 1 << 20

// pluginWiring is what t's plugin runs for placement p and the parts ps.
func pluginWiring(t target, p placement, ps partSet) pluginfile.Wiring {
	w := pluginfile.Wiring{Scope: "project", Binary: projectBinary, Subcommands: []string{}}
	if p.scope == "user" {
		w.Scope, w.Binary = "user", p.program
	}
	for _, wr := range t.wires {
		if ps.has(wr.sub) {
			w.Subcommands = append(w.Subcommands, wr.sub)
		}
	}
	return w
}

// renderPlugin is t's plugin as init writes it with w.
func renderPlugin(t target, w pluginfile.Wiring) ([]byte, error) {
	src, ok := integrations.Plugin(t.name)
	if !ok {
		return nil, fmt.Errorf("no plugin is shipped for %s", t.name)
	}
	return pluginfile.Render(t.name, src, w)
}

// pluginFile writes (or, uninstalling, removes) t's plugin at p.settings.
// The file is massgen-hook's own, named so by its first line: init
// replaces it whole, as a newer binary's plugin, and uninstall removes it.
// A file of that name without the marker is someone else's and is left
// alone.
func (w *installer) pluginFile(t target, p placement, ps partSet) error {
	path := p.settings
	old, err := hookfs.ReadFile(path, maxPluginBytes)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", w.rel(path), err)
	}
	src, _ := integrations.Plugin(t.name)
	if _, ours := pluginfile.Read(t.name, src, old); exists && !ours && !bytes.HasPrefix(old, []byte(pluginfile.Marker(t.name))) {
		if w.uninstall {
			w.say(path, "not massgen-hook's plugin (its first line is not massgen-hook's): left alone")
			return nil
		}
		return fmt.Errorf("%s is there and is not massgen-hook's plugin (its first line is not massgen-hook's): "+
			"nothing written; move it away and run init again", w.rel(path))
	}
	if w.uninstall {
		return w.removePlugin(path, exists)
	}
	want, err := renderPlugin(t, pluginWiring(t, p, ps))
	if err != nil {
		return err
	}
	return w.writePlugin(path, old, want, exists)
}

// writePlugin puts want at path, where old was.
func (w *installer) writePlugin(path string, old, want []byte, exists bool) error {
	switch {
	case exists && bytes.Equal(old, want):
		w.say(path, "already wired, unchanged")
		return nil
	case w.dryRun:
		w.stdout.Write(diff.Diff(w.rel(path), old, w.rel(path)+" (after)", want))
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := state.WriteFileMode(path, want, 0o644, true); err != nil {
		return err
	}
	if exists {
		w.say(path, "plugin rewritten as this massgen-hook writes it")
	} else {
		w.say(path, "plugin written")
	}
	return nil
}

func (w *installer) removePlugin(path string, exists bool) error {
	switch {
	case !exists:
		w.say(path, "not there, nothing to remove")
		return nil
	case w.dryRun:
		w.say(path, "would remove massgen-hook's plugin")
		return nil
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	w.say(path, "massgen-hook's plugin removed")
	return nil
}

// readPlugin is t's plugin file at path as doctor and uninstall see it:
// massgen-hook's hooks in it, one per subcommand it hands events to, each
// named as a hook command that runs the same binary would name it.
func readPlugin(t target, scope, path string) (wiredFile, bool) {
	wf := wiredFile{target: t, scope: scope, path: path}
	data, err := hookfs.ReadFile(path, maxPluginBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return wf, false
	}
	wf.file = &wiring.File{Path: path, Data: data, Exists: true, Mode: 0o644}
	if err != nil {
		wf.err = err
		return wf, true
	}
	src, _ := integrations.Plugin(t.name)
	pw, ok := pluginfile.Read(t.name, src, data)
	switch {
	case !ok && bytes.HasPrefix(data, []byte(pluginfile.Marker(t.name))):
		wf.err = fmt.Errorf("massgen-hook's plugin, but what it runs cannot be read from it: run massgen-hook init --agent %s to write it again", t.name)
		return wf, true
	case !ok:
		return wf, true // someone else's plugin: no hooks of ours
	}
	bin := shellQuote(pw.Binary)
	if pw.Scope == "project" {
		bin = t.projectVar + "/" + pw.Binary
	}
	for _, sub := range pw.Subcommands {
		for _, wr := range t.wires {
			if wr.sub == sub {
				key := t.key(wr)
				wf.ours = append(wf.ours, wiring.Wired{Event: wr.event, Key: key, Command: bin + " " + key, Line: 1})
			}
		}
	}
	return wf, true
}

// pluginInitWrites is what init would write as wf's plugin, for the parts
// it wires now, and in words how that differs from what is there.
func pluginInitWrites(wf wiredFile) ([]byte, string) {
	src, _ := integrations.Plugin(wf.target.name)
	have, ok := pluginfile.Read(wf.target.name, src, wf.file.Data)
	if !ok {
		return nil, ""
	}
	p := placement{scope: have.Scope, program: have.Binary}
	want, err := renderPlugin(wf.target, pluginWiring(wf.target, p, wiredParts(wf)))
	if err != nil || bytes.Equal(want, wf.file.Data) {
		return nil, ""
	}
	if have.Scope == "project" && have.Binary != projectBinary {
		return want, "it runs " + have.Binary + ", not " + projectBinary
	}
	return want, "it is not the plugin this massgen-hook ships"
}
