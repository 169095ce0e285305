package hookenv

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// noticesRecord is the session record of what its main thread must be
// told about its subagents. It exists only while something waits, so the
// main thread's tool calls pay one stat for it.
const noticesRecord = "notices"

// notices are texts for the session's main thread, oldest first.
type notices struct {
	Texts []string `json:"notices"`
}

// AddNotice queues text for the main thread of session: its next tool
// call (the Agent tool's PostToolUse comes right after a subagent ends) or
// its stop carries it. A subagent's own systemMessage is shown nowhere in
// a headless run, and the coordinator is who must act on it.
func (env *Env) AddNotice(session, text string) error {
	return env.State.Update(state.SessionRecord(session, noticesRecord), func(old []byte) ([]byte, error) {
		n := env.parseNotices(old)
		n.Texts = queueOnce(n.Texts, text)
		return json.Marshal(n)
	})
}

// queueOnce appends to queue the texts not already in it: a notice that
// waits already (the same subagent let go again before the main thread's
// next call) would tell it nothing new, and the record would grow with
// every release.
func queueOnce(queue []string, texts ...string) []string {
	queue = slices.Clip(queue)
	for _, text := range texts {
		if !slices.Contains(queue, text) {
			queue = append(queue, text)
		}
	}
	return queue
}

// parseNotices reads a notices record; a corrupt one is noted and read as
// empty (the releases it held are in the audit trail).
func (env *Env) parseNotices(raw []byte) notices {
	var n notices
	if len(raw) > 0 && json.Unmarshal(raw, &n) != nil {
		env.Note("the session's subagent notices were corrupt; dropped (the audit trail has the releases)")
		n = notices{}
	}
	return n
}

// TakeNotices claims what waits for the main thread of ev's session. The
// claim is settled with the hook's answer: not written, the notices go
// back, ahead of any queued since. Subagents' own calls, and dry runs,
// take nothing.
func (env *Env) TakeNotices(ev *protocol.Event) (text string, settle func(answered bool)) {
	if ev.AgentID != "" || env.DryRun || env.State == nil {
		return "", nil
	}
	name := state.SessionRecord(ev.SessionID, noticesRecord)
	if _, err := os.Stat(filepath.Join(env.State.Path, filepath.FromSlash(name))); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	var taken []string
	err := env.State.Update(name, func(old []byte) ([]byte, error) {
		taken = env.parseNotices(old).Texts
		return nil, nil
	})
	if err != nil {
		env.Note("could not take the session's subagent notices: %v; they wait for the next call", err)
		return "", nil
	}
	if len(taken) == 0 {
		return "", nil
	}
	return strings.Join(taken, "\n\n"), func(answered bool) {
		if answered {
			return
		}
		err := env.State.Update(name, func(old []byte) ([]byte, error) {
			n := env.parseNotices(old)
			n.Texts = queueOnce(taken, n.Texts...)
			return json.Marshal(n)
		})
		if err != nil {
			env.Note("could not put back the session's subagent notices: %v (the audit trail has the releases)", err)
		}
	}
}

// WithNotices puts the main thread's waiting notices first in a tool
// hook's context, and settles them with the answer.
func (env *Env) WithNotices(ev *protocol.Event, out protocol.Output) protocol.Output {
	text, settle := env.TakeNotices(ev)
	if text == "" {
		return out
	}
	env.OnAnswer(settle)
	h := protocol.HookSpecific{HookEventName: ev.HookEventName}
	if out.HookSpecificOutput != nil {
		h = *out.HookSpecificOutput
	}
	h.AdditionalContext = protocol.Paragraphs(text, h.AdditionalContext)
	out.HookSpecificOutput = &h
	return out
}
