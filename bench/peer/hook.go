package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// kind is what an answer of pre-tool-use comes to for the command.
type kind int

const (
	allowed kind = iota // no opinion, allow or defer: the command runs
	denied              // deny, exit 2, decision block or continue false: it does not
	asked               // ask: it waits for a person, and under -p it is refused
	failed              // a crash, a timeout, an exit other than 0 and 2, or stdout that is not one JSON object
)

func (k kind) String() string {
	return [...]string{"allowed", "denied", "asked", "failed"}[k]
}

// answer is one hook run reduced to its verdict. Reason is what the hook
// gave for a deny or an ask, or what went wrong for a failure.
type answer struct {
	Kind   kind
	Reason string
}

// hookRun is everything one run of the hook needs.
type hookRun struct {
	bin     string
	env     []string // the hook's whole environment
	dir     string   // its working directory
	timeout time.Duration
}

// bashEvent is a Claude Code PreToolUse event for a Bash call of command in
// cwd, shaped as Claude Code sends it.
func bashEvent(command, cwd, toolUseID string) []byte {
	ev := map[string]any{
		"session_id":      "peer-agreement",
		"transcript_path": "",
		"cwd":             cwd,
		"permission_mode": "default",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "peer agreement case"},
		"tool_use_id":     toolUseID,
	}
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err) // strings and maps of strings always marshal
	}
	return data
}

// errStart is a hook binary that cannot be started at all: the whole run
// stops, since no answer of it would mean anything.
var errStart = errors.New("cannot start the hook")

// run pipes event into `massgen-hook pre-tool-use` and classifies its answer.
func (h hookRun) run(ctx context.Context, event []byte) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, "pre-tool-use")
	cmd.Env = h.env
	cmd.Dir = h.dir
	cmd.Stdin = bytes.NewReader(event)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return answer{failed, fmt.Sprintf("no answer within %v", h.timeout)}, nil
	}
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return answer{}, fmt.Errorf("%w %s: %v", errStart, h.bin, err)
		}
		code = exit.ExitCode()
	}
	return classify(code, stdout.Bytes(), stderr.Bytes()), nil
}

// classify reads a PreToolUse answer as Claude Code does: exit 2 denies with
// stderr as the reason; exit 0 with no output lets the call through; exit 0
// with one JSON object decides by its fields; anything else is a failure
// (code -1 is a process killed by a signal).
func classify(code int, stdout, stderr []byte) answer {
	switch code {
	case 0:
	case 2:
		return answer{denied, firstLine(stderr)}
	case -1:
		return answer{failed, "killed by a signal: " + firstLine(stderr)}
	default:
		return answer{failed, fmt.Sprintf("exit %d: %s", code, firstLine(stderr))}
	}
	if len(bytes.TrimSpace(stdout)) == 0 {
		return answer{Kind: allowed}
	}
	var out struct {
		Continue           *bool  `json:"continue"`
		StopReason         string `json:"stopReason"`
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	if err := dec.Decode(&out); err != nil {
		return answer{failed, fmt.Sprintf("stdout is not a JSON object (%v): %s", err, firstLine(stdout))}
	}
	if dec.More() || bytes.TrimSpace(stdout)[0] != '{' {
		return answer{failed, "stdout is not one JSON object: " + firstLine(stdout)}
	}
	hs := out.HookSpecificOutput
	switch {
	case out.Continue != nil && !*out.Continue:
		return answer{denied, out.StopReason}
	case hs.PermissionDecision == "deny":
		return answer{denied, hs.PermissionDecisionReason}
	case hs.PermissionDecision == "ask":
		return answer{asked, hs.PermissionDecisionReason}
	case hs.PermissionDecision == "" && out.Decision == "block":
		return answer{denied, out.Reason}
	}
	return answer{Kind: allowed}
}

// firstLine is the first non-blank line of b, for one-line reports.
func firstLine(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
