package shellcmd

import "testing"

func TestKeepsGlobDefaults(t *testing.T) {
	for _, tc := range []struct {
		src   string
		keeps bool
	}{
		// Plain commands, lists, pipes, substitutions, loops.
		{"cat *", true},
		{"wc -l * | sort -n | tail -3", true},
		{"cd src && grep -n TODO * 2>/dev/null", true},
		{"set -euo pipefail; cat *", true},
		{"for f in a b; do wc -l a; done; cat *", false}, // assigns f
		{"f() { cat a.txt; }; f && cat *", true},
		{"[[ -f a.txt ]] || echo none; cat */*.md", true},
		{"if [ -d sub ]; then cd sub; fi; grep -n x * | head -5", true},
		{"cat * > /tmp/all.txt 2>&1", true},
		{"exit 1", true},
		{"shift 'path[x]'", false}, // zsh: a numeric argument is arithmetic
		{"test 1 -eq 'a[x]'", false},
		{"printf %d 'path[x]'", false},
		{"RANDOM=GLOBIGNORE++; cat *", false},
		{"x=GLOB; RANDOM=${x}IGNORE=1; cat *", false},
		{"set -e +x -o errexit; cat *", true},
		{"FOO=1 make test && cat *", false},                 // not literal
		{"x=$(ls); cat * $x ${x:-d} ${#x} ${x%.go}", false}, // not literal
		{"for f in *.go; do wc -l $f; done", false},         // not literal
		{"printf '%s\\n' a b", true},
		// Options that change globbing, by any route.
		{"shopt -s dotglob; cat *", false},
		{"\\shopt -s dotglob; cat *", false},
		{"'shopt' -s dotglob; cat *", false},
		{"builtin shopt -s dotglob; cat *", false},
		{"command shopt -s dotglob; cat *", false},
		{"setopt globdots; cat *", false},
		{"set -o globdots; cat *", false},
		{"set -4; cat *", false},
		{"emulate -L zsh -o globdots; cat *", false},
		{"GLOBIGNORE=x; cat *", false},
		{"GLOBIGNORE=x cat *", false},
		{"export GLOBIGNORE=x; cat *", false},
		{"declare -n r=GLOBIGNORE; r=x; cat *", false},
		{"BASH_ENV=rc bash -c 'cat *'", false},
		{"ENV=rc sh -i -c 'cat *'", false},
		// Code run in the shell itself, or a name set by a name given.
		{"source ./rc; cat *", false},
		{". ./rc; cat *", false},
		{"eval \"$x\"; cat *", false},
		{"trap 'shopt -s dotglob' DEBUG; cat *", false},
		{"alias c='shopt -s dotglob'\nc\ncat *", false},
		{"f() { shopt -s dotglob; }; f; cat *", false},
		{"read GLOBIGNORE <<< x; cat *", false},
		{"printf -v GLOBIGNORE x; cat *", false},
		{"printf -vGLOBIGNORE x; cat *", false},
		{"printf \"$f\" x; cat *", false},
		{"mapfile -t GLOBIGNORE < f; cat *", false},
		{"$cmd -s dotglob; cat *", false},
		{"\"$(echo shopt)\" -s dotglob; cat *", false},
		{"for GLOBIGNORE in x; do cat *; done", false},
		{"select GLOBIGNORE in x; do cat *; done", false},
		{"true {GLOBIGNORE}>/dev/null; cat *", false},
		{"sleep 1 & wait -p GLOBIGNORE; cat *", false},
		{"print -v GLOBIGNORE x; cat *", false},
		{"options[globdots]=on; cat *", false},
		{"compgen -V GLOBIGNORE x; cat *", false},
		// Arithmetic assigns, and evaluates a variable's value.
		{"(( GLOBIGNORE=1 )); cat *", false},
		{"x=$((GLOBIGNORE=1)); cat *", false},
		{"let GLOBIGNORE=1; cat *", false},
		{"y=GLOBIGNORE=1; echo ${x:y}; cat *", false},
		{"echo ${a[GLOBIGNORE=1]}; cat *", false},
		{"x='a[GLOBIGNORE=1]'; echo ${!x}; cat *", false},
		{"echo ${GLOBIGNORE:=x}; cat *", false},
		{"a[GLOBIGNORE=1]=x; cat *", false},
		{"[[ 1 -eq GLOBIGNORE=1 ]]; cat *", false},
		// Found by a red team: arithmetic bash runs on an array index
		// written as a word, and expansions that assign later.
		{"x=GLOBIGNORE=1; a=([x]=1); cat *", false},
		{"a=(); a+=([x]=1); cat *", false},
		{"x=GLOBIGNORE=1; test -v 'a[x]'; cat *", false},
		{"x=GLOBIGNORE=1; [ -v 'a[x]' ]; cat *", false},
		{"x=GLOBIGNORE=1; a=(1); unset 'a[x]'; cat *", false},
		{"PS4='${GLOBIGNORE:=x}'; set -x; true; cat * 2>/dev/null", false},
		{"set -x; cat *", false},
		{"x='${GLOBIGNORE:=x}'; : \"${x@P}\"; cat *", false},
		{"PS3='${GLOBIGNORE:=x}'; select v in a; do break; done; cat *", false},
		{"options+=(globdots on); cat *", false},
		{"options=(globdots on); cat *", false},
		{"[ -f a.txt ] && cat *", true},
		{"a=(x y); cat * ${a[@]}", false}, // not literal
		// Found by a second red team: builtins that run their other
		// words as a command, and variables that define aliases and
		// functions.
		{"x=do; jobs -x shopt -s ${x}tglob; cat *", false},
		{"x=d; noglob setopt glob${x}ots; cat *", false},
		{"x=d; nocorrect setopt glob${x}ots; cat *", false},
		{"x=d; - setopt glob${x}ots; cat *", false},
		{"x=d; repeat 1 setopt glob${x}ots; cat *", false},
		{"functions=(zz 'x=d; setopt glob${x}ots')\nzz\ncat *", false},
		{"aliases=(zz 'x=d; setopt glob${x}ots')\nzz\ncat *", false},
		{"POSIXLY_CORRECT=1 BASH_ALIASES=(cat 'x=do; shopt -s ${x}tglob; cat')\ncat *", false},
		{"BASH_CMDS=(cat /tmp/x); cat *", false},
		{"chpwd_functions=(zz); cd sub; cat *", false},
		{"hash -p /tmp/x cat; cat *", false},
		{"history -s x; cat *", false},
		// Everyday forms that change nothing.
		{"[[ -f a.txt ]] && cat *", true},
		{"[[ $x == y* ]] && cat *", false}, // not literal
		{"[[ -v x ]] && cat *", false},
		{"command -v jq && cat *", true},
		{"command shopt -s dotglob; cat *", false},
		{"while read -r l; do echo $l; done < a.txt; cat *", false}, // not literal
		{"read 'a[x]' < f; cat *", false},
		{"f() { cat \"$@\"; }; f *", false}, // not literal
		{"x=${y:=1}; cat *", false},         // not literal
		{"x=${PS4:=1}; cat *", false},
		{"local x=1; cat *", false}, // not literal
		{"stat * && which go", true},
		// What bash cannot parse is not surely anything.
		{"cat (", false},
	} {
		if got := KeepsGlobDefaults(tc.src); got != tc.keeps {
			t.Errorf("KeepsGlobDefaults(%q) = %v, want %v", tc.src, got, tc.keeps)
		}
	}
}

