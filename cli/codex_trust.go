package cli

import (
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/install/codextrust"
	"github.com/massgen/massgen-hook/install/wiring"
)

// codexHooksPath is the hooks.json of scope as Codex names it in trust
// keys: a symlink's own path, not its target's.
func (a *app) codexHooksPath(scope, project string) string {
	if scope == "user" {
		return filepath.Join(codextrust.Home(a.getenv("CODEX_HOME"), a.getenv("HOME")), "hooks.json")
	}
	return filepath.Join(project, targets.Get()["codex"].projectFile)
}

// codexHooks are massgen-hook's hooks in data, the hooks.json at path, and
// the trust Codex's config records.
func (a *app) codexHooks(path string, data []byte, spec wiring.Spec) ([]codextrust.Hook, codextrust.Config, error) {
	cfg, err := codextrust.ReadConfig(codextrust.Home(a.getenv("CODEX_HOME"), a.getenv("HOME")))
	if err != nil {
		return nil, cfg, err
	}
	hooks, err := codextrust.Hooks(path, data, func(command string) bool { _, ok := spec.Ours(command); return ok })
	return hooks, cfg, err
}

// codexTrust tells the user, after init, how to make Codex run the hooks
// it just wired: Codex skips untrusted hooks without a word.
func (w *installer) codexTrust(scope string, data []byte, spec wiring.Spec) {
	path := w.codexHooksPath(scope, w.project)
	hooks, cfg, err := w.codexHooks(path, data, spec)
	if err != nil {
		w.say(path, "could not check whether Codex trusts these hooks: %v", err)
		return
	}
	var lines []string
	if scope != "user" && !cfg.ProjectTrusted(w.project) {
		lines = append(lines, codextrust.ProjectLines(w.project))
	}
	untrusted := 0
	for _, h := range hooks {
		if cfg.Status(h) != codextrust.Trusted {
			lines = append(lines, codextrust.TrustLines([]codextrust.Hook{h}))
			untrusted++
		}
	}
	if len(lines) == 0 {
		w.say(path, "Codex trusts these hooks")
		return
	}
	toml := strings.TrimSuffix(strings.Join(lines, ""), "\n")
	w.say(path, "Codex skips hooks you have not trusted, without a word: until you do, nothing guards the agent.\n"+
		"  Trust them: start codex here and approve massgen-hook's %d hooks in /hooks, or add these lines to %s:\n    %s\n"+
		"  massgen-hook doctor says whether Codex trusts them.", untrusted, cfg.Path, strings.ReplaceAll(toml, "\n", "\n    "))
}
