package limits

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// smartRetry stops an agent retrying a call that keeps failing the same
// way (seed 003 §4). It is declared under PreToolUse and also runs on
// PostToolUse and PostToolUseFailure, where it keeps, per session and
// agent, the streak of failures of one exact call (tool and input):
//
//   - a failure of that call lengthens the streak; of another call, starts
//     a new one;
//   - any successful call ends the streak: the agent did something else
//     that worked, so a retry afterwards may well be right (tests rerun
//     after a fix are);
//   - the call, when the streak has reached max_failures (default 2), is
//     denied with the errors it got, until the agent changes the call or
//     something else succeeds.
//
// Only failures and the success that ends a streak write state; a call
// with no streak reads one small file.
type smartRetry struct {
	maxFailures int
}

type retryOptions struct {
	MaxFailures int `yaml:"max_failures"`
}

func NewSmartRetry(options *yaml.Node) (engine.Builtin, error) {
	o := retryOptions{MaxFailures: 2}
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	if o.MaxFailures < 1 {
		return nil, fmt.Errorf("max_failures: must be 1 or more, got %d", o.MaxFailures)
	}
	return &smartRetry{maxFailures: o.MaxFailures}, nil
}

// retryRecord is one agent's current failure streak.
type retryRecord struct {
	Call   string   `json:"call,omitempty"` // hash of the tool and its input
	Tool   string   `json:"tool,omitempty"`
	Errors []string `json:"errors,omitempty"` // newest last
}

// MaxErrorText bounds each error kept and quoted back.
const MaxErrorText = 300

func (s *smartRetry) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	name := AgentRecord("retry", call.Agent)
	key := CallKey(call.Event.ToolName, call.ToolInput)
	switch call.HookType {
	case protocol.PreToolUse:
		var rec retryRecord
		if _, err := call.State.ReadJSON(state.SessionRecord(call.Event.SessionID, name), &rec); err != nil {
			return engine.Verdict{}, err
		}
		if rec.Call != key || len(rec.Errors) < s.maxFailures {
			return engine.Verdict{}, nil
		}
		return engine.Verdict{Decision: engine.Deny, Reason: retryReason(call.Event.ToolName, rec.Errors)}, nil
	case protocol.PostToolUseFailure:
		return engine.Verdict{}, s.record(call, name, key, call.Event.Error)
	default:
		if msg, failed := OutputError(protocol.View(call.ToolOutput)); failed {
			return engine.Verdict{}, s.record(call, name, key, msg)
		}
		var rec retryRecord
		if ok, err := call.State.ReadJSON(state.SessionRecord(call.Event.SessionID, name), &rec); err != nil || !ok || rec.Call == "" {
			return engine.Verdict{}, err
		}
		return engine.Verdict{}, call.State.UpdateSession(call.Event.SessionID, name, &rec, func() (bool, error) {
			changed := rec.Call != ""
			rec = retryRecord{}
			return changed, nil
		})
	}
}

// record adds a failure of the call key to the agent's streak.
func (s *smartRetry) record(call *engine.Call, name, key, msg string) error {
	var rec retryRecord
	return call.State.UpdateSession(call.Event.SessionID, name, &rec, func() (bool, error) {
		if rec.Call != key {
			rec = retryRecord{Call: key, Tool: call.Event.ToolName}
		}
		rec.Errors = append(rec.Errors, hookenv.OneLine(redact.String(msg), MaxErrorText))
		if len(rec.Errors) > s.maxFailures {
			rec.Errors = rec.Errors[len(rec.Errors)-s.maxFailures:]
		}
		return true, nil
	})
}

func retryReason(tool string, errs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "STOP AND THINK: this exact %s call already failed %d times in a row. Running it again unchanged will fail again; change the approach (different input, another tool, or fix the cause first).", tool, len(errs))
	for i, e := range errs {
		fmt.Fprintf(&b, "\nFailure %d: %s", i+1, e)
	}
	return b.String()
}

// OutputError tells a PostToolUse response that reports a failure: MCP's
// isError, an is_error or success: false flag, or a non-empty error field.
// (Claude Code reports most failed built-in calls as PostToolUseFailure.)
func OutputError(out gjson.Result) (string, bool) {
	if !out.IsObject() {
		return "", false
	}
	errText := out.Get("error")
	failed := out.Get("isError").Type == gjson.True || out.Get("is_error").Type == gjson.True ||
		out.Get("success").Type == gjson.False || (errText.Type == gjson.String && errText.Str != "")
	if !failed {
		return "", false
	}
	if errText.Exists() {
		return errText.String(), true
	}
	return out.Raw, true
}

// CallKey identifies a call by its tool and its input, with the input's
// keys in order so the same arguments written another way still match.
func CallKey(tool string, input json.RawMessage) string {
	canonical := []byte(input)
	var v any
	if json.Unmarshal(input, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	h := fnv.New128a()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil))
}

// AgentRecord names a check's per-agent record in a session, e.g.
// "retry-main" or "round-agent_b": the main thread is "main", and the id
// passes through state.Key so the name stays plain.
func AgentRecord(check, agent string) string {
	if agent == "" {
		agent = "main"
	}
	return check + "-" + state.Key(agent)
}
