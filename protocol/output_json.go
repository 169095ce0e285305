package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/massgen/massgen-hook/internal/jsonw"
)

// appendJSON appends o as Write's Encoder (HTML characters left as they
// are) writes it from the field tags, without its newline; a test holds
// the two equal. Every hook that answers writes one Output, in a process
// of its own: the Encoder's reflective build of an encoder for these
// types cost more than the rest of a session-start's answer.
func (o Output) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	start := len(b)
	sep := func(key string) {
		if len(b) > start {
			b = append(b, ',')
		}
		b = append(b, key...)
	}
	if o.Continue != nil {
		sep(`"continue":`)
		b = jsonw.Bool(b, *o.Continue)
	}
	if o.StopReason != "" {
		sep(`"stopReason":`)
		b = jsonw.StringNoHTML(b, o.StopReason)
	}
	if o.SuppressOutput {
		sep(`"suppressOutput":true`)
	}
	if o.SystemMessage != "" {
		sep(`"systemMessage":`)
		b = jsonw.StringNoHTML(b, o.SystemMessage)
	}
	if o.Decision != "" {
		sep(`"decision":`)
		b = jsonw.StringNoHTML(b, o.Decision)
	}
	if o.Reason != "" {
		sep(`"reason":`)
		b = jsonw.StringNoHTML(b, o.Reason)
	}
	if h := o.HookSpecificOutput; h != nil {
		sep(`"hookSpecificOutput":`)
		var err error
		if b, err = h.appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func (h *HookSpecific) appendJSON(b []byte) ([]byte, error) {
	b = jsonw.StringNoHTML(append(b, `{"hookEventName":`...), h.HookEventName)
	if h.PermissionDecision != "" {
		b = jsonw.StringNoHTML(append(b, `,"permissionDecision":`...), h.PermissionDecision)
	}
	if h.PermissionDecisionReason != "" {
		b = jsonw.StringNoHTML(append(b, `,"permissionDecisionReason":`...), h.PermissionDecisionReason)
	}
	var err error
	if len(h.UpdatedInput) > 0 {
		if b, err = appendCompact(append(b, `,"updatedInput":`...), h.UpdatedInput); err != nil {
			return nil, err
		}
	}
	if h.AdditionalContext != "" {
		b = jsonw.StringNoHTML(append(b, `,"additionalContext":`...), h.AdditionalContext)
	}
	if len(h.UpdatedToolOutput) > 0 {
		if b, err = appendCompact(append(b, `,"updatedToolOutput":`...), h.UpdatedToolOutput); err != nil {
			return nil, err
		}
	}
	if d := h.Decision; d != nil {
		b = jsonw.StringNoHTML(append(b, `,"decision":{"behavior":`...), d.Behavior)
		if d.Message != "" {
			b = jsonw.StringNoHTML(append(b, `,"message":`...), d.Message)
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// appendCompact appends raw compacted, as the Encoder writes a RawMessage.
func appendCompact(b []byte, raw json.RawMessage) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return nil, &json.MarshalerError{Type: reflect.TypeFor[json.RawMessage](), Err: err}
	}
	return buf.Bytes(), nil
}
