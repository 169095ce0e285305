// Package wiring reads and edits the files that wire hooks into an agent
// CLI: Claude Code's settings.json, and the Claude-like files of Gemini CLI,
// Codex and Cursor. A file is kept as its exact bytes and edited by splicing
// text at positions gjson reports, so everything an edit does not touch
// (other tools' hooks, other keys, the user's formatting) stays byte for byte.
package wiring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// File is one wiring file as read.
type File struct {
	Path string
	// Data is the file's content; nil when it does not exist.
	Data   []byte
	Exists bool
	// Mode is the file's permission bits, kept when it is rewritten.
	Mode fs.FileMode
}

// SyntaxError is invalid JSON, placed by line and column (1-based; the
// column counts characters, as an editor shows it).
type SyntaxError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: invalid JSON: %s", e.Path, e.Line, e.Col, e.Msg)
}

// ShapeError is valid JSON that is not what the file must hold, such as a
// top level that is not an object or a "hooks" that is a list.
type ShapeError struct {
	Path, Field string
	Line        int
	Msg         string
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("%s:%d: %s %s", e.Path, e.Line, e.Field, e.Msg)
}

// MaxFileBytes bounds a settings file init reads: a FIFO or a giant in
// its place is an error, not a hang.
const MaxFileBytes = 16 << 20

// Read reads path. A missing file is an empty, not-existing File; invalid
// JSON is a *SyntaxError and a top level that is not an object a
// *ShapeError, so nobody edits a file they cannot read.
func Read(path string) (*File, error) {
	data, err := hookfs.ReadFile(path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path, Mode: 0o644}, nil
	}
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	return Parse(path, data, mode)
}

// Parse checks data as the content of path.
func Parse(path string, data []byte, mode fs.FileMode) (*File, error) {
	f := &File{Path: path, Data: data, Exists: true, Mode: mode}
	body := bytes.TrimSpace(data)
	if len(body) == 0 {
		return f, nil // an empty file reads as {} (Claude Code agrees)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := lineCol(data, int(syn.Offset))
			return nil, &SyntaxError{Path: path, Line: line, Col: col, Msg: syn.Error()}
		}
		return nil, &SyntaxError{Path: path, Line: 1, Col: 1, Msg: err.Error()}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &ShapeError{Path: path, Field: "the top level", Line: 1, Msg: "must be a JSON object"}
	}
	return f, nil
}

// lineCol turns a byte offset into a 1-based line and column. encoding/json
// reports the offset after the byte that broke the parse, so the column is
// that byte's.
func lineCol(data []byte, offset int) (int, int) {
	offset = min(max(offset, 1), len(data))
	before := data[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// root returns the parsed top-level object with its exact extent: gjson's
// Parse takes the rest of the input as the top level's Raw and leaves its
// Index at 0, which is wrong around whitespace.
func root(data []byte) gjson.Result {
	r := gjson.ParseBytes(data)
	r.Raw = strings.TrimRight(r.Raw, " \t\r\n")
	r.Index = bytes.Index(data, []byte(r.Raw))
	return r
}

// LineOf is the 1-based line of byte offset in data.
func LineOf(data []byte, offset int) int {
	return bytes.Count(data[:min(max(offset, 0), len(data))], []byte("\n")) + 1
}
