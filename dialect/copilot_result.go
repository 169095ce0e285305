package dialect

import (
	"encoding/json"
	"strings"
)

// copilotShellMark opens the line Copilot CLI ends a bash result with:
// "<shellId: N completed with exit code K>".
const copilotShellMark = "<shellId: "

// copilotShellFailure marks a bash call that exited non-zero as failed.
// Copilot CLI reports it as a success (resultType "success") and tells the
// exit code only in the text it gives the model, whose last line is
// "<shellId: N completed with exit code K>"; Claude Code reports such a call
// as PostToolUseFailure. The result keeps Copilot's fields and gains
// "success": false and Claude Code's "error" ("Exit code K" and the
// output), which the failure checks (smart retry, repeated errors) read.
func copilotShellFailure(ev object) {
	raw, ok := ev["tool_response"].(json.RawMessage)
	if !ok || ev.str("tool_name") != "bash" {
		return
	}
	res, err := decode(raw)
	if err != nil {
		return
	}
	text := strings.TrimRight(res.str("textResultForLlm"), "\n")
	i := strings.LastIndex(text, copilotShellMark)
	if i < 0 || !strings.HasSuffix(text, ">") {
		return
	}
	_, code, ok := strings.Cut(text[i+len(copilotShellMark):len(text)-1], " completed with exit code ")
	if !ok || code == "0" || strings.Trim(code, "0123456789") != "" {
		return
	}
	msg := "Exit code " + code
	if out := strings.TrimRight(text[:i], "\n"); out != "" {
		msg += "\n" + out
	}
	res.set("success", false)
	res.set("error", msg)
	ev.set("tool_response", res)
}
