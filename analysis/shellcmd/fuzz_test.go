package shellcmd

import (
	"encoding/json"
	"errors"
	"path"
	"slices"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"
)

// benchSrc is a typical agent command line, about 200 characters.
const benchSrc = `cd /Users/dalton/projects/teamwork && git add -A && git commit -m "Fix: validate task fields before saving (#388)" && npm test 2>&1 | grep -E "Test Files|failed" | head -20 > /tmp/test-output.txt`

func BenchmarkParse(b *testing.B) {
	opts := Options{Dir: "/Users/dalton/projects", Home: "/Users/dalton"}
	b.ReportAllocs()
	b.SetBytes(int64(len(benchSrc)))
	for b.Loop() {
		s, err := Parse(benchSrc, opts)
		if err != nil || len(s.Commands) != 6 {
			b.Fatal(s, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		benchSrc,
		log3,
		nest("rm -rf /", maxDepth+1),
		`:(){ :|:& };:`,
		`FOO=1 sudo -u root env BAR=2 rm -rf /tmp/x`,
		`echo / | xargs rm -rf`,
		`curl x | sudo bash`,
		`bash <(curl x)`,
		`sh -c "$(curl -fsSL https://x)"`,
		`env -S 'rm -rf /x' -C /t; env -S"-S '-S x'"`,
		`find / -execdir sh -c 'rm "$1"' _ {} + -ok cat {} ';' > out -delete`,
		`eval "cd /e && rm *"; su - u -c 'fish -c "rm x"'; zsh -c 'echo ${(f)x}'`,
		`cd ~/x || exit; for f in *; do cd $f; done; if a; then cd /b; fi; pushd /c`,
		`cat <<EOF > out` + "\n$(whoami) `id`\nEOF\n" + `cat <<'Q'` + "\n$(no)\nQ",
		`cmd >a >>b >|c &>d &>>e <f <>g >&h 2>&1 >&- 3<&0 4>&5- <<<x {fd}>i`,
		`echo $'\x41\u00e9\101\c' "a\$b" ~root a=~/b:~ ${x:-$(y)} ${z/$(a)/b} $((1+$(c)))`,
		`coproc N { rm x; }; time -p a | b; [[ $(a) ]]; (( $(b) )); let c=$(d); declare -a e=($(f))`,
		`sed -i '' s/a/b/ f; perl -lane -i.bak p f; dd of=/x if=/y; curl -o- -d -o x; chmod -x --reference f`,
		`xargs -I{} -i -e -l sh -c 'rm {}'; timeout -k; chrt 5; ionice -p; sudo -D; command -v`,
	} {
		f.Add(seed)
	}
	// The fixtures' Bash command lines (tool_input.command of their
	// events, also Copilot's toolArgs.command), and their shell scripts.
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
	for _, sh := range fixtures.Files(f, ".sh") {
		f.Add(string(sh))
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, opts := range []Options{{}, testOpts} {
			s, err := Parse(src, opts)
			if errors.Is(err, errInternal) {
				t.Fatalf("Parse(%q): %v", src, err)
			}
			if err != nil {
				if s != nil {
					t.Fatalf("Parse(%q) returned a Script with error %v", src, err)
				}
				continue
			}
			// The guards' verdicts must not depend on the run.
			if again, err := Parse(src, opts); err != nil || !slices.Equal(showAll(s), showAll(again)) {
				t.Fatalf("Parse(%q) is not deterministic:\n%q\n%q (%v)", src, showAll(s), showAll(again), err)
			}
			stages := map[int]int{}
			listed := make(map[*Command]bool, len(s.Commands))
			for _, c := range s.Commands {
				listed[c] = true
			}
			for _, c := range s.Commands {
				if c.Stages < 1 || c.Stage < 0 || c.Stage >= c.Stages {
					t.Fatalf("Parse(%q): stage %d of %d in %s", src, c.Stage, c.Stages, show(c))
				}
				if n, ok := stages[c.Pipeline]; ok && n != c.Stages {
					t.Fatalf("Parse(%q): pipeline %d has %d and %d stages (%s)", src, c.Pipeline, n, c.Stages, show(c))
				}
				stages[c.Pipeline] = c.Stages
				// A known directory is absolute and clean: guards join
				// paths to it.
				if c.Dir != "" && (!path.IsAbs(c.Dir) || path.Clean(c.Dir) != c.Dir) {
					t.Fatalf("Parse(%q, %+v): directory %q in %s", src, opts, c.Dir, show(c))
				}
				for _, a := range append(append([]Word{c.Name}, c.Args...), c.Writes()...) {
					_ = a.IsFlag()
					for _, in := range a.Inner {
						if !listed[in] {
							t.Fatalf("Parse(%q): Inner command %s not in Script.Commands", src, show(in))
						}
					}
				}
				_ = c.Reads()
				_ = c.Base()
			}
		}
	})
}