// TestOpaqueCodeIsRefused: text the parser keeps as plain but the shell
// would run makes the command unreadable (see opaqueRuns): red teams read
// .env through each of these, listed as no command at all.
func TestOpaqueCodeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		src     string
		refused bool
	}{
		{"[[ a == @($(cat .env >&2)) ]]", true},
		{"[[ a == @(${x:=1}) ]]", true},
		{"ls @(`cat .env`)", true},
		{"echo a*(e:'cat .env >&2':)", true},
		{"echo a*(+f)", true},
		{"echo a*(.e{'cat .env'})", true},
		// A fourth red team: process substitution in a group, zsh's e
		// with any delimiter or a quoted |, a here-document's end word
		// split by a backslash, quotes in arithmetic.
		{"[[ a == @(<(cat .env>&2)) ]]", true},
		{"[[ a == @(x|<(cat .env>&2)) ]]", true},
		{"[[ a == @(>(cat .env>&2)) ]]", true},
		{"echo a*(eXcat' '.envX)", true},
		{"echo a*(e:'cat .env|cat':)", true},
		{"echo a*(e'|cat .env|')", true},
		{"cat <<EOF\nx\nEO\\\nF\ncat .env\nEOF", true},
		{"cat <<-EOF\nx\n\tEO\\\nF\ncat .env\nEOF", true},
		{"cat <<'EOF'\nx\nEO\\\nF\nEOF", false},
		{"cat <<EOF\nline \\\ncontinued\nEOF", false},
		{"echo $(( '$(cat .env>&2)' ))", true},
		{"echo $(( 1 + '`cat .env>&2`' ))", true},
		{"(( '$(cat .env>&2)' ))", true},
		{"a['$(cat .env>&2)']=1", true},
		{"for (( '$(cat .env>&2)'; 0; )); do :; done", true},
		{"echo $((1+2)) ${a[1]}", false},
		{"echo $(( $'a[\\x24(cat .env >&2)]' ))", true},
		// A fifth red team: what the refusals must not catch.
		{"git commit -m 'Fix [#12]: call `foo` first'", false},
		{"gh pr create --body \"$(cat <<'EOF'\n## Test plan\n- [ ] run `make test`\nEOF\n)\"", false},
		{"echo \"[INFO] started at \\$(date)\"", false},
		{"shopt -s extglob; ls !(node_modules)", false},
		{"rm -f !(keep).txt", false},
		{"echo a*(e'|cat .env|')", true},
		{"ls !(*.txt)", false},
		{"case $x in @(a|b)) echo y;; esac", false},
		{"ls +([0-9]).log", false},
		{"ls @(node|ruby)", false},
	} {
		_, err := Parse(tc.src, Options{Dir: "/p"})
		if (err != nil) != tc.refused {
			t.Errorf("Parse(%q): err %v, want refused %v", tc.src, err, tc.refused)
		}
	}
}
