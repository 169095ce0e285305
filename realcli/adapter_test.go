//go:build realcli

package realcli

import (
	"regexp"
	"strings"
)

// Adapter is how a scenario written once (scenarios_*_test.go) drives one
// CLI: how to wire it beyond `massgen-hook init`, the tool calls its model
// makes, and how to read what the model was told. Each CLI's file fills in
// its own; a scenario the CLI cannot run is in NA with the reason, which is
// its n/a cell in the results table.
type Adapter struct {
	// Trust is the step the CLI asks of its user, after init, before it
	// runs a project's hooks (Codex: the config.toml lines init printed).
	// nil: none.
	Trust func(s *Session)
	// Checked is the CLI's own check of every run, once it ended (Codex:
	// its exit status, and no hook run it reported as failed). nil: none.
	Checked func(s *Session, r *Run)

	// Shell is a call of the CLI's shell tool, which hooks see as Bash.
	Shell func(id, command string) Reply
	// Background is a call of the shell tool that starts command as a
	// job of the CLI's own, running on after the call returns (nil: the
	// CLI has no such route).
	Background func(id, command string) Reply
	// BashInput is that call's tool_input as hooks see it, for a rule
	// that rewrites it: the fields the CLI's Bash input has.
	BashInput func(command string) map[string]any
	// Read is a call of the CLI's file-reading tool on path (nil: it has
	// none; the model reads files through the shell).
	Read func(id, path string) Reply

	// Overwrite is a call of the CLI's tool that changes a file, making
	// the project file rel's line old into new, and that tool's name as
	// hooks see it (Write, Edit, apply_patch).
	Overwrite func(s *Session, id, rel, old, new string) (Reply, string)
	// Patch is a call of apply_patch, a freeform tool whose input is the
	// patch text (nil: the CLI has none); PatchReady is what a scenario
	// needs for the model to be offered it (nil: nothing).
	Patch      func(id, patch string) Reply
	PatchReady func(s *Session)
	// Search is a call of the CLI's search tool for pattern under dir
	// (nil: it has none).
	Search func(id, pattern, dir string) Reply
	// PluginArgs load dir as a plugin of the CLI (nil: massgen-hook is
	// no plugin of it).
	PluginArgs func(dir string) []string

	// Scribe declares a custom subagent, scribe, that may write files;
	// Delegate is the main agent's call handing it task, and when the
	// main agent's turn holds its answer; ScribeFinishes scripts the
	// scribe on task, from its turn when: it writes its scratchpad, where
	// it can, an entry saying "wrote a note", and stops answering "note
	// written" (steps "<step>-writes", "<step>-stops", its call
	// "call_<step>_pad").
	Scribe         func(s *Session)
	Delegate       func(s *Session, id, task string) (Reply, When)
	ScribeFinishes func(s *Session, step, task string, when When)
	// Explore is the main agent's call handing task to the CLI's built-in
	// agent that only reads and searches, and when the main agent's turn
	// holds its answer (nil: the CLI has none). WriteTools are the tools
	// a request offers that write files (nil: Explore's has none).
	Explore    func(s *Session, id, task string) (Reply, When)
	WriteTools func(r *Request) []string
	// WriteNew is a call writing the new project file rel; Append one
	// adding lines at the end of rel, whose content is now before.
	WriteNew func(s *Session, id, rel, content string) Reply
	Append   func(s *Session, id, rel, before, lines string) Reply

	// Denial is the reason a PreToolUse hook gave for denying the call
	// whose result the model read; ok is false when the result is not a
	// denial.
	Denial func(res Block) (reason string, ok bool)
	// ShellFailed reports whether the model read a failed shell command's
	// result marked as a failure, the way the CLI marks one (nil: it does
	// not mark it).
	ShellFailed func(res Block) bool
	// RefusesEnvItself: the CLI's own file tools refuse .env before any
	// hook runs.
	RefusesEnvItself bool
	// NoCallID says how the CLI gives hooks no id of the call, so the
	// audit trail cannot name it ("": it gives one).
	NoCallID string
	// RepeatsContext: the CLI may show one piece of hook context to the
	// model more than once (in the tool result and as a message of its
	// own); elsewhere it must be there exactly once.
	RepeatsContext bool
	// ReplacesOutput: a hook can replace a tool's output, so the model
	// never reads the original. Where not, massgen-hook hands the
	// replacement over as context after it.
	ReplacesOutput bool
	// OutputObject: the shell's output is an object (stdout, stderr), and
	// a replacement given as one must keep that shape.
	OutputObject bool
	// Shown is what the user is shown of a hook's messages to them
	// (systemMessage) in a headless run; nil: the CLI shows them nowhere.
	Shown func(r *Run) string

	// ShellPrefix: the CLI runs each shell command through a prefix
	// program init points it at (Claude Code's CLAUDE_CODE_SHELL_PREFIX);
	// elsewhere massgen-hook's pre-tool-use hook rewrites the command to
	// run under its sandbox wrapper.
	ShellPrefix bool
	// ShellDeny writes the user's own rule, in the CLI's own form,
	// denying the shell commands that start with words (nil: the CLI has
	// no such rule).
	ShellDeny func(s *Session, words string)
	// ShellExit is the exit code the CLI itself recorded for shell call
	// id, where the result the model reads does not say it (nil: the
	// model's text carries it).
	ShellExit func(r *Run, id string) (code int, ok bool)
	// CarriesCwd: a cd in one shell call carries over to the next.
	CarriesCwd bool
	// RuleDenied reports whether the model read a shell call's result as
	// denied by the user's own rule (nil: the result is marked as an
	// error).
	RuleDenied func(res Block) bool
	// EndsShellJobs says why a job a shell call starts in the background
	// (`nohup sleep 30 &`) does not outlive the call in this CLI, with or
	// without massgen-hook ("": it does).
	EndsShellJobs string
	// NoStopGate says why the CLI cannot hold its main agent's stop ("":
	// it can): scenarios that delegate then leave out the coordinator's
	// log, which only a held stop asks for.
	NoStopGate string
	// HookSettings is the project file init wires the CLI's hooks in
	// (default .claude/settings.json).
	HookSettings string

	// Prepare sets up, after the wiring, what a check in Also needs, by
	// the scenario's name.
	Prepare map[string]func(s *Session)
	// Also are checks only this CLI can make, added to a shared
	// scenario's own, by the scenario's name: what only its logs show.
	Also map[string]func(s *Session, r *Run)
	// NA are the shared scenarios the CLI cannot run, with the reason.
	NA map[string]string
}

