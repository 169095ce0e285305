package shellcmd

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// testOpts is the shell most tests run in.
var testOpts = Options{Dir: "/w", Home: "/h"}

// show renders a command with everything the tests pin down:
//
//	wrapper,wrapper: name args... redirects @dir [stage/stages] & fn=name
//
// A word prints as its Value (quoted if it has spaces or special
// characters), then "?" if it is not Known and "*" if it is a Glob. Dir
// prints "?" when unknown; the stage part only for a real pipeline.
func show(c *Command) string {
	var b strings.Builder
	if len(c.Wrappers) > 0 {
		b.WriteString(strings.Join(c.Wrappers, ","))
		b.WriteString(": ")
	}
	b.WriteString(showWord(c.Name))
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(showWord(a))
	}
	for _, r := range c.Redirects {
		fmt.Fprintf(&b, " %s%s%s", r.Fd, r.Op, showWord(r.Target))
	}
	dir := c.Dir
	if dir == "" {
		dir = "?"
	}
	fmt.Fprintf(&b, " @%s", dir)
	if c.Stages != 1 || c.Stage != 0 {
		fmt.Fprintf(&b, " [%d/%d]", c.Stage, c.Stages)
	}
	if c.Background {
		b.WriteString(" &")
	}
	if c.Func != "" {
		fmt.Fprintf(&b, " fn=%s", c.Func)
	}
	if c.Code != nil {
		fmt.Fprintf(&b, " code=%s:%s:%s", c.Code.Lang, c.Code.From, showWord(c.Code.Text))
	}
	return b.String()
}

func showWord(w Word) string {
	s := w.Value
	if s == "" || strings.ContainsAny(s, " \t\n\"'\\?*@[]&|<>$`;~") {
		s = strconv.Quote(s)
	}
	if w.Temp {
		s += "~"
	}
	if !w.Known {
		s += "?"
	}
	if w.Glob {
		s += "*"
	}
	return s
}

func showWords(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = showWord(w)
	}
	return out
}

func showAll(s *Script) []string {
	out := make([]string, len(s.Commands))
	for i, c := range s.Commands {
		out[i] = show(c)
	}
	return out
}

