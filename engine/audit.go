package engine

import (
	"encoding/json"
	"time"

	"github.com/massgen/massgen-hook/internal/redact"
)

// maxAuditInput caps the tool input kept in one audit line: enough to see
// what was called, not a copy of every file written.
const maxAuditInput = 4 << 10

// maxQuietInput is the largest tool input a quiet line keeps. Redacting a
// small input costs microseconds; a file being written can take
// milliseconds per MiB, paid on every call. A bigger input is recorded by
// its size.
const maxQuietInput = 1 << 10

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
	// InputBytes is the size of an input a quiet line leaves out.
	InputBytes int          `json:"tool_input_bytes,omitempty"`
	Decision   string       `json:"decision"`
	Reason     string       `json:"reason,omitempty"`
	Hooks      []HookRecord `json:"hooks,omitempty"`
}

// Quiet reports whether res is a silent pass of the default rules alone
// (the guards, the inbox with nothing to deliver): what nearly every call
// comes to.
func (res *Result) Quiet() bool {
	if res.Decision != "none" {
		return false
	}
	for _, h := range res.Hooks {
		if h.Scope != "default" || h.Error != "" || len(h.Notes) > 0 {
			return false
		}
	}
	return true
}

// Audit is res as an audit line for call. Secrets in the tool input are
// masked; the input is the one Claude Code sent, not a rewrite. A quiet
// result's line is short: no rule records, and the input only when it is
// small (else its size).
func (res *Result) Audit(call *Call) AuditRecord {
	if res.Quiet() {
		return res.quietAudit(call)
	}
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

// quietAudit is the short line of a quiet result.
func (res *Result) quietAudit(call *Call) AuditRecord {
	rec := AuditRecord{
		Time:      call.Now.UTC().Format(time.RFC3339Nano),
		Event:     call.HookType,
		Session:   call.Event.SessionID,
		Agent:     call.Agent,
		Tool:      call.Event.ToolName,
		ToolUseID: call.Event.ToolUseID,
		Decision:  res.Decision,
	}
	switch in := call.Event.ToolInput; {
	case len(in) > maxQuietInput:
		rec.InputBytes = len(in)
	case len(in) > 0:
		rec.Input = redact.JSON(in)
	}
	return rec
}
