package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/massgen/massgen-hook/install/codextrust"
	"github.com/massgen/massgen-hook/install/doctor"
)

// codexTrust checks, where massgen-hook is wired for Codex (the project's
// .codex/hooks.json, $CODEX_HOME/hooks.json), that Codex will run it:
// Codex skips a hook the user has not trusted, or that changed since, and
// every hook of an untrusted project, without a word. Everything Codex
// would skip is one problem with one fix; on a machine without Codex it is
// one note, since there is nothing to trust yet.
func (d *doctorRun) codexTrust(s *doctorScope, wf wiredFile) {
	path := d.codexHooksPath(wf.scope, d.project)
	hooks, cfg, err := d.codexHooks(path, wf.file.Data, d.wiredSpec(wf.target))
	if err != nil {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf("cannot tell whether Codex runs these hooks: %v", err)})
		return
	}
	if !d.codexInstalled(cfg.Path) {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
			"Codex is not installed here (no codex on PATH, no %s): whether it trusts these hooks is checked where it runs", cfg.Path)})
		return
	}
	fix := "fix: start codex in the project and approve them in /hooks (headless: massgen-hook init --agent codex prints the lines for " + cfg.Path + ")"
	if wf.scope == "project" && !cfg.ProjectTrusted(d.project) {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
			"Codex does not trust this project, so it runs none of massgen-hook's %d hooks here, without a word; %s", len(hooks), fix)})
		return
	}
	var skipped []string
	for _, h := range hooks {
		why := map[codextrust.Status]string{
			codextrust.Untrusted: "not trusted",
			codextrust.Modified:  "changed since trusted",
			codextrust.Disabled:  "disabled",
		}[cfg.Status(h)]
		if why != "" {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", h.Event, why))
		}
	}
	if len(skipped) > 0 {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
			"Codex skips massgen-hook's %s without a word; %s", strings.Join(skipped, ", "), fix)})
	}
}

// codexInstalled reports whether Codex is on this machine: a codex on
// PATH, or its config file (it writes one when first run).
func (d *doctorRun) codexInstalled(config string) bool {
	if _, err := os.Stat(config); !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	for _, dir := range strings.Split(d.getenv("PATH"), string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		if fi, err := os.Stat(dir + string(os.PathSeparator) + "codex"); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}
