package inbox

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// MassGen hands a running agent CLI text through a file in the agent's
// workspace, which its own readers also consume: Codex's MCP middleware
// (any MCP tool call) and Gemini CLI's hook script take it at a tool call;
// at the end of a round MassGen reads what is left, counts a file still
// there as not delivered and carries its content into the next round, and
// counts a missing file as delivered; at a turn's start it removes it.
//
// So massgen-hook leaves the file where it is while it delivers it, and
// removes it only once the whole payload went out in hook answers: removing
// it is how MassGen learns it was delivered. A payload longer than one hook
// answer can carry goes out in numbered parts, one per tool call; if the
// round ends first, MassGen carries the whole payload forward (the agent
// sees the parts it had again: nothing is lost). A payload already expired
// is left to MassGen, whose readers drop it or carry it forward.

// MassGenFile is one kind of MassGen injection file.
type MassGenFile struct {
	// Path is where MassGen writes it, relative to the agent's workspace.
	Path string
	// Gemini marks Gemini CLI's file, whose payload names the hook event
	// that takes it (event: AfterTool, the default, or BeforeTool).
	Gemini bool
}

// MassGen's injection files: its Codex backend's (read by its MCP
// middleware) and its Gemini CLI backend's (read by its hook script).
var (
	CodexPayload  = MassGenFile{Path: CodexFile}
	GeminiPayload = MassGenFile{Path: GeminiFile, Gemini: true}
)

// CodexFile and GeminiFile are MassGen's injection files, relative to the
// agent's workspace.
const (
	CodexFile  = ".codex/hook_post_tool_use.json"
	GeminiFile = ".gemini/hook_payload.json"
)

// massgenPayload is the files' schema.
type massgenPayload struct {
	Inject *struct {
		Content  string `json:"content"`
		Strategy string `json:"strategy"`
	} `json:"inject"`
	Event       string   `json:"event"`
	ToolMatcher string   `json:"tool_matcher"`
	ExpiresAt   *float64 `json:"expires_at"`
	Sequence    *int64   `json:"sequence"`
}

// massgenRecord is a session's progress through the payloads of each file
// (by its absolute path).
type massgenRecord struct {
	Files map[string]*payloadProgress `json:"files"`
}

// payloadProgress is how far a file's current payload went out.
type payloadProgress struct {
	// Hash identifies the payload (its bytes): a new one starts over.
	Hash string `json:"hash"`
	// Parts is its number of parts; Next the first one not delivered.
	Parts int `json:"parts"`
	Next  int `json:"next"`
	// ClaimedAt is set while a hook hands part Next over, so parallel
	// tool calls never deliver one part twice; a claim older than
	// claimTimeout is a hook that died, and is taken over.
	ClaimedAt *time.Time `json:"claimed_at,omitempty"`
	// LastSequence is the sequence of the last payload delivered whole:
	// one not above it is a duplicate (MassGen's middleware drops those).
	LastSequence *int64 `json:"last_sequence,omitempty"`
}

// claimTimeout outlasts any hook run (Claude Code's limit is 600 s).
const claimTimeout = 15 * time.Minute

// massgenRecordName is the session record of massgenRecord.
const massgenRecordName = "massgen-payload"

// maxPayloadBytes bounds an injection file.
const maxPayloadBytes = 4 << 20

// PayloadPart is the part of a MassGen payload a hook's answer carries.
// Settle must be called with whether the answer went out.
type PayloadPart struct {
	Text     string
	Strategy string
	settle   func(answered bool)
}

// Settle records the part as delivered when answered, and removes the file
// once its last part is (MassGen's "delivered"); otherwise it releases the
// part for the next call.
func (p *PayloadPart) Settle(answered bool) {
	if p != nil && p.settle != nil {
		p.settle(answered)
		p.settle = nil
	}
}

