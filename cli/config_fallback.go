package cli

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/checks"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// A config that cannot be used must never switch the guards off: a typo
// such as `fail_closd: true` would otherwise leave every tool call
// unguarded, with only a line on stderr that the agent CLI does not show.
// So a hook that meets a config error runs the built-in defaults (the
// default guards on, no user rules) and tells the user once per session in
// the CLI's warning channel. --fail-closed on the command line keeps its
// promise instead: the hook blocks until the config is fixed.

// hookConfig is loadConfig for a hook: on a config error it returns the
// built-in configuration, and the error as cfgErr.
// A hook for an event the engine runs no rules on (the lifecycle hooks)
// gets no rules: it compiles the config's own rules only to find their
// errors, and the built-in rules not at all.
func (a *app) hookConfig(project, event string) (cfg config.Config, rules *engine.Engine, cfgErr, err error) {
	runs := slices.Contains(engine.Events, event)
	cfg, rules, cfgErr = a.loadRules(project, runs)
	if cfgErr == nil || a.failClosed {
		return cfg, rules, nil, cfgErr
	}
	cfg = config.Default()
	if runs {
		rules, err = engine.Compile(&cfg, checks.Builtins())
	}
	return cfg, rules, cfgErr, err
}

// configNoticeRecord names the session record of the config errors already
// shown to the user.
const configNoticeRecord = "config-notice"

type configNotices struct {
	// Shown are the hashes of the error texts shown in this session.
	Shown []string `json:"shown"`
}

// noteConfigError says on stderr, on every call, that the config was set
// aside, and adds it to out as a warning for the user the first time this
// session meets this error, where the CLI shows warnings. A CLI that has
// no warning channel (Copilot CLI, Cursor) gets stderr only; doctor and
// `config validate` report the same error.
func (a *app) noteConfigError(env *hookenv.Env, ev *protocol.Event, d *dialect.Dialect, out protocol.Output, cfgErr error) protocol.Output {
	msg := configErrorMessage(env.Layout.Project, cfgErr)
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintln(a.stderr, line)
	}
	if !d.ShowsWarnings() {
		return out
	}
	// Claude Code 2.1.328 keeps a SessionStart warning out of its
	// transcript (stream-json has it only as the hook's raw output), so a
	// warning there does not count as shown: the next hook shows it too.
	if ev == nil || ev.HookEventName != protocol.SessionStart {
		if !a.firstTimeThisSession(env.State, ev, msg) {
			return out
		}
	}
	out.SystemMessage = protocol.Paragraphs(msg, out.SystemMessage)
	return out
}

// firstTimeThisSession records msg as shown in ev's session and reports
// whether it was not already. Without a session id, or when the record
// cannot be written, it is shown: a repeated warning beats a lost one.
func (a *app) firstTimeThisSession(st *state.Dir, ev *protocol.Event, msg string) bool {
	if ev == nil || ev.SessionID == "" {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(msg))
	key := strconv.FormatUint(h.Sum64(), 36)
	first := true
	var rec configNotices
	err := st.UpdateSession(ev.SessionID, configNoticeRecord, &rec, func() (bool, error) {
		if slices.Contains(rec.Shown, key) {
			first = false
			return false, nil
		}
		rec.Shown = append(rec.Shown, key)
		return true, nil
	})
	return first || err != nil
}

// maxConfigErrorLines bounds the errors listed in the warning: the first
// few are enough to start fixing, and `config validate` lists them all.
const maxConfigErrorLines = 5

// configErrorMessage is the warning for the user: what was set aside, what
// still runs, each error (file:line: key: what is wrong), and how to check.
func configErrorMessage(project string, cfgErr error) string {
	var b strings.Builder
	b.WriteString("massgen-hook: the config has errors, so it is not used: only the built-in defaults run " +
		"(the default guards are on; your own rules and settings are off until it is fixed).")
	lines := strings.Split(cfgErr.Error(), "\n")
	for i, line := range lines {
		if i == maxConfigErrorLines {
			fmt.Fprintf(&b, "\n  ... and %d more", len(lines)-i)
			break
		}
		b.WriteString("\n  " + relativeTo(project, line))
	}
	b.WriteString("\nFix it, then check it with: massgen-hook config validate")
	return b.String()
}

// relativeTo shortens an error line that starts with a path inside project.
func relativeTo(project, line string) string {
	prefix := project + string(filepath.Separator)
	if project != "" && strings.HasPrefix(line, prefix) {
		return strings.TrimPrefix(line, prefix)
	}
	return line
}
