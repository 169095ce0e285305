package engine

import (
	"encoding/json"
	"time"

	"github.com/massgen/massgen-hook/redact"
)

// maxAuditInput caps the tool input kept in one audit line: enough to see
// what was called, not a copy of every file written.
const maxAuditInput = 4 << 10

// AuditRecord is one line of the audit trail: a decision and every rule
// that took part in it, including those before a deny.
type AuditRecord struct {
	Time      string          `json:"time"`
	Event     string          `json:"event"`
	Session   string          `json:"session_id,omitempty"`
	Agent     string          `json:"agent,omitempty"`
	Tool      string          `json:"tool"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Input     json.RawMessage `json:"tool_input,omitempty"`
	Decision  string          `json:"decision"`
	Reason    string          `json:"reason,omitempty"`
	Hooks     []HookRecord    `json:"hooks"`
}

// Audit is res as an audit line for call. Secrets in the tool input are
// masked; the input is the one Claude Code sent, not a rewrite.
func (res *Result) Audit(call *Call) AuditRecord {
	rec := AuditRecord{
		Time:      call.Now.UTC().Format(time.RFC3339Nano),
		Event:     call.HookType,
		Session:   call.Event.SessionID,
		Agent:     call.Agent,
		Tool:      call.Event.ToolName,
		ToolUseID: call.Event.ToolUseID,
		Decision:  res.Decision,
		Reason:    redact.String(previewText(res.Reason, 500)),
		Hooks:     make([]HookRecord, len(res.Hooks)),
	}
	if len(call.Event.ToolInput) > 0 {
		rec.Input = redact.Truncate(redact.JSON(call.Event.ToolInput), maxAuditInput)
	}
	for i, h := range res.Hooks {
		h.Reason = redact.String(previewText(h.Reason, 500))
		h.Error = redact.String(h.Error)
		h.Injection = redact.String(h.Injection)
		rec.Hooks[i] = h
	}
	return rec
}
