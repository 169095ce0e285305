package engine

import "testing"

// A handler's stderr reaches the user in a one-line warning: whatever it
// holds, the clue is one line of printable text.
func TestStderrClueIsOnePrintableLine(t *testing.T) {
	tests := []struct{ name, stderr, want string }{
		{"empty", "", ""},
		{"blank", " \n\t\r\n", ""},
		{"first line", "database is down\nretry later\n", ": database is down"},
		{"CRLF line ends", "database is down\r\nretry later\r\n", ": database is down"},
		{"ends in CR", "database is down\r", ": database is down"},
		{"CR inside a line", "50%\r100% done\n", ": 50%"},
		{"leading CR", "\rboom", ": boom"},
		{"escape sequences", "\x1b[31merror\x1b[0m: bad", ": [31merror[0m: bad"},
		{"tabs and runs of spaces", "a\t\tb   c", ": a b c"},
		{"other control characters", "a\x00b\x07c\x7fd", ": abcd"},
		{"invalid UTF-8", "bad \xff byte", ": bad \uFFFD byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stderrClue([]byte(tt.stderr)); got != tt.want {
				t.Errorf("stderrClue(%q) = %q, want %q", tt.stderr, got, tt.want)
			}
		})
	}
}

// The clue is cut at 200 characters, never inside one.
func TestStderrClueCutsWholeCharacters(t *testing.T) {
	long := ""
	for range 150 {
		long += "é"
	}
	long += long
	got := stderrClue([]byte(long))
	want := ": " + string([]rune(long)[:200]) + "…"
	if got != want {
		t.Errorf("stderrClue of 300 é = %q, want %q", got, want)
	}
}
