package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/install/wiring"
)

// generated are the repository files that show init's wiring: they are
// rendered by the same code, so they cannot drift from what init writes.
// MASSGEN_HOOK_UPDATE=1 rewrites them.
var generated = []struct {
	path     string
	skeleton any
	bin      string
}{
	{"settings.example.json", nil, `"$CLAUDE_PROJECT_DIR"/` + projectBinary},
	{"hooks/hooks.json", struct {
		Description string `json:"description"`
	}{"massgen-hook: scratchpad protocol, hook engine, guards and inbox for multi-agent sessions"},
		`"${CLAUDE_PLUGIN_ROOT}"/hooks/massgen-hook.sh`},
}

func TestGeneratedWiringFiles(t *testing.T) {
	for _, g := range generated {
		spec := targets.Get()["claude"].specFor(g.bin)
		spec.Skeleton = g.skeleton
		want, err := wiring.Install(&wiring.File{Path: g.path}, spec, targets.Get()["claude"].entries(g.bin, nil))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", g.path)
		if os.Getenv("MASSGEN_HOOK_UPDATE") == "1" {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not what init renders (MASSGEN_HOOK_UPDATE=1 go test ./cli -run Generated rewrites it):\n%s", g.path, want)
		}
	}
}