// denyMarked is the Denial of CLIs that mark a denied call's result as an
// error whose text is the reason after a prefix the CLI's own failures
// lack (marked matches it).
func denyMarked(marked *regexp.Regexp) func(Block) (string, bool) {
	return func(res Block) (string, bool) {
		at := marked.FindStringIndex(res.Text)
		if !res.IsError || at == nil {
			return "", false
		}
		return res.Text[at[1]:], true
	}
}

// denyAfter is the Denial of CLIs that put a fixed prefix before the
// reason in the call's result.
func denyAfter(prefix string) func(Block) (string, bool) {
	return func(res Block) (string, bool) { return strings.CutPrefix(res.Text, prefix) }
}

// shellInput is the Bash tool_input of a shell with a description field.
func shellInput(command string) map[string]any {
	return map[string]any{"command": command, "description": "rewritten by a rule"}
}

// wantDenied fails unless the model, in next, read call id's result as a
// denial by a hook whose reason says each of want.
func wantDenied(s *Session, next *Request, id string, want ...string) {
	s.t.Helper()
	res, ok := next.ToolResult(id)
	if !ok {
		s.Errorf("the model got no result for %s", id)
		return
	}
	reason, denied := s.CLI.Denial(res)
	if !denied {
		s.Errorf("the call %s was not denied by the hook: the model got %q", id, clip(res.Text, 300))
		return
	}
	for _, w := range want {
		if !strings.Contains(reason, w) {
			s.Errorf("the denial of %s does not say %q: %q", id, w, clip(res.Text, 300))
		}
	}
}

// notDenied fails when the model read call id's result as a hook's denial.
func notDenied(s *Session, next *Request, id, what string) {
	s.t.Helper()
	if res, _ := next.ToolResult(id); s.deniedResult(res) {
		s.Errorf("%s: the model got %q", what, clip(res.Text, 400))
	}
}

func (s *Session) deniedResult(res Block) bool {
	_, denied := s.CLI.Denial(res)
	return denied
}
