package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// SubagentStart tells a new subagent the protocol before it does anything:
// today's date, the scratchpad file it must write, the headings it needs,
// and the last lines of the ego's and coordinator's newest scratchpads. An
// exempt agent type (one with no tool to write a file) is told it writes
// none. In Claude Code it is told to write with the Write or Edit tool,
// the only ones permission-request grants its file. The start is recorded
// in the session's ledger: subagent-stop asks whether this subagent changed
// its file since.
func SubagentStart(env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	dir, err := scratchpad.DirName(ev.AgentType, env.Config.Scratchpad.DefaultAgent)
	if err != nil {
		return protocol.Output{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	}
	path := env.Layout.File(dir, env.Today())
	start, err := startStamp(env, ev, path)
	var outside *scratchpad.ContainError
	if errors.As(err, &outside) {
		return protocol.Output{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	}
	exempt := env.Config.Scratchpad.Exempt(ev.AgentType)
	recordStart(env, ev, dir, exempt, start, err)
	if !exempt {
		makeFolder(env, filepath.Dir(path))
	}
	var b strings.Builder
	// Plain writes, not fmt: a hook runs once, and fmt's first call pages in
	// its formatting machinery for four strings.
	b.WriteString("Scratchpad protocol (massgen-hook). Today is " + env.Today() + ".\n")
	if exempt {
		b.WriteString("Agents of type " + scratchpad.DisplayName(dir) + " write no scratchpad: report what you found in your answer.")
	} else {
		b.WriteString("Before you finish, write your scratchpad to " + env.Layout.Rel(path) + " with these Markdown headings:\n")
		for _, h := range env.Config.Scratchpad.RequiredSections {
			b.WriteString("## " + h + "\n")
		}
		if _, err := os.Lstat(path); err == nil {
			b.WriteString("That file already exists (an agent of your type wrote it earlier today): add your entry to it and keep what is there.\n")
		}
		if env.FileToolScratchpad {
			// A shell command writing under .claude/ asks for approval,
			// which nobody gives in a headless run.
			b.WriteString("Write it with the Write or Edit tool, not a shell command: only those may write your scratchpad without asking.\n")
		}
		b.WriteString("You cannot complete until you have written that file with every heading.")
	}
	n := env.Config.Scratchpad.SubagentStart.TailLines
	for _, src := range []struct{ dir, title string }{
		{scratchpad.EgoDir, "Latest ego assessment"},
		{scratchpad.CoordinatorDir, "Latest coordinator scratchpad"},
	} {
		lines, p, _, err := newestTail(env, src.dir, n)
		if err != nil {
			env.Note("%s left out of the context: %v", src.title, err)
			continue
		}
		if len(lines) > 0 {
			b.WriteString("\n\n" + src.title + " (" + env.Layout.Rel(p) + "), last lines:\n" + strings.Join(lines, "\n"))
		}
	}
	out := protocol.Context(protocol.SubagentStart, b.String())
	return env.WithLate(protocol.SubagentStart, env.LateMessages(ev), out), nil
}

// startStamp checks that the subagent's scratchpad at path stays in the
// root (a *scratchpad.ContainError when not) and, for a subagent the
// ledger can know (one with an agent_id), stamps it as it is at the start:
// one walk of the path, right before the read, serves both.
func startStamp(env *hookenv.Env, ev *protocol.Event, path string) (scratchpad.Stamp, error) {
	if ev.AgentID == "" {
		return scratchpad.Stamp{}, env.Layout.Contained(path)
	}
	return env.Layout.StampOf(path)
}

// makeFolder makes the subagent's scratchpad folder: Copilot CLI's create
// writes no file whose folder is missing, and where shell commands are
// confined a mkdir under .claude/ is refused, while this hook runs
// unconfined. No name on the way is followed as a link. Failing, the agent
// is told its path all the same (it may make the folder itself), and the
// user why.
func makeFolder(env *hookenv.Env, folder string) {
	rel, err := filepath.Rel(env.Layout.Project, folder)
	if err == nil {
		var d *hookfs.Dir
		if d, err = hookfs.OpenDir(env.Layout.Project, filepath.ToSlash(rel), true, 0o755); err == nil {
			d.Close()
			return
		}
	}
	env.Note("the scratchpad folder %s was not made: %v", env.Layout.Rel(folder), err)
}
