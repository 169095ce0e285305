package doctor

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// loopGuardWord is the field a Stop or SubagentStop hook must read to let
// the agent go after it has already been sent back once (PROTOCOL §1,
// pitfall 3).
const loopGuardWord = "stop_hook_active"

// CheckLoopGuard checks a Stop or SubagentStop handler that is not
// massgen-hook: the script it runs (or the command line itself) must read
// stop_hook_active, or a handler that blocks makes the agent loop.
func CheckLoopGuard(event, src string, c Command) []Issue {
	if strings.Contains(src, loopGuardWord) {
		return nil
	}
	var texts []string
	unknown := ""
	for _, p := range c.Programs {
		file := p.Script
		if file == "" {
			file = p.Path
		}
		switch {
		case p.Builtin:
			continue
		case file == "":
			unknown = p.Word + " cannot be found"
			continue
		}
		data, err := readHead(file)
		switch {
		case err != nil:
			unknown = p.Word + " cannot be read"
		case bytes.IndexByte(data, 0) >= 0:
			// A binary may read the field in a way no text search finds.
			unknown = path.Base(file) + " is a binary, not a script"
		case bytes.Contains(data, []byte(loopGuardWord)):
			return nil
		default:
			texts = append(texts, file)
		}
	}
	if len(texts) > 0 && unknown == "" {
		return []Issue{problem(fmt.Sprintf("no loop guard: %s never reads %s, so a block sends the agent back to work and it stops and is blocked again, until Claude Code gives up; when %s is true, exit 0 without blocking",
			path.Base(texts[0]), loopGuardWord, loopGuardWord))}
	}
	if unknown != "" {
		return []Issue{note(fmt.Sprintf("cannot tell whether this %s hook has a loop guard (%s); make sure it does not block when %s is true", event, unknown, loopGuardWord))}
	}
	return nil
}

// readHead reads the start of a file, enough for any hook script. A FIFO
// or device there is refused, not waited on.
func readHead(file string) ([]byte, error) {
	f, _, err := hookfs.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}
