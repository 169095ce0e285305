package shellcmd

import (
	"fmt"
	"testing"
)

// TestEditorPrograms: the files an awk program or a sed script names are
// its effects, and the commands it runs make it code; everyday programs
// beside each name nothing and run nothing.
func TestEditorPrograms(t *testing.T) {
	for _, c := range []struct {
		lang, prog string
		effects    string
		runs       bool
	}{
		{"awk", `BEGIN{system("rm -rf ~")}`, "[]", true},
		{"awk", `{print | "sh"}`, "[]", true},
		{"awk", `{"date" | getline d}`, "[]", true},
		{"awk", `{print |& "cat"}`, "[]", true},
		{"awk", `BEGIN{while ((getline l < ".env") > 0) print l}`, "[read .env]", false},
		{"awk", `{print > ".claude/settings.json"}`, "[write .claude/settings.json]", false},
		{"awk", `{printf "%s", $0 >> "log.txt"}`, "[write log.txt]", false},
		{"awk", `{print $1}`, "[]", false},
		{"awk", `$1 == "a" || $2 == "b" {print}`, "[]", false},
		{"awk", `$3 > 1000 {print $1}`, "[]", false},
		{"sed", `e rm -rf ~`, "[]", true},
		{"sed", `1e date`, "[]", true},
		{"sed", `s/.*/rm -rf ~/e`, "[]", true},
		{"sed", `s/a/b/ge`, "[]", true},
		{"sed", `r .env`, "[read .env]", false},
		{"sed", `/x/R .env`, "[read .env]", false},
		{"sed", `w out.txt`, "[write out.txt]", false},
		{"sed", `s/a/b/w .claude/settings.json`, "[write .claude/settings.json]", false},
		{"sed", "s/a/b/gw x\nr y", "[write x read y]", false},
		{"sed", `s/e/w/`, "[]", false},
		{"sed", `s|/usr/bin|/opt/bin|g`, "[]", false},
		{"sed", `/^#/d; s/\t/ /g`, "[]", false},
		{"sed", `$a end with e and r`, "[]", false},
		{"sed", `y/abc/xyz/`, "[]", false},
		{"sed", `:a;N;$!ba;s/\n/ /g`, "[]", false},
		{"sed", `\,x,d`, "[]", false},
	} {
		var effects []Effect
		var runs bool
		if c.lang == "awk" {
			effects, runs = awkProgram(c.prog)
		} else {
			effects, runs = sedProgram(c.prog)
		}
		got := "["
		for i, e := range effects {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s %s", map[Op]string{Read: "read", Write: "write"}[e.Op], e.Path.Value)
		}
		got += "]"
		if got != c.effects || runs != c.runs {
			t.Errorf("%s %q: effects %s, runs %v; want %s, %v", c.lang, c.prog, got, runs, c.effects, c.runs)
		}
	}
}
