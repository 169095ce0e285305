package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/massgen/massgen-hook/internal/jsonw"
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

// AuditLine is the record as json.Marshal writes it from its field tags (a
// test holds the two equal), written without the encoder Marshal builds by
// reflection the first time it meets a type: an audit line is written on
// every tool call, by a process that writes only one (200,000 instructions
// of a pre-tool-use). state.Dir.Audit takes it as the line.
func (r AuditRecord) AuditLine() ([]byte, error) {
	b := make([]byte, 0, 256+len(r.Input)+len(r.Reason))
	b = append(b, `{"time":`...)
	b = jsonw.String(b, r.Time)
	b = append(b, `,"event":`...)
	b = jsonw.String(b, r.Event)
	b = optString(b, `,"session_id":`, r.Session)
	b = optString(b, `,"agent":`, r.Agent)
	b = append(b, `,"tool":`...)
	b = jsonw.String(b, r.Tool)
	b = optString(b, `,"tool_use_id":`, r.ToolUseID)
	if len(r.Input) > 0 {
		// Compacted and HTML-escaped, as Marshal writes a RawMessage: a
		// line holds no newline.
		var compact bytes.Buffer
		if err := json.Compact(&compact, r.Input); err != nil {
			return nil, fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: %w", err)
		}
		buf := bytes.NewBuffer(append(b, `,"tool_input":`...))
		json.HTMLEscape(buf, compact.Bytes())
		b = buf.Bytes()
	}
	if r.InputBytes != 0 {
		b = jsonw.Int(append(b, `,"tool_input_bytes":`...), int64(r.InputBytes))
	}
	b = append(b, `,"decision":`...)
	b = jsonw.String(b, r.Decision)
	b = optString(b, `,"reason":`, r.Reason)
	if len(r.Hooks) > 0 {
		b = append(b, `,"hooks":[`...)
		for i, h := range r.Hooks {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = h.appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendJSON appends h as encoding/json would from its field tags.
func (h HookRecord) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"name":`...)
	b = jsonw.String(b, h.Name)
	b = append(b, `,"type":`...)
	b = jsonw.String(b, h.Type)
	b = append(b, `,"scope":`...)
	b = jsonw.String(b, h.Scope)
	b = append(b, `,"decision":`...)
	b = jsonw.String(b, h.Decision)
	b = optString(b, `,"reason":`, h.Reason)
	b = append(b, `,"duration_ms":`...)
	b, ok := jsonw.Float(b, h.DurationMS)
	if !ok {
		return nil, fmt.Errorf("json: unsupported value: %v", h.DurationMS)
	}
	b = optString(b, `,"error":`, h.Error)
	b = optString(b, `,"injection_preview":`, h.Injection)
	if h.Rewrote {
		b = append(b, `,"rewrote_input":true`...)
	}
	if len(h.Notes) > 0 {
		b = append(b, `,"notes":[`...)
		for i, n := range h.Notes {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.String(b, n)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// optString appends key and s, unless s is empty (omitempty).
func optString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return jsonw.String(append(b, key...), s)
}
