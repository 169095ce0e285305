package cli

import (
	"fmt"

	"github.com/massgen/massgen-hook/install/codextrust"
	"github.com/massgen/massgen-hook/install/doctor"
)

// codexTrust checks, where massgen-hook is wired for Codex (the project's
// .codex/hooks.json, $CODEX_HOME/hooks.json), that Codex will run it:
// Codex skips a hook the user has not trusted, or that changed since, and
// every hook of an untrusted project, without a word.
func (d *doctorRun) codexTrust(s *doctorScope, wf wiredFile) {
	path := d.codexHooksPath(wf.scope, d.project)
	hooks, cfg, err := d.codexHooks(path, wf.file.Data, d.wiredSpec(wf.target))
	if err != nil {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf("cannot tell whether Codex runs these hooks: %v", err)})
		return
	}
	fix := "start codex in the project and trust it in /hooks, or run massgen-hook init --agent codex for the config.toml lines"
	if wf.scope == "project" && !cfg.ProjectTrusted(d.project) {
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
			"Codex does not trust this project (%s has no [projects.%q] trust_level = \"trusted\"), so it loads none of .codex/: no massgen-hook hook runs; %s", cfg.Path, d.project, fix)})
	}
	for _, h := range hooks {
		why := map[codextrust.Status]string{
			codextrust.Untrusted: "has not been trusted in Codex",
			codextrust.Modified:  "changed since it was trusted in Codex",
			codextrust.Disabled:  "is disabled in Codex",
		}[cfg.Status(h)]
		if why != "" {
			d.add(s, 0, "hooks."+h.Event, doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
				"massgen-hook's %s hook %s, so Codex skips it without a word; %s", h.Event, why, fix)})
		}
	}
}
