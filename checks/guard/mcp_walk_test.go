package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
)

// TestWalkStringArgs: the walk of an unknown tool's arguments takes each
// string that may name a file once, and says when the arguments go past
// its bounds.
func TestWalkStringArgs(t *testing.T) {
	deep := `"x"`
	for range walkDepth + 1 {
		deep = "[" + deep + "]"
	}
	strs, past := walkStringArgs(gjson.Parse(deep))
	if len(strs) != 0 || !past {
		t.Errorf("a string in %d lists: got %q past %v, want none, past", walkDepth+1, strs, past)
	}
	strs, past = walkStringArgs(gjson.Parse(deep[1 : len(deep)-1]))
	if len(strs) != 1 || past {
		t.Errorf("a string in %d lists: got %q past %v, want it", walkDepth, strs, past)
	}
	many := make([]string, walkStrings+1)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	data, _ := json.Marshal(map[string]any{"a": many})
	if strs, past = walkStringArgs(gjson.ParseBytes(data)); len(strs) != walkStrings || !past {
		t.Errorf("%d strings: got %d past %v", len(many), len(strs), past)
	}
	// The same string any number of times is one string to look at.
	same := make([]string, 3*walkStrings)
	for i := range same {
		same[i] = "notes.md"
	}
	data, _ = json.Marshal(map[string]any{"a": same})
	if strs, past = walkStringArgs(gjson.ParseBytes(data)); strings.Join(strs, ",") != "notes.md" || past {
		t.Errorf("%d copies of one string: got %d strings (%.20q) past %v", len(same), len(strs), strs, past)
	}
	for _, tc := range []struct{ in, want string }{
		// What is no path: a URL to elsewhere, more than a line, a
		// one-line text longer than any path even once its slashes are
		// squeezed (a file's content, a blob).
		{"https://x/.env", ""},
		{"git+ssh://x/.env", ""},
		{"./x://.env", "./x://.env"},
		{"a\n.env", ""},
		{strings.Repeat("a", walkLongest+1), ""},
		// What a server may make of a string before it opens it: a
		// file:// URL (any case, with a host of localhost, with escapes)
		// is its path; spaces around are trimmed; a C string ends at its
		// NUL; a path longer than PATH_MAX is what it cleans to.
		{"file:///p/.env", "file:///p/.env,/p/.env"},
		{"FILE://localhost/p/%2Eenv", "FILE://localhost/p/%2Eenv,localhost/p/%2Eenv,/p/.env"},
		{"file:/p/.env", "file:/p/.env,/p/.env"},
		{"file://.env", "file://.env,.env"},
		{"  .env\n", ".env"},
		{".env\x00.txt", ".env"},
		{strings.Repeat("/", walkLongest) + "p/.env", "/p/.env"},
		{strings.Repeat("./", walkLongest/2) + ".env", ".env"},
	} {
		data, _ := json.Marshal(map[string]any{"s": tc.in})
		strs, past := walkStringArgs(gjson.ParseBytes(data))
		if got := strings.Join(strs, ","); got != tc.want || past {
			t.Errorf("%.40q: got %q past %v, want %q", tc.in, got, past, tc.want)
		}
	}
}

// TestUnknownMCPTool: an MCP tool the table does not know is denied a
// protected path anywhere in its arguments, as a write when its name says
// it writes; a string outside the project is no write there.
func TestUnknownMCPTool(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	if err := os.WriteFile(filepath.Join(g.Project, ".env"), []byte("K=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProtected(t, "")
	for _, tc := range []struct{ tool, input, want string }{
		{"mcp__x__lookup", `{"q":{"files":["notes", ".env"]}}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__x__get_note", `{"from":".claude/settings.json"}`, ""},
		{"mcp__x__save_note", `{"to":".claude/settings.json"}`, protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"mcp__x__write_note", `{"to":".claude/settings.json"}`, protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"mcp__x__write_note", `{"to":"/etc/x"}`, ""},
		{"mcp__x__lookup", `{"q":"README.md"}`, ""},
		// A search term or a pattern that names no file here is no read.
		{"mcp__x__search", `{"q":"id_rsa","glob":"*.pem"}`, ""},
		// Another server's tool with a table tool's name, none of whose
		// arguments the row names: walked as an unknown tool.
		{"mcp__github__search_code", `{"q":"x","files":[".env"]}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__github__search_code", `{"q":"id_rsa"}`, ""},
		// What a server makes of a string before it opens it.
		{"mcp__x__lookup", `{"q":" .env "}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__x__lookup", `{"q":"file://` + g.Project + `/%2Eenv"}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__x__lookup", `{"q":"` + strings.Repeat("/", walkLongest) + strings.TrimPrefix(g.Project, "/") + `/.env"}`, protectedDenial(false, ".env", "**/.env")},
		// Not an MCP tool: the CLIs' own tools are judged by name only.
		{"TodoWrite", `{"todos":[{"content":".env"}]}`, ""},
	} {
		call := g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input})
		checkVerdict(t, p, call, tc.want)
	}
}

// TestUnknownMCPToolPastBounds: arguments the walk cannot look at whole
// are denied, not let through: before, .env as the 257th string, or nine
// levels down, went unchecked with a note.
func TestUnknownMCPToolPastBounds(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	if err := os.WriteFile(filepath.Join(g.Project, ".env"), []byte("K=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProtected(t, "")
	padded := make([]string, walkStrings+1)
	for i := range padded {
		padded[i] = fmt.Sprintf("pad%d", i)
	}
	padded = append(padded, ".env")
	input, _ := json.Marshal(map[string]any{"q": padded})
	deep := `".env"`
	for range walkDepth + 1 {
		deep = "[" + deep + "]"
	}
	for name, input := range map[string]string{"padded": string(input), "deep": `{"a":` + deep + `}`} {
		v, err := p.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "mcp__x__lookup", Input: input}))
		if err != nil || v.Decision != engine.Deny || !strings.Contains(v.Reason, "too large to check") ||
			!strings.Contains(v.SystemMessage, "mcp__x__lookup") {
			t.Errorf("%s: got %+v %v, want a denial", name, v, err)
		}
	}
	// Within the bounds, many strings that name nothing protected pass.
	input, _ = json.Marshal(map[string]any{"q": padded[:walkStrings]})
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "mcp__x__lookup", Input: string(input)}), "")
}
