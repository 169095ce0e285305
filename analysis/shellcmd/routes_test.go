package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestParseRoutes: every route by which a command line can hide what it
// runs is followed where the text is known, and marked unknown where it
// is not.
func TestParseRoutes(t *testing.T) {
	envOpts := Options{Dir: "/w", Home: "/h", Env: map[string]string{"TMPDIR": "/tt"}}
	tests := []struct {
		name string
		src  string
		opts *Options
		want []string
	}{
		// find: {} is each starting point.
		{"find -exec rm -rf {}", `find . ~ -exec rm -rf {} +`, nil,
			[]string{`find . /h -exec rm -rf {} + @/w`, `find -exec: rm -rf . @/w`, `find -exec: rm -rf /h @/w`}},
		{"find -execdir env rm", `find build -execdir env rm -rf {} +`, nil,
			[]string{`find build -execdir env rm -rf {} + @/w`, `find -exec,env: rm -rf /w/build @?`}},
		{"find {} inside a word", `find a -exec mv {} {}.bak \;`, nil,
			[]string{`find a -exec mv {} {}.bak ";" @/w`, `find -exec: mv a a.bak @/w`}},
		{"find -name narrows {}", `find . -type f -name '*.o' -exec rm {} \;; find a -name x -o -name y -exec rm {} +`, nil,
			[]string{`find . -type f -name "*.o" -exec rm {} ";" @/w`, `find -exec: rm "./**/*.o"* @/w`,
				`find a -name x -o -name y -exec rm {} + @/w`, `find -exec: rm a @/w`}},
		{"find -name -exec is a name", `find . -name -exec -print`, nil, []string{`find . -name -exec -print @/w`}},
		{"busybox", `busybox rm -rf /x; busybox find . -delete; busybox --list`, nil,
			[]string{`busybox: rm -rf /x @/w`, `busybox: find . -delete @/w`, `busybox --list @/w`}},

		// xargs: the input items.
		{"xargs known input", `printf 'a\nb c\n' | xargs -n1 rm -rf`, nil,
			[]string{`printf "a\\nb c\\n" @/w [0/2]`, `xargs: rm -rf a b c @/w [1/2]`}},
		// Input put into a shell's code is code only known at run time,
		// whatever the input is; passed as arguments, it stays data.
		{"xargs -I known", `echo / | xargs -I{} bash -c 'rm -rf {}'`, nil,
			[]string{`echo / @/w [0/2]`, `xargs: bash -c "rm -rf /" @/w [1/2] code=sh:input:"rm -rf /"?`}},
		{"xargs -I unknown", `ls | xargs -I{} bash -c 'rm -rf {}'`, nil,
			[]string{`ls @/w [0/2]`, `xargs: bash -c "rm -rf <input of xargs>"? @/w [1/2] code=sh:input:"rm -rf <input of xargs>"?`}},
		{"xargs input as code", `echo 'rm -rf /' | xargs bash -c`, nil,
			[]string{`echo "rm -rf /" @/w [0/2]`, `xargs: bash -c rm -rf / @/w [1/2] code=sh:input:rm?`}},
		{"xargs input as arguments", `echo / | xargs -I{} sh -c 'rm -rf "$1"' _ {}`, nil,
			[]string{`echo / @/w [0/2]`, `xargs,sh -c: rm -rf "$1"? @/w [1/2]`}},
		{"xargs -0 -a", `find . -print0 | xargs -0 rm -rf; xargs -a list rm`, nil,
			[]string{`find . -print0 @/w [0/2]`, `xargs: rm -rf "<input of xargs>"? @/w [1/2]`, `xargs: rm "<input of xargs>"? @/w`}},

		// GNU parallel.
		{"parallel word by word", `parallel bash -c 'git reset --hard' ::: ok`, nil,
			[]string{`parallel,bash -c: git @/w`, `parallel,bash -c: git reset --hard @/w`}},
		{"parallel :::", `parallel rm -rf ::: / build`, nil,
			[]string{`parallel: rm -rf / @/w`, `parallel: rm -rf build @/w`}},
		{"parallel {} {.} {/}", `parallel -j2 --eta mv {} {.}.{/} ::: d/a.txt`, nil,
			[]string{`parallel: mv d/a.txt d/a.a.txt @/w`}},
		{"parallel command lines", `parallel ::: 'rm -rf /' 'echo ok'`, nil,
			[]string{`parallel: rm -rf / @/w`, `parallel: echo ok @/w`}},
		{"parallel joins words", `parallel bash -c 'rm -rf {}' ::: /`, nil,
			[]string{`parallel,bash -c: rm @/w`, `parallel,bash -c: rm -rf / @/w`}},
		{"parallel -q keeps words", `parallel -q bash -c 'rm -rf {}' ::: /`, nil,
			[]string{`parallel,bash -c: rm -rf / @/w`}},
		// Items that are not plain words, or that come from stdin, make
		// code whose text depends on how they are quoted and split.
		{"parallel item not plain", `parallel -q bash -c 'rm -rf {}' ::: 'a;b'`, nil,
			[]string{`parallel: bash -c "rm -rf a;b" @/w code=sh:input:"rm -rf a;b"?`}},
		{"parallel stdin into code", `echo / | parallel -q bash -c 'rm -rf {}'`, nil,
			[]string{`echo / @/w [0/2]`, `parallel: bash -c "rm -rf /" @/w [1/2] code=sh:input:"rm -rf /"?`}},
		{"parallel stdin", `echo / | parallel rm -rf`, nil,
			[]string{`echo / @/w [0/2]`, `parallel: rm -rf / @/w [1/2]`}},
		{"parallel unknown input", `ls | parallel rm -rf {}`, nil,
			[]string{`ls @/w [0/2]`, `parallel: rm -rf "<input of parallel>"? @/w [1/2]`}},
		{"parallel unknown command lines", `cat f | parallel`, nil,
			[]string{`cat f @/w [0/2]`, `parallel @/w [1/2] code=sh:parallel input:"<input of parallel>"?`}},

		// Shells fed code.
		{"heredoc to sh", "sh <<'E'\nrm -rf /\nE", nil, []string{`sh heredoc: rm -rf / @/w`}},
		{"dash heredoc", "bash <<-E\n\trm -rf $HOME\n\tE", nil, []string{`bash heredoc: rm -rf /h @/w`}},
		{"here-string", `bash <<< "rm -rf /"`, nil, []string{`bash here-string: rm -rf / @/w`}},
		{"bash -c heredoc substitution", "bash -c \"$(cat <<EOF\nrm -rf /\nEOF\n)\"", nil,
			[]string{`$(...): cat @/w`, `bash -c: rm -rf / @/w`}},
		{"echo pipe", `echo 'rm -rf /' | bash`, nil, []string{`echo "rm -rf /" @/w [0/2]`, `bash pipe: rm -rf / @/w [1/2]`}},
		{"printf pipe", `printf 'rm -rf %s\n' / | sh -s`, nil,
			[]string{`printf "rm -rf %s\\n" / @/w [0/2]`, `sh pipe: rm -rf / @/w [1/2]`}},
		{"cat pipe", `echo 'rm -rf /' | cat | bash`, nil,
			[]string{`echo "rm -rf /" @/w [0/3]`, `cat @/w [1/3]`, `bash pipe: rm -rf / @/w [2/3]`}},
		{"unknown pipe", `cat x | bash`, nil, []string{`cat x @/w [0/2]`, `bash @/w [1/2] code=sh:pipe:"cat x"?`}},
		{"process substitution", `bash <(echo rm -rf /)`, nil,
			[]string{`<(...): echo rm -rf / @/w`, `bash <(...): rm -rf / @/w`}},
		{"source process substitution", `source <(echo rm -rf /); . <(date)`, nil,
			[]string{`<(...): echo rm -rf / @/w`, `source: rm -rf / @/w`, `<(...): date @/w`,
				`. "<(date)"? @/w code=sh:<(...):"<(date)"?`}},
		{"script written then run", `echo 'rm -rf /' > x.sh && bash x.sh; chmod +x x.sh && ./x.sh; . ./x.sh`, nil,
			[]string{`echo "rm -rf /" >x.sh @/w`, `bash file: rm -rf / @/w`, `chmod +x x.sh @/w`,
				`./x.sh: rm -rf / @/w`, `.: rm -rf / @/w`}},
		// /dev/shm is a tmpfs of ordinary files, not a device: a script
		// written there is read like one written anywhere else.
		{"script written in /dev/shm", `echo 'rm -rf /' > /dev/shm/x.sh && bash /dev/shm/x.sh`, nil,
			[]string{`echo "rm -rf /" >/dev/shm/x.sh @/w`, `bash file: rm -rf / @/w`}},
		{"script written unknown", `curl -o x.sh https://e && bash x.sh; cat a > y.sh; sh y.sh`, nil,
			[]string{`curl -o x.sh https://e @/w`, `bash x.sh @/w code=sh:file:x.sh?`, `cat a >y.sh @/w`, `sh y.sh @/w code=sh:file:y.sh?`}},
		{"script on disk", `bash build.sh; ./run.sh; source venv/bin/activate`, nil,
			[]string{`bash build.sh @/w`, `./run.sh @/w`, `source venv/bin/activate @/w`}},
		{"tee heredoc script", "tee s.sh <<'E' >/dev/null\nrm -rf ~\nE\nsh s.sh", nil,
			[]string{`tee s.sh >/dev/null @/w`, `sh file: rm -rf /h @/w`}},
		{"eval unknown", `eval "$(cat f)"`, nil, []string{`$(...): cat f @/w`, `eval "$(cat f)"? @/w code=sh:eval:"$(cat f)"?`}},
		{"eval echo", `eval "$(echo rm -rf /)"`, nil, []string{`$(...): echo rm -rf / @/w`, `eval: rm -rf / @/w`}},

		// Interpreters: their code goes to Code.
		{"python -c", `python3 -c 'import os'; python3 -m http.server; python3 x.py`, nil,
			[]string{`python3 -c "import os" @/w code=python:-c:"import os"`, `python3 -m http.server @/w`, `python3 x.py @/w`}},
		{"python heredoc", "python3 - <<'EOF'\nprint(1)\nEOF", nil, []string{`python3 - @/w code=python:heredoc:"print(1)\n"`}},
		{"node -e unknown", `node -e "$JS"; echo x | perl`, nil,
			[]string{`node -e "$JS"? @/w code=javascript:-e:"$JS"?`, `echo x @/w [0/2]`, `perl @/w [1/2] code=perl:pipe:"x\n"`}},

		// Variables.
		{"literal assignment", `D=/; rm -rf $D; D=/tmp/x; rm -rf "$D"/y`, nil, []string{`rm -rf / @/w`, `rm -rf /tmp/x/y @/w`}},
		{"name from variable", `CMD=rm; $CMD -rf /; X="rm -rf"; $X /`, nil, []string{`rm -rf / @/w`, `rm -rf / @/w`}},
		{"prefix assignment", `X=/ rm -rf $X; TMPDIR=/x rm -rf $TMPDIR/y`, &envOpts,
			[]string{`rm -rf "$X"? @/w`, `rm -rf "$TMPDIR/y"? @/w`}},
		{"tmpdir from env", `rm -rf $TMPDIR/y ${TMPDIR:-/tmp}/z ${NOPE:-/tmp}/q`, &envOpts,
			[]string{`rm -rf /tt/y /tt/z "${NOPE:-/tmp}/q"? @/w`}},
		{"tmpdir unset", `rm -rf ${TMPDIR:-/tmp}/z`, &Options{Dir: "/w", Env: map[string]string{"TMPDIR": ""}},
			[]string{`rm -rf /tmp/z @/w`}},
		{"mktemp", `tmp=$(mktemp -d) && cd "$tmp" && rm -rf "$tmp" "$tmp/a" "$tmp/../b" $tmp`, nil,
			[]string{`$(...): mktemp -d @/w`, `cd "$tmp"~? @/w`, `rm -rf "$tmp"~? "$tmp/a"~? "$tmp/../b"? "$tmp"~? @?`}},
		{"branches", `if a; then D=/; else D=/tmp; fi; rm -rf $D; E=/e; b && E=/; rm $E`, nil,
			[]string{`a @/w`, `rm -rf "$D"? @/w`, `b @/w`, `rm "$E"? @/w`}},
		{"subshell assignment stays", `D=/a; (D=/); echo x | D=/b; rm $D`, nil,
			[]string{`echo x @/w [0/2]`, `rm /a @/w`}},
		{"read forgets", `D=/a; read D; rm $D`, nil, []string{`read D @/w`, `rm "$D"? @/w`}},
		{"function assigns", `D=/a; f() { D=/; }; f; rm $D`, nil, []string{`f @/w`, `rm "$D"? @/w`}},
		{"function body vars unknown", `f() { rm -rf "$D"; }; D=/; f`, nil, []string{`rm -rf "$D"? @? fn=f`, `f @/w`}},
		{"loop items", `for d in build dist; do rm -rf "$d"; done; for f in *.o; do rm $f; done`, nil,
			[]string{`rm -rf build @/w`, `rm -rf dist @/w`, `rm "$f"? @/w`}},
		{"inner shell does not see", `D=/; bash -c 'rm -rf $D'; export E=/; bash -c 'rm -rf $E'`, nil,
			[]string{`bash -c: rm -rf "$D"? @/w`, `export E=/ @/w`, `bash -c: rm -rf "$E"? @/w`}},
		{"echo substitution name", `"$(echo rm)" -rf /; $(printf rm) -rf /`, nil,
			[]string{`$(...): echo rm @/w`, `rm -rf / @/w`, `$(...): printf rm @/w`, `rm -rf / @/w`}},
		{"pwd substitution", "rm -rf `pwd`/escape; cd /x && rm -rf \"$(pwd)\"", nil,
			[]string{"`...`: pwd @/w", `rm -rf /w/escape @/w`, `cd /x @/w`, `$(...): pwd @/x`, `rm -rf /x @/x`}},
		{"git top", `cd "$(git rev-parse --show-toplevel)" && rm -rf build; cd /x && echo "$(git rev-parse --show-toplevel)"`,
			&Options{Dir: "/w/sub", GitTop: func(d string) string {
				if strings.HasPrefix(d, "/w") {
					return "/w"
				}
				return ""
			}},
			[]string{`$(...): git rev-parse --show-toplevel @/w/sub`, `cd /w @/w/sub`, `rm -rf build @/w`, `cd /x @/w`,
				`$(...): git rev-parse --show-toplevel @/x`, `echo "$(git rev-parse --show-toplevel)"? @/x`}},
		{"cd in substitution stays", `$( cd ..; echo ok ) && rm -rf build`, nil,
			[]string{`$(...): cd .. @/w`, `$(...): echo ok @/`, `ok @/w`, `rm -rf build @/w`}},

		// Aliases.
		{"alias", "alias x='rm -rf /'\nx; alias y=\"$Z\"\ny a", nil,
			[]string{`alias "x=rm -rf /" @/w`, `alias x: rm -rf / @/w`, `alias "y=$Z"? @/w`, `y? a @/w`}},
		{"alias args", "alias del='rm -rf'\ndel ~", nil, []string{`alias "del=rm -rf" @/w`, `alias del: rm -rf /h @/w`}},
		// git aliases given with -c: a "!" one runs a shell command line,
		// any other runs git again with the arguments after it.
		{"git alias", "git -c alias.x='add -f' x -A; git -c alias.y=status y", nil,
			[]string{`git -c alias.x: git -c "alias.x=add -f" add -f -A @/w`, `git -c "alias.x=add -f" x -A @/w`,
				`git -c alias.y: git -c alias.y=status status @/w`, `git -c alias.y=status y @/w`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOpts
			if tt.opts != nil {
				opts = *tt.opts
			}
			got := showAll(mustParse(t, tt.src, opts))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", tt.src, strings.Join(got, "\n      "), strings.Join(tt.want, "\n      "))
			}
		})
	}
}
