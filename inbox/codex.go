package inbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/match"
	"github.com/massgen/massgen-hook/protocol"
)

// CodexFile is where MassGen's Codex backend leaves one injection for the
// next tool call (seed 001, "File-based IPC"), relative to the project.
const CodexFile = ".codex/hook_post_tool_use.json"

// codexPayload is that file's schema.
type codexPayload struct {
	Inject *struct {
		Content  string `json:"content"`
		Strategy string `json:"strategy"`
	} `json:"inject"`
	ToolMatcher string   `json:"tool_matcher"`
	ExpiresAt   *float64 `json:"expires_at"`
	Sequence    *int64   `json:"sequence"`
}

// codexRecord remembers the last sequence taken in a session, to drop
// stale payloads. Per session, like MassGen's middleware, which keeps it
// for its process's life: a new run numbers from 1 again.
type codexRecord struct {
	// LastSequence is nil until a payload with a sequence is taken, so a
	// first payload numbered 0 is new (MassGen's middleware starts at -1).
	LastSequence *int64 `json:"last_sequence"`
}

// maxCodexBytes bounds the Codex payload file: MassGen's text for one
// call, split into messages of MaxText.
const maxCodexBytes = 4 << 20

// ImportCodex takes over MassGen's Codex injection file for recipient
// after a call of tool, by the seed's rules: a payload whose tool_matcher
// misses the tool stays for a later call; one with a sequence not above
// the last one taken in this session is a duplicate and is dropped (noted); any other is
// consumed (the file removed) and queued for recipient like a sent message,
// so an expired one goes to the undelivered list instead of vanishing, and
// Take delivers a live one in this same call.
//
// The file is claimed by renaming it into the inbox, so two hooks never
// take one payload; what is queued is what the renamed file holds, even if
// MassGen replaced it between the read and the rename.
func (ib *Inbox) ImportCodex(project, recipient, tool, session string, now time.Time) error {
	if ib.State.ReadOnly {
		return nil
	}
	if err := ib.checkLinks(); err != nil {
		return err
	}
	path := filepath.Join(project, CodexFile)
	data, err := hookfs.ReadFile(path, maxCodexBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", CodexFile, err)
	}
	p, err := parseCodex(data)
	if err != nil {
		return fmt.Errorf("%s: %v; left in place", CodexFile, err)
	}
	if !p.matches(tool) {
		return nil
	}
	dir, err := ib.ensure("codex")
	if err != nil {
		return err
	}
	claimed := filepath.Join(dir, fmt.Sprintf("%d-%08x.json", now.UnixNano(), rand.Uint32()))
	if err := os.Rename(path, claimed); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // another hook took it
		}
		return fmt.Errorf("claiming %s: %w", CodexFile, err)
	}
	if data, err = hookfs.ReadOwnFile(claimed, maxCodexBytes); err == nil {
		p, err = parseCodex(data)
	}
	if err != nil {
		return fmt.Errorf("%s changed while it was taken and is unreadable (%v); kept as %s", CodexFile, err, claimed)
	}
	if err := ib.queueCodex(p, recipient, session, now); err != nil {
		return fmt.Errorf("%s: %w; kept as %s", CodexFile, err, claimed)
	}
	return os.Remove(claimed)
}

func parseCodex(data []byte) (*codexPayload, error) {
	var p codexPayload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	if p.Inject == nil || p.Inject.Content == "" {
		return nil, errors.New("no inject.content")
	}
	switch p.Inject.Strategy {
	case "", ToolResult, UserMessage:
	default:
		return nil, fmt.Errorf("inject.strategy %q", p.Inject.Strategy)
	}
	if p.ExpiresAt != nil && (math.IsNaN(*p.ExpiresAt) || math.IsInf(*p.ExpiresAt, 0)) {
		return nil, errors.New("expires_at is not a time")
	}
	if p.matcher() != "" {
		if _, err := match.Compile(p.matcher()); err != nil {
			return nil, fmt.Errorf("tool_matcher: %v", err)
		}
	}
	return &p, nil
}

// matcher is the payload's tool matcher; "*" and "" match every tool.
func (p *codexPayload) matcher() string {
	if p.ToolMatcher == "*" {
		return ""
	}
	return p.ToolMatcher
}

func (p *codexPayload) matches(tool string) bool {
	m := Message{Matcher: p.matcher()}
	return m.Matches(tool)
}

// queueCodex queues a claimed payload for recipient, unless its sequence
// is stale.
func (ib *Inbox) queueCodex(p *codexPayload, recipient, session string, now time.Time) error {
	if p.Sequence != nil {
		stale, last := false, int64(0)
		var rec codexRecord
		err := ib.State.UpdateSession(session, "codex-sequence", &rec, func() (bool, error) {
			if rec.LastSequence != nil && *p.Sequence <= *rec.LastSequence {
				stale, last = true, *rec.LastSequence
				return false, nil
			}
			rec.LastSequence = p.Sequence
			return true, nil
		})
		if err != nil {
			return err
		}
		if stale {
			ib.note("%s: dropped sequence %d, not above the last one taken (%d): a duplicate", CodexFile, *p.Sequence, last)
			return nil
		}
	}
	strategy := p.Inject.Strategy
	if strategy == "" {
		strategy = ToolResult
	}
	var expires *time.Time
	if p.ExpiresAt != nil {
		sec, frac := math.Modf(*p.ExpiresAt)
		at := time.Unix(int64(sec), int64(frac*1e9)).UTC()
		expires = &at
	}
	// MassGen's content has no length limit; a message must fit one hook
	// output whole, so a long one is queued as numbered parts, delivered
	// in order.
	parts := splitText(p.Inject.Content, MaxText-40)
	for i, text := range parts {
		if len(parts) > 1 {
			text = fmt.Sprintf("[part %d of %d]\n%s", i+1, len(parts), text)
		}
		m := &Message{ID: newID(now.Add(time.Duration(i)), rand.Uint32()), To: []string{recipient}, From: "massgen", Source: System,
			Strategy: strategy, Matcher: p.matcher(), Text: text, SentAt: now.UTC(), ExpiresAt: expires, CodexSequence: p.Sequence}
		if err := ib.queue(m, nil); err != nil {
			return err
		}
	}
	return nil
}

// splitText cuts text into pieces of at most max UTF-16 units, at a line
// break where there is one in the second half of a piece, never inside a
// character.
func splitText(text string, max int) []string {
	var parts []string
	for protocol.UTF16Len(text) > max {
		cut, units := 0, 0
		for i, r := range text {
			n := 1
			if r >= 0x10000 {
				n = 2
			}
			if units+n > max {
				break
			}
			units += n
			cut = i + utf8.RuneLen(r)
		}
		if nl := strings.LastIndexByte(text[:cut], '\n'); nl > cut/2 {
			cut = nl + 1
		}
		parts = append(parts, text[:cut])
		text = text[cut:]
	}
	return append(parts, text)
}
