package scratchpad

import (
	"fmt"
	"strconv"
	"strings"
)

// Reserved directories: the coordinator (the main thread) and the ego
// assessment. They never count as evidence of delegation.
const (
	CoordinatorDir = "coordinator"
	EgoDir         = "ego"
)

// maxNameLen keeps an encoded directory name under every filesystem's 255-byte limit.
const maxNameLen = 200

// NameError says an agent type cannot name a scratchpad directory.
type NameError struct{ Name, Msg string }

func (e *NameError) Error() string { return fmt.Sprintf("agent type %q %s", e.Name, e.Msg) }

// DirName maps an agent type to its scratchpad directory name. An empty type
// (real Claude Code sends "" on SubagentStop) is defaultAgent. Letters,
// digits, '-', '_' and '.' are kept; every other byte, and a leading '.', is
// written %XX (so plugin agents' "plugin:reviewer" is "plugin%3Areviewer").
// The mapping is one-to-one, and DisplayName undoes it. Names that try to
// leave the directory (a '/' or '\', ".", "..") or hold a NUL are errors,
// not mapped: they are attacks or bugs, never agent names.
func DirName(agentType, defaultAgent string) (string, error) {
	if agentType == "" {
		agentType = defaultAgent
	}
	switch {
	case agentType == "":
		return "", &NameError{Name: agentType, Msg: "is empty"}
	case agentType == "." || agentType == "..":
		return "", &NameError{Name: agentType, Msg: "is not a directory name"}
	case strings.ContainsAny(agentType, "/\\"):
		return "", &NameError{Name: agentType, Msg: "contains a path separator"}
	case strings.ContainsRune(agentType, 0):
		return "", &NameError{Name: agentType, Msg: "contains a NUL byte"}
	}
	var b strings.Builder
	for i := 0; i < len(agentType); i++ {
		c := agentType[i]
		if isPlain(c) && (c != '.' || i > 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	if b.Len() > maxNameLen {
		return "", &NameError{Name: agentType, Msg: fmt.Sprintf("is too long (over %d bytes as a directory name)", maxNameLen)}
	}
	return b.String(), nil
}

func isPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// DisplayName turns a directory name back into the agent type it stands for.
// Only DirName's own spelling is decoded: a name it would not have written
// ("a%2Fb", "%2e%2e", "%63oordinator", lower-case hex) is someone else's
// folder and is shown literally, so no folder on disk can pass for a path,
// for "..", or for another agent.
func DisplayName(dir string) string {
	if !strings.Contains(dir, "%") {
		return dir
	}
	var b strings.Builder
	for i := 0; i < len(dir); i++ {
		if dir[i] != '%' {
			b.WriteByte(dir[i])
			continue
		}
		if i+2 >= len(dir) {
			return dir
		}
		v, err := strconv.ParseUint(dir[i+1:i+3], 16, 8)
		if err != nil {
			return dir
		}
		b.WriteByte(byte(v))
		i += 2
	}
	name := b.String()
	if again, err := DirName(name, ""); err != nil || again != dir {
		return dir
	}
	return name
}

// IsReserved reports whether dir is the coordinator's or the ego's directory.
func IsReserved(dir string) bool { return dir == CoordinatorDir || dir == EgoDir }
