package cli

import (
	"fmt"
	"os"

	"github.com/massgen/massgen-hook/codextrust"
	"github.com/massgen/massgen-hook/doctor"
)

// codexScopes checks, where massgen-hook is wired for Codex (the project's
// .codex/hooks.json, $CODEX_HOME/hooks.json), that Codex will run it:
// Codex skips a hook the user has not trusted, or that changed since, and
// every hook of an untrusted project, without a word.
func (d *doctorRun) codexScopes() {
	spec := targets["codex"].specFor(projectBinary)
	for _, scope := range []string{"project", "user"} {
		path := d.codexHooksPath(scope, d.project)
		data, err := os.ReadFile(path)
		if err != nil {
			continue // not wired for Codex here
		}
		hooks, cfg, err := d.codexHooks(path, data, spec)
		if len(hooks) == 0 && err == nil {
			continue
		}
		s := d.scope("codex "+scope, path)
		s.Present, s.Handlers = true, len(hooks)
		if err != nil {
			d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf("cannot tell whether Codex runs these hooks: %v", err)})
			continue
		}
		fix := "start codex in the project and trust it in /hooks, or run massgen-hook init --agent codex for the config.toml lines"
		if scope == "project" && !cfg.ProjectTrusted(d.project) {
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
}
