// Package applypatch reads the patch format of Codex's apply_patch tool
// (which Copilot CLI also offers to GPT models) far enough to say which
// files a patch adds, updates, deletes and moves: the paths a guard must
// judge. It follows Codex's own parser (codex-rs/apply-patch/src/parser.rs,
// lenient mode) line for line in what it accepts and where one file
// operation ends and the next begins, so a patch never names a file to
// Codex that it hides from this package. It applies nothing.
//
// The grammar:
//
//	*** Begin Patch
//	*** Add File: PATH          then lines starting with "+"
//	*** Delete File: PATH
//	*** Update File: PATH
//	*** Move to: PATH           (optional, right after Update)
//	@@ [context]                then lines starting with " ", "+" or "-"
//	*** End of File             (optional, ends a chunk)
//	*** End Patch
//
// Markers may carry surrounding white space; the whole patch may be
// wrapped in a heredoc (<<EOF, <<'EOF' or <<"EOF" ... EOF).
package applypatch

import (
	"fmt"
	"strings"
	"unicode"
)

// Kind is what an operation does to its file.
type Kind int

const (
	Add Kind = iota + 1
	Update
	Delete
)

func (k Kind) String() string {
	switch k {
	case Add:
		return "add"
	case Update:
		return "update"
	case Delete:
		return "delete"
	}
	return "unknown"
}

// Op is one file operation of a patch. Paths are as written: relative to
// the directory the tool runs in, or absolute.
type Op struct {
	Kind Kind
	Path string
	// MoveTo is where an Update moves the file ("" when it stays); the
	// file at Path is then removed.
	MoveTo string
}

// Error says why a patch cannot be read, with its line (1 is the first
// line of the patch) when there is one.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch at line %d: %s", e.Line, e.Msg)
}

const (
	beginPatch   = "*** Begin Patch"
	endPatch     = "*** End Patch"
	addFile      = "*** Add File: "
	deleteFile   = "*** Delete File: "
	updateFile   = "*** Update File: "
	moveTo       = "*** Move to: "
	endOfFile    = "*** End of File"
	contextMark  = "@@ "
	emptyContext = "@@"
)

// Parse returns the file operations of patch, in order, or an *Error when
// Codex would refuse it.
func Parse(patch string) ([]Op, error) {
	lines := splitLines(strings.TrimFunc(patch, unicode.IsSpace))
	body, err := boundaries(lines)
	if err != nil {
		return nil, err
	}
	var ops []Op
	line := 2
	for len(body) > 0 {
		op, n, err := hunk(body, line)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
		body = body[n:]
		line += n
	}
	return ops, nil
}

// splitLines splits as Rust's str::lines does: on "\n", dropping one "\r"
// before it, with no empty last line after a final newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if i < len(lines)-1 || strings.HasSuffix(s, "\n") {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines
}

// boundaries checks the Begin and End markers and returns the lines
// between them; a heredoc around the patch is taken off first, when the
// patch does not stand alone.
func boundaries(lines []string) ([]string, error) {
	body, err := strictBoundaries(lines)
	if err == nil {
		return body, nil
	}
	if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
		strings.HasSuffix(lines[n-1], "EOF") {
		return strictBoundaries(lines[1 : n-1])
	}
	return nil, err
}

func strictBoundaries(lines []string) ([]string, error) {
	trim := func(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }
	switch {
	case len(lines) == 0:
		return nil, &Error{Msg: "the last line of the patch must be '" + endPatch + "'"}
	case trim(lines[0]) != beginPatch:
		return nil, &Error{Msg: "the first line of the patch must be '" + beginPatch + "'"}
	case trim(lines[len(lines)-1]) != endPatch:
		return nil, &Error{Msg: "the last line of the patch must be '" + endPatch + "'"}
	}
	return lines[1 : len(lines)-1], nil
}

// hunk reads the file operation at the start of lines (line is the
// number of lines[0]) and returns it with the number of lines it took.
func hunk(lines []string, line int) (Op, int, error) {
	header := strings.TrimFunc(lines[0], unicode.IsSpace)
	if path, ok := strings.CutPrefix(header, addFile); ok {
		n := 1
		for n < len(lines) && strings.HasPrefix(lines[n], "+") {
			n++
		}
		return Op{Kind: Add, Path: path}, n, nil
	}
	if path, ok := strings.CutPrefix(header, deleteFile); ok {
		return Op{Kind: Delete, Path: path}, 1, nil
	}
	path, ok := strings.CutPrefix(header, updateFile)
	if !ok {
		return Op{}, 0, &Error{Line: line, Msg: fmt.Sprintf("%q is not a valid hunk header: use '*** Add File: PATH', '*** Delete File: PATH' or '*** Update File: PATH'", header)}
	}
	op, n := Op{Kind: Update, Path: path}, 1
	if n < len(lines) {
		if to, moved := strings.CutPrefix(lines[n], moveTo); moved {
			op.MoveTo = to
			n++
		}
	}
	chunks := 0
	for n < len(lines) {
		if strings.TrimFunc(lines[n], unicode.IsSpace) == "" {
			n++ // blank lines between chunks
			continue
		}
		if strings.HasPrefix(lines[n], "*") {
			break // the next hunk
		}
		used, err := chunk(lines[n:], line+n, chunks == 0)
		if err != nil {
			return Op{}, 0, err
		}
		chunks++
		n += used
	}
	if chunks == 0 {
		return Op{}, 0, &Error{Line: line, Msg: fmt.Sprintf("the update of %q changes nothing", path)}
	}
	return op, n, nil
}

// chunk reads one change of an Update: an optional @@ line, then context,
// added and removed lines. first allows the @@ line to be left out.
func chunk(lines []string, line int, first bool) (int, error) {
	start := 0
	switch {
	case lines[0] == emptyContext, strings.HasPrefix(lines[0], contextMark):
		start = 1
	case !first:
		return 0, &Error{Line: line, Msg: fmt.Sprintf("expected a change to start with '@@', got %q", lines[0])}
	}
	if start >= len(lines) {
		return 0, &Error{Line: line + start, Msg: "a change holds no lines"}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == endOfFile {
			if n == 0 {
				return 0, &Error{Line: line + start, Msg: "a change holds no lines"}
			}
			n++
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			if n == 0 {
				return 0, &Error{Line: line + start, Msg: fmt.Sprintf("unexpected line %q in a change: each starts with ' ', '+' or '-'", l)}
			}
			break // the next hunk
		}
		n++
	}
	return start + n, nil
}
