package guard

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/fixtures"
	"github.com/massgen/massgen-hook/state"
)

// FuzzGuardsReadOrDeny is a differential target against bash itself: for
// any command line that `bash -n` accepts, the default Bash guards either
// read it (shellcmd.Parse succeeds, and every shell code it lists as known
// was read into commands) or deny it; never let it through unread. Inputs
// bash rejects are skipped; without bash the target skips.
func FuzzGuardsReadOrDeny(f *testing.F) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("bash is not installed")
	}
	for _, seed := range []string{
		"find . -delete", "find ~ -delete", "find / -exec rm -rf {} +", `find . -exec env rm -rf {} \;`,
		"busybox find . -delete", "echo / | xargs rm -rf", "xargs -I{} bash -c 'rm -rf {}'", "xargs -a FILE rm -rf",
		"find . -print0 | xargs -0 rm -rf", "parallel rm -rf ::: /", "parallel ::: 'rm -rf /'", "echo / | parallel rm -rf",
		"parallel bash -c 'rm -rf {}' ::: /", "parallel -j2 --jobs=2 -q --eta --results out rm -rf {} ::: /",
		"sh <<'E'\nrm -rf /\nE", `bash <<< "rm -rf /"`, "bash -c \"$(cat <<EOF\nrm -rf /\nEOF\n)\"",
		"echo 'rm -rf /' | bash", "printf 'rm -rf /' | sh", "bash <(echo rm -rf /)", "source <(echo rm -rf /)",
		"echo 'rm -rf /' > x.sh && bash x.sh", "echo x > x.sh && chmod +x x.sh && ./x.sh", ". ./x.sh", "source x",
		`$CMD -rf /`, `"$(echo rm)" -rf /`, "${X:-rm} -rf /", "CMD=rm; $CMD -rf /", "X=1 cmd $X",
		"TMPDIR=/x rm -rf $TMPDIR/y", "alias x='rm -rf /'\nx", "f() { rm -rf \"$1\"; }; f /", "D=/; rm -rf $D",
		`tmp=$(mktemp -d) && cd "$tmp" && rm -rf "$tmp"`, `cd "$X" && rm -rf ../..`, "rm -rf `pwd`/escape",
		"$( cd ..; echo ok ) && rm -rf build", "env -C/tmp git reset --hard", "env -S 'rm -rf /'", `eval "$X"`,
		"python3 - <<'EOF'\nprint(1)\nEOF", `node -e "$JS"`, "for d in a b; do rm -rf $d; done",
	} {
		f.Add(seed)
	}
	for _, ev := range fixtures.Files(f, ".json") {
		var fields struct {
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		if json.Unmarshal(ev, &fields) == nil && fields.ToolInput.Command != "" {
			f.Add(fields.ToolInput.Command)
		}
	}
	project, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	g := &checktest.GuardEnv{Project: project, State: state.Open(f.TempDir()), Environ: []string{"HOME=" + checktest.TestHome}}
	d, err := NewDangerousCommands(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || strings.ContainsRune(src, 0) || !utf8.ValidString(src) {
			// bash cannot take NUL in a -c string, and a command arrives
			// as a JSON string, always valid UTF-8; keep runs short.
			return
		}
		if exec.Command(bash, "-n", "-c", src).Run() != nil {
			return // bash would not run it either
		}
		call := g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(src)})
		v, err := d.Check(context.Background(), call)
		if err != nil {
			t.Fatalf("%q: Check: %v", src, err)
		}
		s, perr := shellcmd.Parse(src, shellcmd.Options{Dir: g.Project, Home: checktest.TestHome, Env: map[string]string{"TMPDIR": ""}})
		if perr != nil {
			if v.Decision != engine.Deny {
				t.Fatalf("%q: not read (%v), yet not denied: %+v", src, perr, v)
			}
			return
		}
		for _, c := range s.Commands {
			if c.Code != nil && c.Code.Lang == "sh" && c.Code.Text.Known {
				t.Fatalf("%q: shell code listed as known but not read: %+v", src, c.Code)
			}
			if c.Code != nil && !c.Code.Text.Known && !generatedSetup(c.Code) && v.Decision != engine.Deny {
				t.Fatalf("%q: code only known at run time, yet not denied: %+v", src, v)
			}
		}
	})
}
