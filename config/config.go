// Package config loads massgen-hook's configuration file: YAML, strict (an
// unknown key or a wrong type is an error naming the file, line and key),
// with defaults for everything left out.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/scratchpad"
)

// DefaultPath is where a project's config lives, relative to the project.
const DefaultPath = ".claude/massgen-hook.yaml"

// Config is the whole configuration.
type Config struct {
	// Path is the file the config came from; "" means built-in defaults.
	Path string `yaml:"-"`
	// FailClosed makes an internal failure block (exit 2) on events that can
	// block, instead of letting the agent proceed.
	FailClosed bool `yaml:"fail_closed"`
	// DefaultGuards runs the built-in guards (malformed calls, schemas,
	// dangerous commands, protected paths) on every tool call unless the
	// configuration names them; false leaves only the rules written here.
	DefaultGuards bool `yaml:"default_guards"`
	// GuardTimeout is how long pre-tool-use may take to judge one tool
	// call before the call is blocked as one it could not judge; time in
	// the user's command handlers does not count.
	GuardTimeout Duration   `yaml:"guard_timeout"`
	Scratchpad   Scratchpad `yaml:"scratchpad"`
	// Hooks are the global rules, for every agent.
	Hooks Hooks `yaml:"hooks"`
	// Agents hold per-agent rules that extend or override the global ones.
	Agents []Agent `yaml:"agents"`
	// Record switches on recording the events the hooks see (see Record).
	Record Record `yaml:"record"`
	// Inbox chooses the inbox's backend (files, or NATS across machines).
	Inbox Inbox `yaml:"inbox"`
	// Audit adds copies of the audit trail (a NATS subject).
	Audit Audit `yaml:"audit"`
	// Confine configures the sandbox of agents' shell commands.
	Confine Confine `yaml:"confine"`

	// MassGen is true for a MassGen config file, read as it is (see
	// massgen.go).
	MassGen bool `yaml:"-"`
	// Notices are what the user should know of the file that does not stop
	// it from being used: a MassGen Python hook skipped, a key neither
	// massgen-hook nor MassGen knows.
	Notices []*Error `yaml:"-"`
	// Other holds the top-level keys that are not massgen-hook's, judged
	// by checkOtherKeys.
	Other map[string]yaml.Node `yaml:",inline"`
}

// Scratchpad configures the scratchpad protocol.
type Scratchpad struct {
	// Root is the scratchpad root, relative to the project unless absolute.
	Root             string   `yaml:"root"`
	DefaultAgent     string   `yaml:"default_agent"`
	RequiredSections []string `yaml:"required_sections"`
	// BlockCap is how many stop blocks in a row one agent gets before it is
	// let go with a warning, so a stop hook can never trap the user.
	BlockCap int `yaml:"block_cap"`
	// ExemptAgents are the agent types that write no scratchpad: Claude
	// Code's built-in agents without a Write or Edit tool, which could not
	// write one if they tried.
	ExemptAgents  []string      `yaml:"exempt_agents"`
	SessionStart  SessionStart  `yaml:"session_start"`
	SubagentStart SubagentStart `yaml:"subagent_start"`
}

// SessionStart configures the context injected when a session starts.
type SessionStart struct {
	CoordinatorLines int      `yaml:"coordinator_lines"`
	EgoLines         int      `yaml:"ego_lines"`
	GitLogEntries    int      `yaml:"git_log_entries"`
	Timeout          Duration `yaml:"timeout"`
}

// SubagentStart configures the context injected when a subagent starts.
type SubagentStart struct {
	TailLines int `yaml:"tail_lines"`
}

// ReadOnlyAgents are Claude Code's built-in agent types (2.1.328) that have
// no tool to write a file with: Explore and Plan (every tool but Agent,
// Edit, Write and NotebookEdit), claude-code-guide (search, read and web
// tools), web-fetch (WebFetch), comment-thread-analyst (Artifact), and
// statusline-setup (Read and Edit, for the user's status line setting);
// and Copilot CLI's explore (1.0.102: grep, glob, view and bash, no create
// or edit, as Explore).
var ReadOnlyAgents = []string{"Explore", "Plan", "claude-code-guide", "statusline-setup", "web-fetch", "comment-thread-analyst", "explore"}

// Exempt reports whether agentType writes no scratchpad.
func (s *Scratchpad) Exempt(agentType string) bool { return slices.Contains(s.ExemptAgents, agentType) }

// Default returns the built-in configuration.
func Default() Config {
	return Config{DefaultGuards: true, GuardTimeout: Duration(DefaultGuardTimeout), Scratchpad: Scratchpad{
		Root:             ".claude/scratchpad",
		DefaultAgent:     "general-purpose",
		RequiredSections: append([]string(nil), scratchpad.DefaultSections...),
		BlockCap:         3,
		ExemptAgents:     append([]string(nil), ReadOnlyAgents...),
		SessionStart:     SessionStart{CoordinatorLines: 25, EgoLines: 20, GitLogEntries: 5, Timeout: Duration(10 * time.Second)},
		SubagentStart:    SubagentStart{TailLines: 3},
	}}
}

// DefaultGuardTimeout is the guards' time to judge one tool call: above
// the longest wait a guard makes (asking a remote for a branch's tip, 5 s)
// and well below the timeout init wires pre-tool-use with (60 s).
const DefaultGuardTimeout = 8 * time.Second

// Error is a configuration error: the file, the line when known, and what is wrong.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Locate picks the config file: explicit (a --config flag) first, then
// $MASSGEN_HOOK_CONFIG (env), then the project's DefaultPath. required is
// true when the user named the file, so a missing one is an error.
func Locate(explicit, env, project string) (path string, required bool) {
	switch {
	case explicit != "":
		return explicit, true
	case env != "":
		return env, true
	}
	return filepath.Join(project, DefaultPath), false
}

// MaxFileBytes bounds the config file: a few KiB in practice, and a FIFO
// or a giant put in its place must not hang the hook or fill its memory.
const MaxFileBytes = 1 << 20

// Load reads the config at path over the defaults. A missing file is the
// defaults unless required. It must be a regular file of at most
// MaxFileBytes.
func Load(path string, required bool) (Config, error) {
	data, err := hookfs.ReadFile(path, MaxFileBytes)
	if hookfs.Missing(err) && !required {
		return Default(), nil
	}
	if err != nil {
		return Config{}, &Error{Path: path, Msg: "cannot read config: " + unwrapPathError(err)}
	}
	return Parse(path, data)
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	var notRegular *hookfs.NotRegularError
	var tooLarge *hookfs.TooLargeError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &notRegular):
		return "it is " + notRegular.What()
	case errors.As(err, &tooLarge):
		return fmt.Sprintf("it is too large (over %d MiB)", MaxFileBytes>>20)
	}
	return err.Error()
}
