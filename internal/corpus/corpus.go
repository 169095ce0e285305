// Package corpus reads and writes recorded hook events, and summarises and
// compares the decisions made on them: the files behind `massgen-hook
// replay`, which runs a corpus of real events through the current config so
// a policy change can be tested before it reaches agents.
//
// A recording is one JSON file per hook run:
//
//	{"recorded_at": RFC 3339 time, "event": {the Claude Code event, redacted},
//	 "agent": "the agent whose rules applied", "decision": {"decision", "reason", "exit"}}
package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/protocol"
)

// Verdict summarises one hook answer: what was decided, the first line of
// why, and the exit status.
type Verdict struct {
	// Decision is one of stop, deny, ask, allow, defer (PreToolUse's
	// permission decisions, "+rewrite" appended when the input was
	// rewritten), block, rewrite (PostToolUse's tool output replaced),
	// context, warn (a systemMessage alone), none or error.
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	Exit     int    `json:"exit"`
}

// maxReason bounds a summary's reason, in runes.
const maxReason = 200

// Summarize is the Verdict of answer o with exit status exit; failure is
// the error of a hook that failed (exit non-zero), else "". Reasons are
// redacted: a deny often quotes the command it denies.
func Summarize(o protocol.Output, exit int, failure string) Verdict {
	v := verdictOf(o)
	if failure != "" || exit != protocol.ExitOK {
		v = Verdict{Decision: "error", Reason: failure}
	}
	v.Exit = exit
	v.Reason = firstLine(v.Reason)
	return v
}

func verdictOf(o protocol.Output) Verdict {
	h := o.HookSpecificOutput
	if h == nil {
		h = &protocol.HookSpecific{}
	}
	switch {
	case o.Continue != nil && !*o.Continue:
		return Verdict{Decision: "stop", Reason: o.StopReason}
	case h.Decision != nil:
		return Verdict{Decision: h.Decision.Behavior, Reason: h.Decision.Message}
	case h.PermissionDecision != "":
		d := h.PermissionDecision
		if len(h.UpdatedInput) > 0 {
			d += "+rewrite"
		}
		return Verdict{Decision: d, Reason: h.PermissionDecisionReason}
	case o.Decision == "block":
		return Verdict{Decision: "block", Reason: o.Reason}
	case len(h.UpdatedInput) > 0:
		return Verdict{Decision: "rewrite", Reason: h.AdditionalContext}
	case len(h.UpdatedToolOutput) > 0:
		return Verdict{Decision: "rewrite", Reason: h.AdditionalContext}
	case h.AdditionalContext != "":
		return Verdict{Decision: "context", Reason: h.AdditionalContext}
	case o.SystemMessage != "":
		return Verdict{Decision: "warn", Reason: o.SystemMessage}
	}
	return Verdict{Decision: "none"}
}

// SummarizeStdout is the Verdict of a Claude Code hook's run from what it
// printed: stdout (nothing, or one JSON object), its exit status, and
// stderr, whose first line says why a failed hook failed.
func SummarizeStdout(stdout []byte, exit int, stderr []byte) Verdict {
	if exit != protocol.ExitOK {
		msg := strings.TrimPrefix(firstLine(string(stderr)), "massgen-hook: ")
		if msg == "" {
			msg = "exit " + strconv.Itoa(exit) + " with nothing on stderr"
		}
		return Summarize(protocol.Output{}, exit, msg)
	}
	var o protocol.Output
	if out := bytes.TrimSpace(stdout); len(out) > 0 {
		if err := json.Unmarshal(out, &o); err != nil {
			return Verdict{Decision: "error", Reason: "the hook printed something that is not a JSON answer: " + firstLine(string(out))}
		}
	}
	return Summarize(o, exit, "")
}

// firstLine is the first non-blank line of s, trimmed, redacted and cut
// to maxReason runes.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			l = redact.String(l)
			if r := []rune(l); len(r) > maxReason {
				l = string(r[:maxReason-1]) + "…"
			}
			return l
		}
	}
	return ""
}

// String is v for a person: "deny (reason)", "error, exit 1 (reason)".
func (v Verdict) String() string {
	s := v.Decision
	if v.Exit != 0 {
		s += ", exit " + strconv.Itoa(v.Exit)
	}
	if v.Reason != "" {
		s += " (" + v.Reason + ")"
	}
	return s
}

