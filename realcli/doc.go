// Package realcli is the end-to-end suite that drives the real agent CLIs
// (Claude Code, Gemini CLI, Codex CLI, GitHub Copilot CLI, pi), installed from
// npm at pinned versions, against a scripted fake model API on 127.0.0.1, in
// temporary git projects wired by `massgen-hook init`, as a user would wire
// them. Only the real CLIs can show whether a hook's answer takes effect:
// every other test feeds events written by hand.
//
// The tests carry the build tag realcli, so `go test ./...` stays fast and
// offline; `make test-real` runs them. docs/development-real-clients.md says
// how to run them and how to add a scenario or a CLI.
package realcli
