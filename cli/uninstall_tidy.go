package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

// tidyProject runs once the last wiring in the project is gone (uninstall
// removed the binary, nothing else runs it). It takes out what init made
// and nobody changed since: the starter config while it is still init's
// text, the scratchpad folders while they are empty, and every folder
// init may have created that is now empty (.claude/hooks, .claude,
// .gemini, .codex, ...). What holds the user's work stays and is listed:
// an edited config, scratchpads with notes, the runtime folder with the
// audit trail and the inbox (git ignores it). With purge those go too.
func (w *installer) tidyProject(settings string, purge bool) error {
	var kept []string
	cfgPath := filepath.Join(w.project, config.DefaultPath)
	cfg, _, err := w.loadConfig(w.project)
	if err != nil {
		cfg = config.Config{}
	}
	layout := layoutOf(w.project, cfg)
	runtime := filepath.Join(w.project, state.DirName)

	if data, err := hookfs.ReadFile(cfgPath, 1<<20); err == nil {
		switch {
		case bytes.Equal(data, []byte(config.Starter)):
			w.remove(cfgPath, "starter config removed (unchanged since init)")
		case purge:
			w.remove(cfgPath, "config removed (--purge)")
		default:
			kept = append(kept, w.rel(cfgPath)+": kept, your config")
		}
	}
	schema := filepath.Join(filepath.Dir(cfgPath), config.SchemaFile)
	if data, err := hookfs.ReadFile(schema, 4<<20); err == nil && (bytes.Equal(data, config.Schema()) || purge) {
		w.remove(schema, "the config's JSON Schema removed")
	}
	for _, dir := range []string{scratchpad.CoordinatorDir, scratchpad.EgoDir} {
		w.removeIfEmpty(filepath.Join(layout.Root, dir))
	}
	if entries, err := os.ReadDir(layout.Root); err == nil && len(entries) > 0 {
		if purge {
			w.removeAll(layout.Root, "scratchpads removed (--purge)")
		} else {
			kept = append(kept, w.rel(layout.Root)+"/: kept, your scratchpads")
		}
	}
	w.removeIfEmpty(layout.Root)
	if _, err := os.Lstat(runtime); err == nil {
		if purge {
			w.removeAll(runtime, "runtime folder removed: audit trail, inbox, state (--purge)")
		} else {
			kept = append(kept, w.rel(runtime)+"/: kept, the audit trail, inbox and state (git ignores it)")
		}
	}
	// The folders init may have made, deepest first; each goes only when
	// nothing is left in it.
	w.removeEmptyParents(settings)
	w.removeIfEmpty(filepath.Join(w.project, ".claude", "hooks"))
	w.removeIfEmpty(filepath.Join(w.project, ".claude"))
	for _, k := range kept {
		fmt.Fprintf(w.stdout, "%s; uninstall --purge removes it\n", k)
	}
	return nil
}

// remove deletes one file and says so (or, on a dry run, that it would).
func (w *installer) remove(path, done string) {
	if w.dryRun {
		w.say(path, "would be removed")
		return
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		w.say(path, "could not remove: %v", err)
		return
	}
	w.say(path, "%s", done)
}

// removeAll deletes a folder and everything in it, and says so.
func (w *installer) removeAll(path, done string) {
	if w.dryRun {
		w.say(path, "would be removed (--purge)")
		return
	}
	if err := os.RemoveAll(path); err != nil {
		w.say(path, "could not remove: %v", err)
		return
	}
	w.say(path, "%s", done)
}

// removeIfEmpty deletes the folder path when it holds nothing, silently:
// an empty folder is nothing anybody would miss, and git does not see it.
func (w *installer) removeIfEmpty(path string) {
	if w.dryRun {
		return
	}
	if entries, err := os.ReadDir(path); err == nil && len(entries) == 0 {
		_ = os.Remove(path)
	}
}