// TakeMassGen returns the part of the payload in file f of workspace dir
// that this call of tool delivers in session, or nil: no file, a
// tool_matcher that misses tool, a Gemini payload for another event, an
// expired payload (left to MassGen), a next part over room (UTF-16 units
// left in the answer: it waits for the next call), a part another hook is
// handing over, or a payload delivered whole whose file is being removed.
// A file that does not parse is left in place, with an error.
func (ib *Inbox) TakeMassGen(dir string, f MassGenFile, tool, session string, now time.Time, room int) (*PayloadPart, error) {
	if ib.State.ReadOnly {
		return nil, nil
	}
	path := filepath.Join(dir, f.Path)
	data, err := hookfs.ReadFile(path, maxPayloadBytes)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	p, err := parsePayload(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v; left in place", path, err)
	}
	if f.Gemini && p.Event != "" && p.Event != "AfterTool" || !p.matches(tool) || p.expired(now) {
		return nil, nil
	}
	h := fnv.New128a()
	h.Write(data)
	hash := hex.EncodeToString(h.Sum(nil))
	parts := splitText(p.Inject.Content, MaxText-40)

	var rec massgenRecord
	part, duplicate, done := -1, false, false
	var last int64
	err = ib.State.UpdateSession(session, massgenRecordName, &rec, func() (bool, error) {
		if rec.Files == nil {
			rec.Files = map[string]*payloadProgress{}
		}
		pr := rec.Files[path]
		if pr == nil {
			pr = &payloadProgress{}
			rec.Files[path] = pr
		}
		if pr.Hash != hash {
			if p.Sequence != nil && pr.LastSequence != nil && *p.Sequence <= *pr.LastSequence {
				duplicate, last = true, *pr.LastSequence
				return false, nil
			}
			pr.Hash, pr.Parts, pr.Next, pr.ClaimedAt = hash, len(parts), 0, nil
		}
		switch {
		case pr.Next >= pr.Parts:
			done = true // delivered whole; its removal failed or is racing
			return false, nil
		case pr.ClaimedAt != nil && now.Sub(*pr.ClaimedAt) < claimTimeout && !now.Before(*pr.ClaimedAt):
			return false, nil
		case protocol.UTF16Len(partText(parts, pr.Next)) > room:
			return false, nil
		}
		at := now.UTC()
		pr.ClaimedAt, part = &at, pr.Next
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case duplicate:
		// As MassGen's middleware does: a payload numbered at or below
		// the last one delivered is a duplicate, dropped.
		ib.note("%s: dropped sequence %d, not above the last one delivered (%d): a duplicate", path, *p.Sequence, last)
		ib.removeIfSame(path, data)
		return nil, nil
	case done:
		ib.removeIfSame(path, data)
		return nil, nil
	case part < 0:
		return nil, nil
	}
	text := partText(parts, part)
	strategy := p.Inject.Strategy
	if strategy == "" {
		strategy = ToolResult
	}
	settle := func(answered bool) {
		remove := false
		var rec massgenRecord
		err := ib.State.UpdateSession(session, massgenRecordName, &rec, func() (bool, error) {
			pr := rec.Files[path]
			if pr == nil || pr.Hash != hash || pr.Next != part {
				return false, nil
			}
			pr.ClaimedAt = nil
			if answered {
				pr.Next++
				if pr.Next == pr.Parts {
					remove = true
					if p.Sequence != nil {
						pr.LastSequence = p.Sequence
					}
				}
			}
			return true, nil
		})
		if err != nil {
			ib.note("%s: could not record part %d of %d as delivered (%v): it may come again", path, part+1, len(parts), err)
			return
		}
		if remove {
			ib.removeIfSame(path, data)
		}
	}
	return &PayloadPart{Text: text, Strategy: strategy, settle: settle}, nil
}

// partText is part i of parts as delivered: numbered when there are
// several.
func partText(parts []string, i int) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return fmt.Sprintf("[part %d of %d]\n%s", i+1, len(parts), parts[i])
}

// removeIfSame removes the file at path if it still holds data: it is
// claimed by a rename first, so a payload MassGen wrote meanwhile is put
// back (never over a newer one), and kept beside it, named in a note, if
// even that cannot be done.
func (ib *Inbox) removeIfSame(path string, data []byte) {
	claimed := fmt.Sprintf("%s.massgen-hook-%08x", path, rand.Uint32())
	if err := os.Rename(path, claimed); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			ib.note("%s: delivered, but could not be removed (%v): MassGen will carry it into the next round", path, err)
		}
		return
	}
	got, err := hookfs.ReadOwnFile(claimed, maxPayloadBytes)
	if err == nil && bytes.Equal(got, data) {
		if err := os.Remove(claimed); err != nil {
			ib.note("%s: delivered; its copy %s could not be removed: %v", path, claimed, err)
		}
		return
	}
	// MassGen wrote a new payload between the read and the rename.
	if err := os.Link(claimed, path); err != nil {
		ib.note("%s: a new payload arrived while the last one was removed, and could not be put back (%v): it is kept as %s", path, err, claimed)
		return
	}
	if err := os.Remove(claimed); err != nil {
		ib.note("%s: put back; its copy %s could not be removed: %v", path, claimed, err)
	}
}

func parsePayload(data []byte) (*massgenPayload, error) {
	var p massgenPayload
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
func (p *massgenPayload) matcher() string {
	if p.ToolMatcher == "*" {
		return ""
	}
	return p.ToolMatcher
}

func (p *massgenPayload) matches(tool string) bool {
	m := Message{Matcher: p.matcher()}
	return m.Matches(tool)
}

func (p *massgenPayload) expired(now time.Time) bool {
	if p.ExpiresAt == nil {
		return false
	}
	sec, frac := math.Modf(*p.ExpiresAt)
	return now.After(time.Unix(int64(sec), int64(frac*1e9)))
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
