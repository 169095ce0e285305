package lifecycle

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/deadline"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// SessionStart orients a fresh session: the newest coordinator scratchpad,
// the newest ego assessment and the last commits, as additionalContext. Only
// source "startup" gets it; resume, clear and compact keep what they had.
// Every part fails open on its own: a part that cannot be read is left out
// with a note, and the rest is still given.
func SessionStart(ctx context.Context, env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	knowSession(env, ev.SessionID)
	late := env.LateMessages(ev)
	if ev.Source != "startup" {
		return env.WithLate(protocol.SessionStart, late, protocol.Output{}), nil
	}
	cfg := env.Config.Scratchpad.SessionStart
	ctx, cancel := deadline.WithTimeout(ctx, time.Duration(cfg.Timeout))
	defer cancel()

	var parts []string
	if s := latest(env, scratchpad.CoordinatorDir, "Latest coordinator scratchpad", cfg.CoordinatorLines); s != "" {
		parts = append(parts, s)
	}
	if s := latest(env, scratchpad.EgoDir, "Latest ego assessment", cfg.EgoLines); s != "" {
		parts = append(parts, s)
	}
	if s := recentCommits(env, ctx, cfg.GitLogEntries); s != "" {
		parts = append(parts, s)
	}
	out := protocol.Output{}
	if len(parts) > 0 {
		head := "Session context from the scratchpad protocol (massgen-hook), " + env.Today() + "."
		out = protocol.Context(protocol.SessionStart, head+"\n\n"+strings.Join(parts, "\n\n"))
	}
	return env.WithLate(protocol.SessionStart, late, out), nil
}

// latest renders the last n lines of the newest dated file in dir under a
// title, or "" when there is none (or it cannot be read: noted).
func latest(env *hookenv.Env, dir, title string, n int) string {
	lines, path, cut, err := newestTail(env, dir, n)
	if err != nil {
		env.Note("%s left out of the context: %v", title, err)
		return ""
	}
	if len(lines) == 0 {
		return ""
	}
	which := ""
	if cut {
		which = ", last " + strconv.Itoa(len(lines)) + " lines"
	}
	return "## " + title + " (" + env.Layout.Rel(path) + which + ")\n" + strings.Join(lines, "\n")
}

// newestTail returns the last n lines of the newest dated file in dir.
func newestTail(env *hookenv.Env, dir string, n int) (lines []string, path string, cut bool, err error) {
	if n == 0 {
		return nil, "", false, nil
	}
	path, _, ok, err := env.Layout.Newest(dir, scratchpad.Today(env.Now))
	if err != nil || !ok {
		return nil, "", false, err
	}
	lines, cut, err = env.Layout.Tail(path, n)
	return lines, path, cut, err
}

func recentCommits(env *hookenv.Env, ctx context.Context, n int) string {
	if n == 0 {
		return ""
	}
	run := env.GitLog
	if run == nil {
		run = hookenv.GitLog
	}
	log, err := run(ctx, env.Layout.Project, n)
	switch {
	case errors.Is(err, hookenv.ErrNotRepo):
		return ""
	case err != nil:
		env.Note("recent commits left out of the context: %v", err)
		return ""
	case log == "":
		return ""
	}
	return "## Recent commits (git log --oneline -" + strconv.Itoa(n) + ")\n" + log
}