// Recording is one recorded hook run.
type Recording struct {
	// RecordedAt is the hook's clock (RFC 3339, with its UTC offset):
	// replay runs the event at that time again.
	RecordedAt string `json:"recorded_at"`
	// Event is the Claude Code event, after translation from another
	// CLI's dialect and redaction.
	Event json.RawMessage `json:"event"`
	// Agent is the agent whose rules applied ("" is the main thread).
	Agent    string  `json:"agent"`
	Decision Verdict `json:"decision"`
}

// New is the recording of event raw, seen at now by agent and answered
// with v. The event is redacted.
func New(now time.Time, raw []byte, agent string, v Verdict) *Recording {
	return &Recording{RecordedAt: now.Format(time.RFC3339Nano), Event: redactEvent(raw), Agent: agent, Decision: v}
}

// redactEvent is raw with its secrets masked, but for the top-level
// session_id, which the redactor masks by its name: Claude Code's is no
// credential (transcript_path spells it too), and a replay needs it to keep
// sessions apart, as their stop counters and inbox deliveries are.
func redactEvent(raw []byte) json.RawMessage {
	red := redact.JSON(raw)
	var orig struct {
		SessionID *string `json:"session_id"`
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &orig) != nil || orig.SessionID == nil || json.Unmarshal(red, &m) != nil {
		return red
	}
	id, err := json.Marshal(*orig.SessionID)
	if err != nil {
		return red
	}
	m["session_id"] = id
	out, err := encode(m)
	if err != nil {
		return red
	}
	return bytes.TrimSpace(out)
}

// Encode is r as the text of a corpus file.
func (r *Recording) Encode() ([]byte, error) { return encode(r) }

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Parse reads a corpus file. Anything else (another JSON document, a file
// cut short) is an error saying why it is not a recording.
func Parse(data []byte) (*Recording, error) {
	var r Recording
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a recording: %v", err)
	}
	if r.RecordedAt == "" {
		return nil, errors.New("not a recording: no recorded_at")
	}
	if _, err := r.Time(); err != nil {
		return nil, fmt.Errorf("not a recording: recorded_at %q is not an RFC 3339 time", r.RecordedAt)
	}
	var ev struct {
		Name string `json:"hook_event_name"`
	}
	if t := bytes.TrimSpace(r.Event); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &ev) != nil {
		return nil, errors.New("not a recording: event is not a JSON object")
	}
	if ev.Name == "" {
		return nil, errors.New("not a recording: the event has no hook_event_name")
	}
	return &r, nil
}

// Time is RecordedAt as a time.
func (r *Recording) Time() (time.Time, error) { return time.Parse(time.RFC3339, r.RecordedAt) }

// EventName and Tool are the event's hook_event_name and tool_name.
func (r *Recording) EventName() string { return r.field("hook_event_name") }
func (r *Recording) Tool() string      { return r.field("tool_name") }

func (r *Recording) field(name string) string {
	var ev map[string]json.RawMessage
	if json.Unmarshal(r.Event, &ev) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(ev[name], &s)
	return s
}

// FileName is the name of a recording of event made at t by process pid;
// attempt > 0 tells apart names taken already. Names sort in time order.
func FileName(t time.Time, event string, pid, attempt int) string {
	name := t.UTC().Format("20060102T150405.000000000Z") + "-" + safe(event) + "-" + strconv.Itoa(pid)
	if attempt > 0 {
		name += "-" + strconv.Itoa(attempt)
	}
	return name + ".json"
}

// safe keeps letters and digits of s, so no event name can steer a path.
func safe(s string) string {
	b := []byte(s)
	n := 0
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b[n] = c
			n++
		}
	}
	if n == 0 {
		return "event"
	}
	return string(b[:n])
}

// Write stores data as a new recording of event in dir, which must exist:
// owner-only (0600), never over an existing file (O_EXCL), not synced (a
// recording lost in a power cut is no loss). It returns the file's path.
func Write(dir string, t time.Time, event string, data []byte) (string, error) {
	pid := os.Getpid()
	for attempt := 0; ; attempt++ {
		path := filepath.Join(dir, FileName(t, event, pid, attempt))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && attempt < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return "", werr
		}
		return path, nil
	}
}
