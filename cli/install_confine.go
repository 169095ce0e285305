package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/install/wiring"
)

// shellPrefixVar is the setting through which Claude Code runs every Bash
// command (and its hooks) as `PREFIX 'COMMAND'`, after its permission
// checks: the user's rules still match the command as the agent wrote it.
const shellPrefixVar = "CLAUDE_CODE_SHELL_PREFIX"

// projectVar names the project to the prefix, set beside it in the
// project's personal settings. Claude Code gives Bash commands no
// CLAUDE_PROJECT_DIR, and the directory a command starts in is whatever
// the last one cd'd to: found from there, the project would be whatever
// folder an agent made and cd'd into, with a config of its own making
// (confine: off) and none of the real project's secrets in its walk.
const projectVar = "MASSGEN_HOOK_PROJECT"

// shellPrefixPath is where init installs the prefix: a copy of the binary
// named massgen-hook-shell in the user's data folder. Claude Code trusts
// a prefix only at an absolute path outside what a session can write, and
// the sandbox keeps the home directory read-only.
func (a *app) shellPrefixPath() (string, error) {
	data := a.getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		home := a.getenv("HOME")
		if home == "" {
			return "", errors.New("$HOME is not set")
		}
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "massgen-hook", "bin", ShellPrefixName), nil
}

// confineSettings is the file that gets the prefix: the personal one for a
// project (its path is in this user's home, so it must not be committed
// for a teammate whose home differs: every Bash command would fail), the
// user's own for the user scope.
func confineSettings(p placement) string {
	if p.scope == "user" {
		return p.settings
	}
	return filepath.Join(p.project, ".claude", "settings.local.json")
}

// isOurPrefix reports whether a prefix value is massgen-hook's.
func isOurPrefix(v string) bool { return filepath.Base(v) == ShellPrefixName }

// confinement wires (or, off: unwires) the route by which cli's shell
// commands reach massgen-hook's sandbox. The rewrite route has nothing to
// unwire: the wrapper stays for other projects, and without the
// pre-tool-use hook nothing rewrites.
func (w *installer) confinement(cli string, p placement, o installOptions, off bool) error {
	d, err := dialect.Named(cli)
	if err != nil {
		return nil // not an agent CLI's wiring (MassGen's): no shell of its own
	}
	switch {
	case d.ConfinesBy == dialect.ConfineByPrefix && off:
		return w.unwireConfinement(p)
	case d.ConfinesBy == dialect.ConfineByPrefix:
		return w.wireConfinement(p, o)
	case d.ConfinesBy == dialect.ConfineByRewrite && !off:
		return w.wireRewriteConfinement(cli, d, p, o)
	}
	return nil
}

// wireConfinement installs the prefix and points Claude Code at it, where
// confinement works here and the config does not switch it off; and says
// which protection the project gets either way.
func (w *installer) wireConfinement(p placement, o installOptions) error {
	prefix, why, err := w.sandboxUsable(p, confineSettings(p), "Bash commands")
	switch {
	case err != nil:
		return err
	case why == confineOff:
		return w.unwireConfinement(p)
	case why != "":
		return nil
	}
	path := confineSettings(p)
	f, err := wiring.Read(path)
	if err != nil {
		return w.settingsError(err)
	}
	if cur := envValue(f, shellPrefixVar); cur != "" && !isOurPrefix(cur) {
		w.say(path, "%s is already set to %s: shell confinement not wired (take it out to let massgen-hook confine Bash commands)", shellPrefixVar, cur)
		return nil
	}
	if !w.installWrapper(o, prefix, path, "Bash commands") {
		return nil
	}
	out, err := wiring.SetEnv(f, shellPrefixVar, prefix)
	if err != nil {
		return w.settingsError(err)
	}
	if p.scope != "user" {
		named := *f
		named.Data = out
		if out, err = wiring.SetEnv(&named, projectVar, p.project); err != nil {
			return w.settingsError(err)
		}
	}
	if err := w.settings(f, out, false); err != nil {
		return err
	}
	verb := "run"
	if w.dryRun {
		verb = "would run"
	}
	w.say(path, "Bash commands %s confined by bubblewrap: secrets masked, the hooks' files read-only, writes only in the project, the temporary folders and the build caches (confine: off switches it off)", verb)
	return w.claudeMCPConfined(p)
}

