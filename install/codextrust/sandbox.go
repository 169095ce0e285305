package codextrust

import (
	"bufio"
	"encoding/json"
	"os"
)

// NoSandbox is the sandbox mode in which Codex runs shell commands
// without a sandbox of its own (also what
// --dangerously-bypass-approvals-and-sandbox sets).
const NoSandbox = "danger-full-access"

// SessionSandbox is the sandbox mode a Codex session runs its shell
// commands in, as the session itself records it: the latest turn context
// of its transcript (rollout), which holds what the run's flags and
// config made of it. ok is false when the transcript holds none (not
// written yet, unreadable, or not Codex's).
func SessionSandbox(transcript string) (mode string, ok bool) {
	f, err := os.Open(transcript)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20) // a line holds a whole model turn
	for sc.Scan() {
		var rec struct {
			Type    string `json:"type"`
			Payload struct {
				SandboxPolicy struct {
					Type string `json:"type"`
				} `json:"sandbox_policy"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Type == "turn_context" && rec.Payload.SandboxPolicy.Type != "" {
			mode, ok = rec.Payload.SandboxPolicy.Type, true
		}
	}
	return mode, ok
}
