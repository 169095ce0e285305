// Package inbox delivers messages into running agents: peer answers, human
// input, subagent and background results, queued by `massgen-hook send` and
// handed to the recipient at its next tool call (PostToolUse), or, if they
// expire first, at its next turn boundary.
//
// Every message is delivered exactly once to each recipient, or reported as
// not delivered; none is lost silently. MassGen kept one file per agent that
// each new write replaced (an undelivered message was lost) and reported
// expired messages as delivered. Here a message is its own immutable file,
// each recipient's claim on it is a receipt created with O_EXCL (one winner
// among hooks running at once, never read-then-delete), and the receipt is
// confirmed only after the hook's answer was written.
package inbox

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// Sources of messages. The source decides how a message is shown.
const (
	Human      = "human"
	Peer       = "peer"
	Subagent   = "subagent"
	Background = "background"
	System     = "system"
)

// Sources lists the valid sources, for messages.
var Sources = []string{Human, Peer, Subagent, Background, System}

// Strategies (seed 000): tool_result is set apart from the tool output as
// system context; user_message is a system reminder after it.
const (
	ToolResult  = "tool_result"
	UserMessage = "user_message"
)

// Coordinator is the main thread's name as a recipient.
const Coordinator = "coordinator"

// MaxText bounds a message's text, in UTF-16 code units as Claude Code
// counts them: a message must fit whole in one hook output (10,000), with
// room for its banner, so it is never cut on delivery.
const MaxText = 6000

// DefaultBroadcastTTL is how long a broadcast stays deliverable when send
// is given no --ttl: "every agent" must end somewhere, or an agent started
// next week would get today's correction.
const DefaultBroadcastTTL = time.Hour

// Message is one queued message. It is written once by send and never
// changed; who has it is in the receipts.
type Message struct {
	ID string `json:"id"`
	// To lists the recipients; empty is a broadcast to every agent (but the
	// sender).
	To       []string `json:"to,omitempty"`
	From     string   `json:"from,omitempty"`
	Source   string   `json:"source"`
	Strategy string   `json:"strategy"`
	// Matcher limits delivery to tool calls it matches; empty is any.
	Matcher   string     `json:"matcher,omitempty"`
	Text      string     `json:"text"`
	SentAt    time.Time  `json:"sent_at"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	// Workspace is the sender's workspace as given (a peer answer); its
	// snapshot is in the inbox under the message's id.
	Workspace string `json:"workspace,omitempty"`
	// Revision numbers a peer answer among its sender's: 1 for the first.
	Revision int `json:"revision,omitempty"`
	// Codex marks a payload taken over from MassGen's Codex IPC file, with
	// its sequence number.
	CodexSequence *int64 `json:"codex_sequence,omitempty"`
}

// Broadcast reports whether m goes to every agent.
func (m *Message) Broadcast() bool { return len(m.To) == 0 }

// For reports whether recipient is one of m's recipients. A broadcast is
// not for its own sender.
func (m *Message) For(recipient string) bool {
	if m.Broadcast() {
		return recipient != m.From
	}
	return slices.Contains(m.To, recipient)
}

// Expired reports whether m can no longer be delivered at a tool call.
func (m *Message) Expired(now time.Time) bool {
	return m.ExpiresAt != nil && !now.Before(*m.ExpiresAt)
}

// Matches reports whether m may be delivered after a call of tool. A
// matcher that no longer compiles (it was checked at send) matches nothing,
// so the message waits in the inbox where `inbox` shows it.
func (m *Message) Matches(tool string) bool {
	if m.Matcher == "" {
		return true
	}
	mt, err := match.Compile(m.Matcher)
	return err == nil && mt.Match(tool)
}

// idPattern is the shape of every id: the UTC send time to the nanosecond,
// then random hex. Names in the inbox are used only when they have it, so
// nothing read from disk can steer a path. Compiled on first use: every
// hook process links this package, few of them read an inbox.
var idPattern = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}Z-[0-9a-f]{8}$`)
}}

// ValidID reports whether id has the shape of a message id.
func ValidID(id string) bool { return idPattern.Get().MatchString(id) }

// idLayout is the time part of an id.
const idLayout = "20060102T150405.000000000Z"

// newID makes an id that sorts in send order: oldest first is name order.
func newID(now time.Time, random uint32) string {
	return fmt.Sprintf("%s-%08x", now.UTC().Format(idLayout), random)
}

// idTime is the time part of an id made by newID.
func idTime(id string) time.Time {
	t, _ := time.Parse(idLayout, id[:min(len(id), len(idLayout))])
	return t
}

// DraftError is a message that cannot be sent as given: the sender's
// mistake, told at once, so nothing is queued that could not be delivered.
type DraftError struct{ Msg string }

func (e *DraftError) Error() string { return e.Msg }

func draftErrorf(format string, args ...any) error {
	return &DraftError{Msg: fmt.Sprintf(format, args...)}
}

// ValidName checks an agent name given on the command line: one of the
// names hooks resolve (coordinator, an agent_type such as plugin:reviewer,
// $MASSGEN_AGENT_ID). A name no hook can ever resolve is refused rather than
// queued for nobody: no path separator, "." or ".." (an agent type holding
// one is refused as hook input), no white space or control character (a
// quoting mistake: "a b" is not two agents), no comma (--to a,b is not two
// agents either: repeat --to).
func ValidName(flag, name string) error {
	if err := validLabel(flag, name); err != nil {
		return err
	}
	switch {
	case name == "." || name == ".." || strings.ContainsAny(name, `/\`):
		return draftErrorf("%s %q: an agent name is not a path (no /, \\, . or ..)", flag, name)
	case strings.ContainsRune(name, ','):
		return draftErrorf("%s %q: an agent name has no comma; repeat %s for several agents", flag, name, flag)
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return draftErrorf("%s %q: an agent name has no spaces or control characters; repeat %s for several agents", flag, name, flag)
	case !utf8.ValidString(name):
		return draftErrorf("%s %q: an agent name must be UTF-8", flag, name)
	}
	return nil
}

// validLabel checks the name of a sender that is no agent (a background
// job, a subagent's task): any one line, slashes included, since it is only
// shown.
func validLabel(flag, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return draftErrorf("%s: an agent name cannot be empty", flag)
	case name == "*":
		return draftErrorf("%s '*' is not an agent name: leave out --to to send to every agent", flag)
	case strings.ContainsAny(name, "\x00\n\r"):
		return draftErrorf("%s %q: an agent name cannot hold NUL or line breaks", flag, name)
	case len(name) > 200:
		return draftErrorf("%s: an agent name is at most 200 bytes", flag)
	}
	return nil
}

// checkText checks a message's text: not blank, and short enough to be
// delivered whole.
func checkText(text string) error {
	if strings.TrimSpace(text) == "" {
		return draftErrorf("the message is empty")
	}
	if n := protocol.UTF16Len(text); n > MaxText {
		return draftErrorf("the message is %d characters; at most %d fit whole in one hook output. Put the rest in a file and send its path", n, MaxText)
	}
	return nil
}

// defaultStrategy is how a source is shown unless send says otherwise:
// answers and results are system context beside the tool output, as
// MassGen's injection hooks do; a person's words and system notices are
// reminders of their own.
func defaultStrategy(source string) string {
	switch source {
	case Human, System:
		return UserMessage
	default:
		return ToolResult
	}
}
