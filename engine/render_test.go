package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRenderInjectionsShapes(t *testing.T) {
	sep := "═══════════════════════════════════════════════════════"
	tests := []struct {
		name string
		in   Injection
		want string
	}{
		{"tool_result", Injection{Content: "peer answer", Strategy: ToolResult},
			sep + "\nSYSTEM CONTEXT (not part of tool output):\npeer answer\n" + sep},
		{"user_message", Injection{Content: "task done", Strategy: UserMessage},
			"<system-reminder>\ntask done\n</system-reminder>"},
		{"context", Injection{Content: "  as written  ", Strategy: Context},
			"  as written  "},
		{"unknown strategy is verbatim", Injection{Content: "x", Strategy: "other"}, "x"},
		{"trailing newlines trimmed", Injection{Content: "line 1\nline 2\n\n\n", Strategy: ToolResult},
			sep + "\nSYSTEM CONTEXT (not part of tool output):\nline 1\nline 2\n" + sep},
		{"trailing newlines trimmed in user_message", Injection{Content: "a\n", Strategy: UserMessage},
			"<system-reminder>\na\n</system-reminder>"},
		{"trailing newlines trimmed in context", Injection{Content: "c\n\n", Strategy: Context}, "c"},
		{"leading newlines kept", Injection{Content: "\nc", Strategy: Context}, "\nc"},
		{"trailing spaces kept", Injection{Content: "c  \n", Strategy: Context}, "c  "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderInjections([]Injection{tt.in}, false); got != tt.want {
				t.Errorf("renderInjections(%+v) =\n%q\nwant\n%q", tt.in, got, tt.want)
			}
		})
	}
	if sep != separator {
		t.Errorf("separator is %q", separator)
	}
}

func TestRenderInjectionsOrderAndJoin(t *testing.T) {
	got := renderInjections([]Injection{
		{Content: "first\n", Strategy: UserMessage},
		{Content: "second", Strategy: ToolResult},
		{Content: "third", Strategy: Context},
		{Content: "fourth", Strategy: UserMessage},
	}, false)
	want := "<system-reminder>\nfirst\n</system-reminder>" +
		"\n\n" + separator + "\nSYSTEM CONTEXT (not part of tool output):\nsecond\n" + separator +
		"\n\nthird" +
		"\n\n<system-reminder>\nfourth\n</system-reminder>"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRenderInjectionsPlain: for a CLI that frames hook context itself
// (and escapes markup), user_message goes as its text alone, so it reads
// the same without "&lt;system-reminder>" around it; the separator block,
// which has no markup, stays.
func TestRenderInjectionsPlain(t *testing.T) {
	got := renderInjections([]Injection{
		{Content: "first\n", Strategy: UserMessage},
		{Content: "second", Strategy: ToolResult},
		{Content: "third", Strategy: Context},
	}, true)
	want := "first" +
		"\n\n" + separator + "\nSYSTEM CONTEXT (not part of tool output):\nsecond\n" + separator +
		"\n\nthird"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "<") {
		t.Errorf("plain context holds markup: %q", got)
	}
}

func TestRenderInjectionsEmpty(t *testing.T) {
	if got := renderInjections(nil, true); got != "" {
		t.Errorf("renderInjections(nil) = %q", got)
	}
	if got := renderInjections([]Injection{}, false); got != "" {
		t.Errorf("renderInjections([]) = %q", got)
	}
}

func TestQuoteList(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"a"}, `hook "a"`},
		{[]string{"a", "b"}, `hooks "a" and "b"`},
		{[]string{"a", "b", "c"}, `hooks "a", "b" and "c"`},
		{[]string{"a", "b", "c", "d"}, `hooks "a", "b", "c" and "d"`},
		{[]string{`say "hi"`}, `hook "say \"hi\""`},
		{[]string{"shell: echo x"}, `hook "shell: echo x"`},
	}
	for _, tt := range tests {
		if got := quoteList(tt.names); got != tt.want {
			t.Errorf("quoteList(%q) = %s, want %s", tt.names, got, tt.want)
		}
	}
}

func TestPreviewText(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven char", 10, "eleven cha…"},
		{"", 5, ""},
		{"  a \n\n b\t\tc  ", 10, "a b c"},
		{"line one\nline two\nline three", 12, "line one lin…"},
		// Runes, not bytes: nothing is cut in the middle of a character.
		{"héllo wörld", 5, "héllo…"},
		{"日本語のテキスト", 3, "日本語…"},
		{"日本語", 3, "日本語"},
		{"🙂🙂🙂🙂", 2, "🙂🙂…"},
		// Folding happens before counting.
		{"a    b", 3, "a b"},
		{"\n\n\n", 2, ""},
	}
	for _, tt := range tests {
		got := previewText(tt.s, tt.n)
		if got != tt.want {
			t.Errorf("previewText(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("previewText(%q, %d) = %q is not valid UTF-8", tt.s, tt.n, got)
		}
		if strings.ContainsAny(got, "\n\t") {
			t.Errorf("previewText(%q, %d) = %q is not one line", tt.s, tt.n, got)
		}
	}
	long := strings.Repeat("ä", 500)
	if got := previewText(long, 120); utf8.RuneCountInString(got) != 121 || !strings.HasSuffix(got, "…") {
		t.Errorf("previewText(500 runes, 120) has %d runes", utf8.RuneCountInString(got))
	}
}

func TestJoinLines(t *testing.T) {
	if got := joinLines([]string{"a", "b"}); got != "a\nb" {
		t.Errorf("joinLines = %q", got)
	}
	if got := joinLines(nil); got != "" {
		t.Errorf("joinLines(nil) = %q", got)
	}
}