// wireRewriteConfinement readies confinement for a CLI whose shell
// commands the pre-tool-use hook rewrites to run under the wrapper
// (dialect.ConfineByRewrite): nothing in its settings changes, the wrapper
// is installed where confinement works here, and init says which
// protection the CLI's commands get.
func (w *installer) wireRewriteConfinement(cli string, d *dialect.Dialect, p placement, o installOptions) error {
	wrapper, why, err := w.sandboxUsable(p, p.settings, "shell commands")
	if err != nil || why != "" {
		return err
	}
	if !w.installWrapper(o, wrapper, p.settings, "shell commands") {
		return nil
	}
	if d, _ := dialect.Named(cli); d != nil && d.RewriteForm == dialect.RewriteBashC {
		if err := w.installBashC(wrapper); err != nil {
			w.say(p.settings, "shell confinement not wired: installing %s: %v; shell commands run under the static guards only", sandboxedBashPath(wrapper), err)
			return nil
		}
	}
	verb := "run"
	if w.dryRun {
		verb = "would run"
	}
	w.say(p.settings, "shell commands %s confined by bubblewrap: the pre-tool-use hook routes each through massgen-hook's sandbox (secrets masked, the hooks' files read-only, writes only in the project, the temporary folders and the build caches; confine: off switches it off)", verb)
	if d.RewriteAsks != "" {
		w.say(p.settings, "%s", d.RewriteAsks)
	}
	if own := w.ownSandbox(cli, p.project, ""); own != "" {
		w.say(p.settings, "where Codex runs them in its own sandbox (%s, as its config.toml stands, which a run's --sandbox overrides), that sandbox holds them instead: bubblewrap cannot run inside it; run Codex with --sandbox danger-full-access for massgen-hook's", own)
	}
	return nil
}

// Why init does not confine shell commands (sandboxUsable).
const (
	confineOff         = "off"         // confine: off in the config
	confineUnavailable = "unavailable" // bubblewrap cannot run here
)

// sandboxUsable returns the path the wrapper is installed at, where init
// can confine p's shell commands (what names them in its lines); else why
// not (confineOff, confineUnavailable), which it tells the user against
// file.
func (w *installer) sandboxUsable(p placement, file, what string) (wrapper, why string, err error) {
	cfgPath, required := config.Locate(w.configPath, w.getenv("MASSGEN_HOOK_CONFIG"), p.project)
	cfg, err := config.Load(cfgPath, required)
	if err == nil && cfg.Confine.Off {
		w.say(file, "shell confinement is off in the config (confine: off): %s run under the static guards only", what)
		return "", confineOff, nil
	}
	if err != nil {
		cfg = config.Default()
	}
	// Probed afresh, not remembered: init writes nothing in the runtime
	// folder (the first confined command remembers it).
	avail := confine.Probe(w.sandboxTool(p.project, &cfg))
	if !avail.OK {
		w.say(p.settings, "shell confinement unavailable: %s; %s run under the static guards only (%s)", avail.Reason, what, nextStep(avail))
		return "", confineUnavailable, nil
	}
	wrapper, err = w.shellPrefixPath()
	if err != nil {
		return "", "", fmt.Errorf("installing the shell prefix: %w", err)
	}
	return wrapper, "", nil
}

// installWrapper copies the binary to the wrapper's path; where that
// fails the hooks are still wired and only the sandbox is missing, which
// the user is told (against file).
func (w *installer) installWrapper(o installOptions, wrapper, file, what string) bool {
	if err := w.copyBinary(o.binary, wrapper); err != nil {
		w.say(file, "shell confinement not wired: installing the shell prefix: %v; %s run under the static guards only", err, what)
		return false
	}
	return true
}

// unwireConfinement takes massgen-hook's prefix out of the file init put
// it in. The installed prefix binary stays: other projects may run it.
func (w *installer) unwireConfinement(p placement) error {
	if err := w.unwireMCPConfinement(p); err != nil {
		return err
	}
	path := confineSettings(p)
	f, err := wiring.Read(path)
	if err != nil || !f.Exists {
		return nil
	}
	out, empty := wiring.UnsetEnv(f, shellPrefixVar, isOurPrefix)
	if envValue(f, projectVar) == p.project {
		rest := *f
		rest.Data = out
		out, empty = wiring.UnsetEnv(&rest, projectVar, func(v string) bool { return v == p.project })
	}
	if string(out) == string(f.Data) {
		return nil
	}
	saved := w.uninstall
	w.uninstall = true
	defer func() { w.uninstall = saved }()
	return w.settings(f, out, empty)
}

// envValue is env[key] of a settings file, "" when unset.
func envValue(f *wiring.File, key string) string {
	var s struct {
		Env map[string]any `json:"env"`
	}
	if json.Unmarshal(f.Data, &s) != nil {
		return ""
	}
	v, _ := s.Env[key].(string)
	return v
}

// nextStep says how to reach confinement from where avail stands.
func nextStep(avail confine.Availability) string {
	if avail.Bwrap == "" {
		return "install bubblewrap: apt install bubblewrap, dnf install bubblewrap"
	}
	return "user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1, or a container run with them), and Claude Code's own sandbox must be off, since they do not nest"
}