func mustParse(t *testing.T, src string, opts Options) *Script {
	t.Helper()
	s, err := Parse(src, opts)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return s
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		opts *Options // testOpts when nil
		want []string
	}{
		// Quoting: what is data stays data.
		{"echo quoted", `echo "rm -rf /"`, nil, []string{`echo "rm -rf /" @/w`}},
		{"commit message", `git commit -m "rm -rf /"`, nil, []string{`git commit -m "rm -rf /" @/w`}},
		{"bash -c runs it", `bash -c 'rm -rf /'`, nil, []string{`bash -c: rm -rf / @/w`}},
		{"quoted glob", `rm "*" '?' \[a]`, nil, []string{`rm "*" "?" "[a]" @/w`}},
		{"globs", `rm * a?b [ab]c *.go`, nil, []string{`rm "*"* "a?b"* "[ab]c"* "*.go"* @/w`}},
		{"brace expansion", `rm {a,b} x{1..3} x{} {a} "{a,b}"`, nil, []string{`rm a b x1 x2 x3 x{} {a} {a,b} @/w`}},
		{"lone bracket", `[ -f x ]`, nil, []string{`"[" -f x "]" @/w`}},
		{"escapes", `echo a\ b \rm "x\"y\$z\\q\n" $'a\tb\x41\u00e9\101' 'q'\''r' $"t"`, nil,
			[]string{`echo "a b" rm "x\"y$z\\q\\n" "a\tbAéA" "q'r" t @/w`}},
		{"line continuation", "rm -r\\\nf x", nil, []string{`rm -rf x @/w`}},
		{"tilde and home", `ls ~ ~/x ~+/p ~root "~/q" \~ a=~/b PATH=x:~/c --o=~/d $HOME/e "${HOME}"/f $PWD ~"/g"`, nil,
			[]string{`ls /h /h/x /w/p "~root"? "~/q" "~" a=/h/b PATH=x:/h/c "--o=~/d" /h/e /h/f /w "~/g" @/w`}},
		{"home unknown", `ls ~ ~/x $HOME ~+`, &Options{}, []string{`ls "~"? "~/x"? "$HOME"? "~+"? @?`}},
		{"home with space", `rm $HOME "$HOME"`, &Options{Home: "/my home"}, []string{`rm /my home "/my home" @?`}},
		{"unknown parameters", `rm $X/y "${Y:-z}" ${#Z} $1 $(pwd)/a $((1+2))`, nil,
			[]string{`$(...): pwd @/w`, `rm "$X/y"? "${Y:-z}"? "${#Z}"? "$1"? /w/a "$((1+2))"? @/w`}},

		// Wrappers.
		{"sudo env", `FOO=1 sudo -u root env BAR=2 rm -rf /tmp/x`, nil, []string{`sudo,env: rm -rf /tmp/x @/w`}},
		{"sudo options", `sudo -E -H -uroot -g wheel -- rm a; sudo --user=root --chdir /t rm b; sudo -D/d rm c`, nil,
			[]string{`sudo: rm a @/w`, `sudo: rm b @/t`, `sudo: rm c @/d`}},
		{"sudo no command", `sudo -v; sudo -l rm; sudo -i`, nil,
			[]string{`sudo -v @/w`, `sudo -l rm @/w`, `sudo -i @/w`}},
		{"sudo unknown command", `sudo $CMD x`, nil, []string{`sudo: "$CMD"? x @/w`}},
		{"doas", `doas -u root -n rm x; doas -s`, nil, []string{`doas: rm x @/w`, `doas -s @/w`}},
		{"pkexec", `pkexec --user root rm x`, nil, []string{`pkexec: rm x @/w`}},
		{"env", `env -i -u HOME -C sub rm a; env - PATH=/x rm b; env --chdir=/c rm c; env -0; env`, nil,
			[]string{`env: rm a @/w/sub`, `env: rm b @/w`, `env: rm c @/c`, `env -0 @/w`, `env @/w`}},
		{"env -S", `env -S 'rm -rf /x'; env -S"-i FOO=1 rm y" z; env -S "$X" rm`, nil,
			[]string{`env: rm -rf /x @/w`, `env: rm y z @/w`, `env -S "$X"? rm @/w`}},
		{"env -S runs no substitution", `env -S 'rm $(id)'`, nil, []string{`env: rm "$(id)"? @/w`}},
		{"nice nohup setsid", `nice -n 10 rm a; nice -5 rm b; nohup rm c & setsid -f rm d`, nil,
			[]string{`nice: rm a @/w`, `nice: rm b @/w`, `nohup: rm c @/w &`, `setsid: rm d @/w`}},
		{"time", `time -p rm a; command time -f %e -o t rm b`, nil,
			[]string{`time: rm a @/w`, `command,time: rm b @/w`}},
		{"timeout", `timeout --signal=KILL -k 5 30s rm a; timeout -sKILL 30 rm b; timeout --foreground 5 rm c; timeout 5`, nil,
			[]string{`timeout: rm a @/w`, `timeout: rm b @/w`, `timeout: rm c @/w`, `timeout 5 @/w`}},
		{"stdbuf ionice chrt", `stdbuf -oL -e 0 rm a; ionice -c 3 -n7 nice rm b; ionice -p 1; chrt -f 99 rm c; chrt -p 1`, nil,
			[]string{`stdbuf: rm a @/w`, `ionice,nice: rm b @/w`, `ionice -p 1 @/w`, `chrt: rm c @/w`, `chrt -p 1 @/w`}},
		{"command builtin exec", `command rm a; command -v rm; command -p rm b; builtin echo c; exec -a n rm d`, nil,
			[]string{`command: rm a @/w`, `command -v rm @/w`, `command: rm b @/w`, `builtin: echo c @/w`, `exec: rm d @/w`}},
		{"exec redirect only", `exec >log 2>&1`, nil, []string{`exec >log @/w`}},
		{"xargs", `echo / | xargs rm -rf`, nil, []string{`echo / @/w [0/2]`, `xargs: rm -rf / @/w [1/2]`}},
		{"xargs options", `xargs -I{} rm {}; xargs -0 -n 1 -P4 -a list rm -f; xargs -i mv {} d; xargs`, nil,
			[]string{`xargs: rm "<input of xargs>"? @/w`, `xargs: rm -f "<input of xargs>"? @/w`,
				`xargs: mv "<input of xargs>"? d @/w`, `xargs: echo "<input of xargs>"? @/w`}},
		{"find -exec", `find . -name '*.tmp' -exec rm -f {} \; -print`, nil,
			[]string{`find . -name "*.tmp" -exec rm -f {} ";" -print @/w`, `find -exec: rm -f "./**/*.tmp"* @/w`}},
		{"find -execdir sh -c", `find / -execdir sh -c 'rm "$1"' _ {} + -ok cat {} ';' > out`, nil,
			[]string{`find / -execdir sh -c "rm \"$1\"" _ {} + -ok cat {} ";" >out @/w`,
				`find -exec,sh -c: rm "$1"? @?`, `find -exec: cat / @/w`}},
		{"shell flags", `bash -lc 'rm a'; sh -ec "rm b"; /bin/zsh -xc 'rm c'; bash -o pipefail -c 'rm d'; dash -c -- 'rm e'; ksh -c 'rm f'; mksh -ec 'rm g'`, nil,
			[]string{`bash -c: rm a @/w`, `sh -c: rm b @/w`, `zsh -c: rm c @/w`, `bash -c: rm d @/w`, `dash -c: rm e @/w`, `ksh -c: rm f @/w`, `mksh -c: rm g @/w`}},
		{"zsh syntax", `zsh -c 'print ${(f)x}; function f g { rm $1 }'`, nil,
			[]string{`zsh -c: print "${(f)x}"? @/w`, `zsh -c: rm "$1"? @? fn=f`}},
		{"su and fish", `su -c 'rm a' root; su - postgres -c "dropdb x"; fish --command='rm b'; fish -c 'rm c'`, nil,
			[]string{`su -c: rm a @/w`, `su -c: dropdb x @/w`, `fish -c: rm b @/w`, `fish -c: rm c @/w`}},
		{"shell without -c", `bash script.sh -c x; sh; curl x | bash`, nil,
			[]string{`bash script.sh -c x @/w`, `sh @/w`, `curl x @/w [0/2]`, `bash @/w [1/2] code=sh:pipe:"curl x"?`}},
		{"shell -c not known", `bash -c "$CMD"`, nil, []string{`bash -c "$CMD"? @/w code=sh:-c:"$CMD"?`}},
		{"shell -c without commands", `bash -c 'X=1' > out`, nil, []string{`bash -c X=1 >out @/w`}},
		{"curl | sudo bash", `curl x | sudo bash`, nil, []string{`curl x @/w [0/2]`, `sudo: bash @/w [1/2] code=sh:pipe:"curl x"?`}},
		{"sh -c curl", `sh -c "$(curl -fsSL https://x)"`, nil,
			[]string{`$(...): curl -fsSL https://x @/w`, `sh -c "$(curl -fsSL https://x)"? @/w code=sh:-c:"$(curl -fsSL https://x)"?`}},
		{"bash <(curl)", `bash <(curl x)`, nil, []string{`<(...): curl x @/w`, `bash "<(curl x)"? @/w code=sh:<(...):"<(curl x)"?`}},
		{"process substitutions", `tee >(grep x) < <(sort y)`, nil,
			[]string{`>(...): grep x @/w`, `<(...): sort y @/w`, `tee ">(grep x)"? <"<(sort y)"? @/w`}},
		{"sudo sh -c cd", `sudo sh -c "cd /etc && rm -rf *"`, nil,
			[]string{`sudo,sh -c: cd /etc @/w`, `sudo,sh -c: rm -rf "*"* @/etc`}},
		{"inner commands inherit redirections", `bash -c 'echo a; echo b' > out`, nil,
			[]string{`bash -c: echo a >out @/w`, `bash -c: echo b >out @/w`}},
		{"inner pipeline stage", `curl x | bash -c 'cat; rm y'`, nil,
			[]string{`curl x @/w [0/2]`, `bash -c: cat @/w [1/2]`, `bash -c: rm y @/w [1/2]`}},
		{"eval", `eval "rm -rf" /y; eval -- 'cd /e'; pwd; eval "$X"`, nil,
			[]string{`eval: rm -rf /y @/w`, `eval: cd /e @/w`, `pwd @/e`, `eval "$X"? @/e code=sh:eval:"$X"?`}},
		{"backquotes", "echo `rm x`", nil, []string{"`...`: rm x @/w", "echo \"`rm x`\"? @/w"}},
		{"wrapped substitution runs outside", `sudo rm $(ls)`, nil, []string{`$(...): ls @/w`, `sudo: rm "$(ls)"? @/w`}},

		// Assignments and declarations.
		{"assignment only", `FOO=$(rm a) BAR=1`, nil, []string{`$(...): rm a @/w`}},
		{"declarations", `export X=$(curl evil) Y; local -r z; declare -a arr=(1 $(id)); readonly R+=x`, nil,
			[]string{`$(...): curl evil @/w`, `export "X=$(curl evil)"? Y @/w`, `local -r z @/w`,
				`$(...): id @/w`, `declare -a "arr=(1 $(id))"? @/w`, `readonly R+=x @/w`}},
		{"inherited redirections", `{ { a; } > x; b 2>&1; } 2> y < z`, nil,
			[]string{`a 2>y <z >x @/w`, `b 2>y <z @/w`}},
		{"redirect only", `> trunc`, nil, []string{`""? >trunc @/w`}},

		// Structure.
		{"lists", `a && b || c; d`, nil, []string{`a @/w`, `b @/w`, `c @/w`, `d @/w`}},
		{"pipeline", `a | b |& c`, nil, []string{`a @/w [0/3]`, `b @/w [1/3]`, `c @/w [2/3]`}},
		{"pipeline stage groups", `a | (b; c) | { d && e; }`, nil,
			[]string{`a @/w [0/3]`, `b @/w [1/3]`, `c @/w [1/3]`, `d @/w [2/3]`, `e @/w [2/3]`}},
		{"background", `a & b; { c; d; } &`, nil, []string{`a @/w &`, `b @/w`, `c @/w &`, `d @/w &`}},
		{"coprocess", `coproc cat f; coproc N { rm x; }`, nil, []string{`cat f @/w &`, `rm x @/w &`}},
		{"compound commands", `if a; then b; elif c; then d; else e; fi; while f; do g; done; until h; do i; done; for x in $(j); do k; done; for ((n=$(l); n<3; n++)); do m; done; select s in o; do p; done; case $(q) in x) r;; *) s;; esac`, nil,
			[]string{`a @/w`, `b @/w`, `c @/w`, `d @/w`, `e @/w`, `f @/w`, `g @/w`, `h @/w`, `i @/w`,
				`$(...): j @/w`, `k @/w`, `$(...): l @/w`, `m @/w`, `p @/w`, `$(...): q @/w`, `r @/w`, `s @/w`}},
		{"tests and arithmetic", `[[ -f $(a) && $(b) == x ]]; (( $(c) + 1 )); let x=$(d); echo ${x:-$(e)} ${y/$(f)/g}`, nil,
			[]string{`$(...): a @/w`, `$(...): b @/w`, `$(...): c @/w`, `$(...): d @/w`, `$(...): e @/w`, `$(...): f @/w`,
				`echo "${x:-$(e)}"? "${y/$(f)/g}"? @/w`}},
		{"time keyword pipeline", `time rm -rf x | cat`, nil, []string{`time: rm -rf x @/w [0/2]`, `time: cat @/w [1/2]`}},
		{"negation", `! rm x`, nil, []string{`rm x @/w`}},
		{"fork bomb", `:(){ :|:& };:`, nil, []string{`: @? [0/2] & fn=:`, `: @? [1/2] & fn=:`, `: @/w`}},
		{"function keyword", `function f { rm x; }; f`, nil, []string{`rm x @? fn=f`, `f @/w`}},

		// Heredocs and here-strings.
		{"heredoc unquoted", "cat <<EOF > out\n$(whoami) `hostname` $HOME\nEOF", nil,
			[]string{`$(...): whoami @/w`, "`...`: hostname @/w", `cat >out @/w`}},
		{"heredoc quoted", "cat <<'EOF'\n$(whoami)\nEOF", nil, []string{`cat @/w`}},
		{"here-string", `cat <<< "$(id)"`, nil, []string{`$(...): id @/w`, `cat @/w`}},

		// Working directory.
		{"cd and", `cd /tmp && rm -rf *`, nil, []string{`cd /tmp @/w`, `rm -rf "*"* @/tmp`}},
		{"cd relative", `cd sub; rm a; cd ..; cd ../x/./y; rm b; cd; rm c; cd ~/p; rm d`, nil,
			[]string{`cd sub @/w`, `rm a @/w/sub`, `cd .. @/w/sub`, `cd ../x/./y @/w`, `rm b @/x/y`, `cd @/x/y`, `rm c @/h`, `cd /h/p @/h`, `rm d @/h/p`}},
		{"cd unknown", `cd -; rm a; cd /k; cd $X; rm b; cd /k; pushd /p; rm c; cd /k; cd a b; rm d`, nil,
			[]string{`cd - @/w`, `rm a @?`, `cd /k @?`, `cd "$X"? @/k`, `rm b @?`, `cd /k @?`, `pushd /p @/k`, `rm c @?`, `cd /k @?`, `cd a b @/k`, `rm d @?`}},
		{"cd options and literal", `cd -P -- /q; rm a`, nil, []string{`cd -P -- /q @/w`, `rm a @/q`}},
		{"cd does not leak", `(cd /s; rm a); rm b; cd /p | cat; rm c; cd /g & rm d; echo $(cd /z); rm e; bash -c 'cd /i'; rm f`, nil,
			[]string{`cd /s @/w`, `rm a @/s`, `rm b @/w`, `cd /p @/w [0/2]`, `cat @/w [1/2]`, `rm c @/w`,
				`cd /g @/w &`, `rm d @/w`, `$(...): cd /z @/w`, `echo @/w`, `rm e @/w`, `bash -c: cd /i @/w`, `rm f @/w`}},
		{"cd in block leaks", `{ cd /b; }; rm a; builtin cd /c; rm b; command cd /d; rm c`, nil,
			[]string{`cd /b @/w`, `rm a @/b`, `builtin: cd /c @/b`, `rm b @/c`, `command: cd /d @/c`, `rm c @/d`}},
		{"cd branches", `if x; then cd /a; else cd /b; fi; rm a; cd /c || exit 1; rm b; cd /d || echo no; rm c`, nil,
			[]string{`x @/w`, `cd /a @/w`, `cd /b @/w`, `rm a @?`, `cd /c @?`, `exit 1 @?`, `rm b @/c`, `cd /d @/c`, `echo no @/c`, `rm c @?`}},
		{"cd in loop", `cd /l; for f in a b; do rm $f; cd sub; rm x; done; rm y`, nil,
			[]string{`cd /l @/w`, `rm a @/l`, `cd sub @/l`, `rm x @?`, `rm b @?`, `cd sub @?`, `rm x @?`, `rm y @?`}},
		{"cd in function", `g() { cd /tmp; }; g; rm x`, nil, []string{`cd /tmp @? fn=g`, `g @/w`, `rm x @?`}},
		{"cd without Dir", `rm a; cd rel; rm b; cd /abs; rm c`, &Options{}, []string{`rm a @?`, `cd rel @?`, `rm b @?`, `cd /abs @?`, `rm c @/abs`}},
		{"pwd expands to tracked dir", `cd /x && ls $PWD/y`, nil, []string{`cd /x @/w`, `ls /x/y @/x`}},
		{"sudo cd changes nothing", `sudo cd /x; rm a`, nil, []string{`sudo: cd /x @/w`, `rm a @/w`}},

		// Real command lines from Claude Code logs.
		{"log 1", "git add test/performance/regression.test.ts && git commit --no-verify -m \"Fix: resolve performance regression in validation\n\n- Fix parameter validation\" && git push", nil,
			[]string{`git add test/performance/regression.test.ts @/w`,
				`git commit --no-verify -m "Fix: resolve performance regression in validation\n\n- Fix parameter validation" @/w`,
				`git push @/w`}},
		{"log 2", `git push origin --delete feature/issue-363-phase2-universal-tools fix/pr-389-critical-issues`, nil,
			[]string{`git push origin --delete feature/issue-363-phase2-universal-tools fix/pr-389-critical-issues @/w`}},
		{"log 4", `source /Users/dalton/projects/teamwork/.env 2>/dev/null; bun run dev`, nil,
			[]string{`source /Users/dalton/projects/teamwork/.env 2>/dev/null @/w`, `bun run dev @/w`}},
		{"log 5", `sudo nixos-rebuild build --flake . --show-trace`, nil,
			[]string{`sudo: nixos-rebuild build --flake . --show-trace @/w`}},
		{"log 6", `npm test 2>&1 | grep "Test Files:"`, nil,
			[]string{`npm test @/w [0/2]`, `grep "Test Files:" @/w [1/2]`}},
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

// log3 is a commit whose message comes from a quoted heredoc inside $(...):
// nothing in the body runs.
const log3 = "git commit -m \"$(cat <<'EOF'\n" +
	"Fix: Enhanced field validation error messages (#388)\n\n" +
	"- Show which field failed\n\n" +
	"```\nField validation failed for tasks:\n  ❌ Required field \\\"content\\\" is missing\n```\n" +
	"$(rm -rf /) `reboot` && sudo rm -rf ~\n" +
	"EOF\n)\""

func TestLog3Heredoc(t *testing.T) {
	s := mustParse(t, log3, testOpts)
	want := []string{`$(...): cat @/w`}
	if got := showAll(s); len(got) != 2 || got[0] != want[0] || !strings.HasPrefix(got[1], "git commit -m ") {
		t.Fatalf("got %q", got)
	}
	git := s.Commands[1]
	msg := git.Args[2]
	// The message is the heredoc's text, known: nothing in it runs.
	if !msg.Known || !strings.Contains(msg.Value, "$(rm -rf /) `reboot`") || len(msg.Inner) != 1 || msg.Inner[0] != s.Commands[0] {
		t.Errorf("message word: Known=%v Inner=%v Value=%q", msg.Known, msg.Inner, msg.Value)
	}
	if !strings.Contains(msg.Raw, "❌ Required field") {
		t.Errorf("Raw lost the body: %q", msg.Raw)
	}
	if cat := s.Commands[0]; len(cat.Redirects) != 0 || len(cat.Args) != 0 {
		t.Errorf("heredoc is not a file redirect or an arg: %s", show(cat))
	}
}

func TestSubstitutionInner(t *testing.T) {
	s := mustParse(t, `sh -c "$(curl -fsSL https://x)"`, testOpts)
	curl, sh := s.Commands[0], s.Commands[1]
	arg := sh.Args[1]
	if len(arg.Inner) != 1 || arg.Inner[0] != curl {
		t.Fatalf("-c arg Inner = %v, want the curl command", arg.Inner)
	}
	if arg.Raw != `"$(curl -fsSL https://x)"` {
		t.Errorf("Raw = %q", arg.Raw)
	}
	if curl.Pipeline == sh.Pipeline {
		t.Errorf("a substitution is not in the pipeline of its command")
	}
}

func TestPipelineIDs(t *testing.T) {
	s := mustParse(t, `a | b; c | d; e`, testOpts)
	ids := make([]int, len(s.Commands))
	for i, c := range s.Commands {
		ids[i] = c.Pipeline
	}
	if ids[0] != ids[1] || ids[2] != ids[3] || ids[0] == ids[2] || ids[4] == ids[0] || ids[4] == ids[2] {
		t.Errorf("pipeline ids %v", ids)
	}
}

func TestForkBombCallsItself(t *testing.T) {
	s := mustParse(t, `:(){ :|:& };:`, testOpts)
	if len(s.Commands) != 3 {
		t.Fatalf("got %q", showAll(s))
	}
	for _, c := range s.Commands[:2] {
		if c.Base() != ":" || c.Func != ":" || !c.Background || c.Stages != 2 {
			t.Errorf("body command %s", show(c))
		}
	}
	if top := s.Commands[2]; top.Base() != ":" || top.Func != "" || top.Background {
		t.Errorf("top-level call %s", show(top))
	}
}

func TestRedirects(t *testing.T) {
	s := mustParse(t, `cmd >a >>b >|c &>d &>>e <f <>g >&h 2>&1 >&- 3<&0 4>&5- 2>/dev/null <<<x {fd}>i`, testOpts)
	c := s.Commands[0]
	var got []string
	for _, r := range c.Redirects {
		got = append(got, r.Fd+r.Op+r.Target.Value)
	}
	want := []string{">a", ">>b", ">|c", "&>d", "&>>e", "<f", "<>g", ">&h", "2>/dev/null", "{fd}>i"}
	if !slices.Equal(got, want) {
		t.Errorf("redirects %q, want %q", got, want)
	}
	if w := showWords(c.Writes()); !slices.Equal(w, []string{"a", "b", "c", "d", "e", "g", "h", "/dev/null", "i"}) {
		t.Errorf("Writes %q", w)
	}
	if r := showWords(c.Reads()); !slices.Equal(r, []string{"f", "g"}) {
		t.Errorf("Reads %q", r)
	}
	// >& with an unknown target could be a file: it stays.
	s = mustParse(t, `cmd >&$out`, testOpts)
	if r := s.Commands[0].Redirects; len(r) != 1 || r[0].Op != ">&" || r[0].Target.Known {
		t.Errorf("unknown >& target: %+v", r)
	}
}

func TestWordFields(t *testing.T) {
	s := mustParse(t, `rm -rf - -- "$x" 'a b'`, testOpts)
	args := s.Commands[0].Args
	flags := []bool{true, false, true, false, false}
	for i, a := range args {
		if a.IsFlag() != flags[i] {
			t.Errorf("%q IsFlag = %v", a.Raw, a.IsFlag())
		}
	}
	if args[4].Raw != `'a b'` || args[4].Value != "a b" || !args[4].Known {
		t.Errorf("quoted word %+v", args[4])
	}
	if s.Commands[0].Base() != "rm" {
		t.Errorf("Base %q", s.Commands[0].Base())
	}
	s = mustParse(t, `/usr/bin/sudo /bin/rm x; $RM y`, testOpts)
	if b := s.Commands[0].Base(); b != "rm" || s.Commands[0].Name.Value != "/bin/rm" {
		t.Errorf("Base %q of %q", b, s.Commands[0].Name.Value)
	}
	if b := s.Commands[1].Base(); b != "" {
		t.Errorf("unknown program Base %q", b)
	}
}

// nest wraps src in n levels of bash -c.
func nest(src string, n int) string {
	for range n {
		q, err := syntax.Quote(src, syntax.LangBash)
		if err != nil {
			panic(err)
		}
		src = "bash -c " + q
	}
	return src
}

func TestDepthLimit(t *testing.T) {
	s := mustParse(t, nest("rm -rf /", maxDepth), testOpts)
	if got := showAll(s); len(got) != 1 || got[0] != `bash -c,bash -c,bash -c,bash -c: rm -rf / @/w` {
		t.Errorf("depth %d: %q", maxDepth, got)
	}
	s = mustParse(t, nest("rm -rf /", maxDepth+1), testOpts)
	c := s.Commands[0]
	if len(s.Commands) != 1 || c.Base() != "bash" || len(c.Wrappers) != maxDepth || c.Args[0].Value != "-c" {
		t.Errorf("depth %d: %q", maxDepth+1, showAll(s))
	}
	// Code nested too deep to read is code not known: guards deny it.
	if c.Code == nil || c.Code.Text.Known || c.Code.From != "-c" {
		t.Errorf("depth %d: Code %+v, want unknown -c code", maxDepth+1, c.Code)
	}
	for _, src := range []string{nest("eval 'rm -rf /'", maxDepth), nest("echo 'rm -rf /' | bash", maxDepth)} {
		s := mustParse(t, src, testOpts)
		last := s.Commands[len(s.Commands)-1]
		if last.Code == nil || last.Code.Text.Known {
			t.Errorf("%q: %q, want the innermost listed with unknown Code", src, showAll(s))
		}
	}
}

func TestErrors(t *testing.T) {
	for _, src := range []string{`echo (`, `bash -c 'echo ('`, `eval 'if'`, `sudo sh -c "a | "`, `sh -c "$(echo ()"`} {
		s, err := Parse(src, testOpts)
		if err == nil || s != nil {
			t.Errorf("Parse(%q) = %v, %v; want a syntax error", src, s, err)
		}
		if errors.Is(err, errInternal) {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
	if _, err := Parse("", testOpts); err != nil {
		t.Errorf("empty: %v", err)
	}
}

func TestANSICQuoting(t *testing.T) {
	// Checked against bash 5.2: printf %s $'...' | od -c
	src := `echo $'\a\b\e\E\f\n\r\t\v\\\'\"\?\101\x4a\u263a\U0001F600\cA\q\x|\u|\7'`
	want := "\a\b\x1b\x1b\f\n\r\t\v\\'\"?AJ☺😀\x01\\q\\x|\\u|\a"
	s := mustParse(t, src, testOpts)
	if got := s.Commands[0].Args[0]; got.Value != want || !got.Known {
		t.Errorf("got %q, want %q", got.Value, want)
	}
}

func TestTerminates(t *testing.T) {
	s := mustParse(t, `cd /a || { echo failed; exit 1; }; rm x; cd /b || return; rm y`, testOpts)
	got := showAll(s)
	if got[3] != `rm x @/a` || got[6] != `rm y @/b` {
		t.Errorf("got %q", got)
	}
}

// TestEmptyHeredocInSubstitution: a heredoc with an empty body inside a
// substitution has no body word at all; reading it must not fail.
func TestEmptyHeredocInSubstitution(t *testing.T) {
	s := mustParse(t, "\"$(<<'EOF'\nEOF\n)\"", testOpts)
	if len(s.Commands) != 1 {
		t.Errorf("got %q, want the heredoc's bare redirection", showAll(s))
	}
}

// A variable's value past maxStream is unknown: doubling a value in a
// loop of assignments (A=$A$A, 30 times in under 500 bytes) would
// otherwise build gigabytes before the command that reads it is judged,
// and the hook would run past the agent's timeout. Up to the bound the
// value stays known.
func TestVariableValueBounded(t *testing.T) {
	for _, tc := range []struct {
		doublings int
		known     bool
	}{{15, true}, {16, true}, {17, false}, {24, false}} {
		src := "A=x; " + strings.Repeat("A=$A$A; ", tc.doublings) + "cat $A"
		s, err := Parse(src, testOpts)
		if err != nil {
			t.Fatalf("%d doublings: %v", tc.doublings, err)
		}
		cat := s.Commands[len(s.Commands)-1]
		if cat.Name.Value != "cat" || len(cat.Args) != 1 {
			t.Fatalf("%d doublings: last command %s", tc.doublings, show(cat))
		}
		a := cat.Args[0]
		if a.Known != tc.known || (a.Known && len(a.Value) != 1<<tc.doublings) {
			t.Errorf("%d doublings: argument known=%v (%d bytes), want known=%v", tc.doublings, a.Known, len(a.Value), tc.known)
		}
	}
}

// Nested for loops are unrolled only while the passes of their body, all
// loops multiplied, stay within maxIterations: eight loops of eight items
// (500 bytes) walked their body 16 million times. Past that an inner loop
// is walked once with its variable unknown.
func TestNestedLoopsUnrolledWithinBound(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"for a in 1 2; do for b in x y z w; do cat $a$b; done; done",
			[]string{"cat 1x", "cat 1y", "cat 1z", "cat 1w", "cat 2x", "cat 2y", "cat 2z", "cat 2w"}},
		{"for a in 1 2 3; do for b in x y z; do for c in p q; do cat $a$b$c; done; done; done",
			// a's 3 passes times b's 3 are 9: b's loop is walked once, b
			// unknown, and c's within it twice per pass of a (6 in all).
			[]string{`cat "1$bp"?`, `cat "1$bq"?`, `cat "2$bp"?`, `cat "2$bq"?`, `cat "3$bp"?`, `cat "3$bq"?`}},
	} {
		s, err := Parse(tc.src, testOpts)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var got []string
		for _, c := range s.Commands {
			got = append(got, strings.TrimSuffix(show(c), " @/w"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// Aliases, eval, source and shell strings are read again where they run,
// so text that names other such text multiplies: five aliases, each the
// next one forty times (540 bytes), made 2.5 million commands, 6.7 s and
// 1.3 GB. A line that expands more than maxInner strings is refused, as
// one that cannot be parsed; everyday uses expand a few.
func TestInnerExpansionsBounded(t *testing.T) {
	chain := func(k int) string {
		names := []string{"a", "b", "c", "d", "e"}
		var b strings.Builder
		for i, n := range names[:len(names)-1] {
			fmt.Fprintf(&b, "alias %s='%s'\n", n, strings.Repeat(names[i+1]+";", k))
		}
		b.WriteString("alias e='echo hi'\na\n")
		return b.String()
	}
	if _, err := Parse(chain(40), testOpts); err == nil || !strings.Contains(err.Error(), "more than 1000") {
		t.Errorf("aliases multiplying to 2.5 million commands: err = %v, want it refused", err)
	}
	if _, err := Parse(`eval "$(printf 'eval x;%.0s' {1..10})"; `+strings.Repeat(`eval 'eval "eval y"'; `, 400), testOpts); err == nil {
		t.Error("1,200 nested evals: not refused")
	}
	for _, src := range []string{
		chain(5), // 780 strings
		"alias ll='ls -la'\n" + strings.Repeat("ll; ", 200),
		`for f in a b c d e f g h; do eval "cat $f"; bash -c "rm $f"; done`,
	} {
		if _, err := Parse(src, testOpts); err != nil {
			t.Errorf("%.60q: %v", src, err)
		}
	}
}

// The walk's work is bounded apart from the line's length: text read again
// as shell code, loops unrolled and substitutions nested multiply it. Each
// line here took gigabytes before its bound (a small machine's kernel
// kills the hook then, and the call goes ahead); each is refused as one
// that cannot be parsed, having allocated little.
func TestWalkBudgets(t *testing.T) {
	double := "A=xxxxxxxx; " + strings.Repeat("A=$A$A; ", 13) // a 64 KiB value
	for _, tc := range []struct {
		name, src, why string
	}{
		{"substitutions nested 20,000 deep (60 KB, 4 GB)",
			"echo " + strings.Repeat("$(", 20000) + "rm -rf /" + strings.Repeat(")", 20000), "nests command substitutions"},
		{"a 64 KiB value expanded 800,000 times (3 KB, 4 GB)",
			double + "\nalias a='for i in 1 2 3 4 5 6 7 8; do " + strings.Repeat("cat $A$i;", 100) + " done'\n" + strings.Repeat("a;", 999),
			"expands more than"},
		{"an alias of 2,000 commands used 999 times (16 KB, 1.3 GB)",
			"alias a='" + strings.Repeat("echo x>/dev/null;", 2000) + "'\n" + strings.Repeat("a;", 999),
			"more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse(tc.src, testOpts)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("err = %v, want it refused (%q)", err, tc.why)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
				t.Errorf("allocated %d MiB on the way", got>>20)
			}
		})
	}
	for _, src := range []string{
		"echo " + strings.Repeat("$(", 60) + "date" + strings.Repeat(")", 60),
		double + "cat $A $A $A $A",
		"alias a='" + strings.Repeat("echo x;", 40) + "'\n" + strings.Repeat("a;", 100),
	} {
		if _, err := Parse(src, testOpts); err != nil {
			t.Errorf("%.50q: %v", src, err)
		}
	}
}
