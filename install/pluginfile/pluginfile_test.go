package pluginfile

import (
	"reflect"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/integrations"
)

const src = `// massgen-hook demo plugin: massgen-hook init wrote this file; massgen-hook uninstall removes it.
const BINARY = "@MASSGEN_HOOK_BINARY@";
  const SCOPE = "@MASSGEN_HOOK_SCOPE@"; // indented
const SUBCOMMANDS = ["@MASSGEN_HOOK_SUBCOMMANDS@"];
export default () => {};
`

func TestRenderThenRead(t *testing.T) {
	for _, w := range []Wiring{
		{Binary: ".claude/hooks/massgen-hook", Scope: "project", Subcommands: []string{"pre-tool-use", "stop"}},
		{Binary: `/opt/it's "here"/massgen-hook`, Scope: "user", Subcommands: []string{}},
	} {
		out, err := Render("demo", []byte(src), w)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "@MASSGEN_HOOK_") {
			t.Errorf("a placeholder is left in:\n%s", out)
		}
		got, ok := Read("demo", []byte(src), out)
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("Read(Render(%+v)) = %+v, %v", w, got, ok)
		}
	}
}

func TestRenderRefusesABrokenSource(t *testing.T) {
	for name, s := range map[string]string{
		"no marker":          strings.SplitN(src, "\n", 2)[1],
		"another CLI's":      strings.Replace(src, "demo plugin", "other plugin", 1),
		"placeholder twice":  src + `const AGAIN = "@MASSGEN_HOOK_SCOPE@";` + "\n",
		"placeholder absent": strings.Replace(src, `["@MASSGEN_HOOK_SUBCOMMANDS@"]`, "[]", 1),
	} {
		if _, err := Render("demo", []byte(s), Wiring{Binary: "b", Scope: "project"}); err == nil {
			t.Errorf("%s: rendered without an error", name)
		}
	}
}

func TestReadTellsOtherFilesApart(t *testing.T) {
	rendered, err := Render("demo", []byte(src), Wiring{Binary: "b", Scope: "project", Subcommands: []string{"stop"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"someone else's plugin": "export const Mine = async () => ({})\n",
		"marker not first":      "\n" + string(rendered),
		"values rewritten":      strings.Replace(string(rendered), `const BINARY = "b"`, `const BINARY = process.env.X`, 1),
		"anchor gone":           strings.Replace(string(rendered), "const SUBCOMMANDS = ", "let subs = ", 1),
	} {
		if w, ok := Read("demo", []byte(src), []byte(data)); ok {
			t.Errorf("%s: read as ours: %+v", name, w)
		}
	}
}

// TestShippedSources renders and reads back each plugin massgen-hook
// ships: a placeholder lost in an edit of a source fails here, not in a
// user's init.
func TestShippedSources(t *testing.T) {
	for _, cli := range []string{"opencode", "pi"} {
		src, ok := integrations.Plugin(cli)
		if !ok {
			t.Fatalf("no plugin shipped for %s", cli)
		}
		w := Wiring{Binary: ".claude/hooks/massgen-hook", Scope: "project", Subcommands: []string{"pre-tool-use"}}
		out, err := Render(cli, src, w)
		if err != nil {
			t.Fatalf("%s: %v", cli, err)
		}
		if got, ok := Read(cli, src, out); !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("%s: read back %+v, %v", cli, got, ok)
		}
	}
	if _, ok := integrations.Plugin("claude"); ok {
		t.Error("a plugin source for claude, which takes hooks from its settings")
	}
}
