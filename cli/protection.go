package cli

import (
	"fmt"
	"path/filepath"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/protocol"
)

// Protection levels of a CLI's shell commands, strongest first.
const (
	levelConfined   = "confined"    // the static guards, then bubblewrap
	levelCLISandbox = "CLI sandbox" // the static guards, then the CLI's own sandbox
	levelStatic     = "static only" // the static guards alone
)

// protection is the level the shell commands of cli get in project, what
// it means, and (below the top) how to reach the next level.
type protection struct {
	Level, What, Next string
}

// protectionOf says which protection cli's shell commands have: confined
// where the config leaves confinement on, bubblewrap works here and the
// CLI's commands reach massgen-hook's sandbox (through Claude Code's
// CLAUDE_CODE_SHELL_PREFIX, or the pre-tool-use hook's rewrite to the
// wrapper init installed); static only otherwise, with the reason.
//
// own is the mode of the CLI's own sandbox that holds its commands
// (ownSandbox): massgen-hook's cannot run inside it, so that one is the
// level, whatever the rest.
func (a *app) protectionOf(cli, project, own string, cfg *config.Config, avail confine.Availability) protection {
	if own != "" {
		return protection{Level: levelCLISandbox,
			What: "Codex's own sandbox (" + own + ") holds shell commands: writes only where it allows, secrets readable; massgen-hook's bubblewrap cannot run inside it",
			Next: "for massgen-hook's sandbox instead (secrets masked, the network open), run Codex with --sandbox danger-full-access (sandbox_mode in config.toml)"}
	}
	static := protection{Level: levelStatic, What: "the static guards judge each command before it runs; what a script or tool does once running is not seen"}
	d, _ := dialect.Named(cli)
	_, wrapper := a.rewriteReady(d)
	switch {
	case cfg.Confine.Off:
		static.Next = "confine: off in the config switches confinement off; take it out"
	case a.inOwnSandbox(d) != "":
		static.Next = fmt.Sprintf("this session runs in the CLI's own container sandbox (%s=%s), which massgen-hook's sandbox is not installed in; start the CLI without it", d.OwnSandboxVar, a.inOwnSandbox(d))
	case !avail.OK:
		static.Next = avail.Reason + "; " + nextStep(avail)
	case d == nil || d.ConfinesBy == "":
		static.Next = "massgen-hook has no route into this CLI's shell"
	case d.ConfinesBy == dialect.ConfineByPrefix && !isOurPrefix(a.shellPrefixSetting(project)):
		static.Next = "run massgen-hook init to point CLAUDE_CODE_SHELL_PREFIX at massgen-hook's sandbox"
	case d.ConfinesBy == dialect.ConfineByRewrite && !wrapper:
		static.Next = "run massgen-hook init to install massgen-hook's sandbox wrapper, which the pre-tool-use hook routes each shell command through"
	default:
		return protection{Level: levelConfined, What: "shell commands run in a bubblewrap sandbox: secrets masked, the hooks' files read-only, writes only in the project, the temporary folders and the build caches"}
	}
	return static
}

// shellPrefixSetting is CLAUDE_CODE_SHELL_PREFIX as Claude Code sees it:
// its environment (a hook gets the settings' env), else the settings
// files, the personal one first.
func (a *app) shellPrefixSetting(project string) string {
	if v := a.getenv(shellPrefixVar); v != "" {
		return v
	}
	files := []string{filepath.Join(project, ".claude", "settings.local.json"), filepath.Join(project, ".claude", "settings.json")}
	if dir := a.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		files = append(files, filepath.Join(dir, "settings.json"))
	} else if home := a.getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	for _, path := range files {
		if f, err := wiring.Read(path); err == nil && f.Exists {
			if v := envValue(f, shellPrefixVar); v != "" {
				return v
			}
		}
	}
	return ""
}

// noteProtection tells the user, once per session, at session start,
// which protection the session's shell commands have, where init wired
// the sandbox: confined, or why not now (bubblewrap removed, user
// namespaces refused, confine: off). Where it is not wired, init and
// doctor say so, and the session's start stays quiet.
func (a *app) noteProtection(env *hookenv.Env, ev *protocol.Event, d *dialect.Dialect, out protocol.Output, cfg *config.Config) protocol.Output {
	// Inside the CLI's own container the session is told why its
	// commands are static only, wired or not.
	if !a.sandboxWired(d, env.Layout.Project) && a.inOwnSandbox(d) == "" {
		return out
	}
	avail := confine.Remembered(env.State, a.sandboxTool(env.Layout.Project, cfg))
	transcript := ""
	if ev != nil {
		transcript = ev.TranscriptPath
	}
	p := a.protectionOf(d.Name, env.Layout.Project, a.ownSandbox(d.Name, env.Layout.Project, transcript), cfg, avail)
	msg := fmt.Sprintf("massgen-hook: shell commands are %s: %s.", p.Level, p.What)
	if p.Next != "" {
		msg += " To confine them: " + p.Next + "."
	}
	if !d.ShowsWarnings() {
		fmt.Fprintln(a.stderr, msg)
		return out
	}
	if !a.firstTimeThisSession(env.State, ev, msg) {
		return out
	}
	out.SystemMessage = protocol.Paragraphs(out.SystemMessage, msg)
	return out
}

// sandboxWired reports whether init wired d's shell commands to
// massgen-hook's sandbox in project: Claude Code's prefix setting points at
// it, or (for a CLI the pre-tool-use hook rewrites for) the wrapper is
// installed.
func (a *app) sandboxWired(d *dialect.Dialect, project string) bool {
	switch d.ConfinesBy {
	case dialect.ConfineByPrefix:
		return isOurPrefix(a.shellPrefixSetting(project))
	case dialect.ConfineByRewrite:
		_, ok := a.rewriteReady(d)
		return ok
	}
	return false
}
