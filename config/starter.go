package config

// Starter is the config file `massgen-hook init` writes into a project that
// has none: the defaults spelled out, so people see what they can change,
// and a rule example left commented. A test holds it equal to Default().
const Starter = `# yaml-language-server: $schema=` + SchemaFile + `
# massgen-hook configuration. Every key is optional; these are the defaults.
# Check it after editing: massgen-hook config validate. Reference: docs/configuration.md.
fail_closed: false          # true: an internal failure blocks instead of letting the agent go on
default_guards: true        # malformed calls, schemas, dangerous commands, protected paths; secrets masked in output
guard_timeout: 8s           # pre-tool-use's time to judge one call; a call still unjudged then is blocked
scratchpad:
  root: .claude/scratchpad
  default_agent: general-purpose
  required_sections: [What I did, Cross-agent observations, Unresolved]
  block_cap: 3              # stop blocks in a row before an agent is let go with a warning
  # Agent types that write no scratchpad: Claude Code's and Copilot CLI's built-in agents with no tool to write one.
  exempt_agents: [Explore, Plan, claude-code-guide, statusline-setup, web-fetch, comment-thread-analyst, explore]
  session_start:
    coordinator_lines: 25
    ego_lines: 20
    git_log_entries: 5
    timeout: 10s
  subagent_start:
    tail_lines: 3

# Rules run by pre-tool-use and post-tool-use, MassGen's hook framework:
# hooks:
#   PreToolUse:
#     - matcher: "Write|Edit"
#       handler: ./hooks/check-write.sh   # stdin: the event; exit 2 or JSON denies
#       timeout: 5                        # seconds
#       fail_closed: true
# agents:
#   - id: reviewer
#     hooks:
#       PostToolUse:
#         - matcher: "*"
#           type: builtin
#           handler: output_validation
`
