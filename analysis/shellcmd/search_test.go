package shellcmd

import (
	"fmt"
	"path"
	"strings"
	"testing"
)

// reads says which of names (below the operand) a folder read's reader
// reads by its defaults and options, git aside: a hidden name only with
// Hidden or an option that names it, and nothing an option leaves out.
func reads(s *Selection, operand string, names []string) string {
	var out []string
	for _, n := range names {
		hidden := false
		for _, part := range strings.Split(n, "/") {
			hidden = hidden || strings.HasPrefix(part, ".")
		}
		p := s.Pick(operand, n, false)
		for d := path.Dir(n); d != "." && p != PickSkip; d = path.Dir(d) {
			if s.Pick(operand, d, true) == PickSkip {
				p = PickSkip
			}
		}
		if p == PickForce || p == PickDefault && (!hidden || s.Hidden) {
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}

func TestSearchSelections(t *testing.T) {
	names := []string{".env", "src/a.go", "src/.env", "conf/x.pem", "vendor/v.go"}
	tests := []struct {
		src string
		// want is each folder read: its operand, its reader's flags (h
		// hidden, i ignored, u untracked, f follow) and what it reads of
		// names; plain reads are listed as "read X".
		want []string
	}{
		{`grep -r KEY .`, []string{". grep -r hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`grep -R KEY`, []string{". grep -r hiuf: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`grep -rn SECRET src/..`, []string{"src/.. grep -r hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`grep -d recurse KEY .`, []string{". grep -r hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`grep -r --exclude=.env KEY .`, []string{". grep -r hiu: src/a.go conf/x.pem vendor/v.go"}},
		{`grep -r --include=*.go KEY .`, []string{". grep -r hiu: src/a.go vendor/v.go"}},
		{`grep -r --exclude-dir=src --exclude-dir=vendor KEY .`, []string{". grep -r hiu: .env conf/x.pem"}},
		{`grep KEY README.md`, []string{"read README.md"}},
		// A pattern not known excludes nothing, and includes everything.
		{`grep -r --exclude="$X" KEY .`, []string{". grep -r hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`rg -g "$G" KEY`, []string{". rg u: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`grep -e KEY -r src`, []string{"src grep -r hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`rg KEY`, []string{". rg u: src/a.go conf/x.pem vendor/v.go"}},
		{`rg --hidden KEY`, []string{". rg hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`rg --hidden --no-hidden KEY`, []string{". rg u: src/a.go conf/x.pem vendor/v.go"}},
		{`rg -uu KEY`, []string{". rg hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`rg -u KEY`, []string{". rg iu: src/a.go conf/x.pem vendor/v.go"}},
		{`rg -. KEY`, []string{". rg hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`rg -g .env KEY`, []string{". rg u: .env src/.env"}},
		{`rg --hidden -g '!.env' KEY`, []string{". rg hu: src/a.go conf/x.pem vendor/v.go"}},
		{`rg --hidden -g '*.go' KEY src`, []string{"src rg hu: src/a.go vendor/v.go"}},
		{`rg --files`, nil},
		{`ag --hidden KEY`, []string{". ag hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`ag -u KEY`, []string{". ag hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`ag --hidden --ignore .env KEY`, []string{". ag hu: src/a.go conf/x.pem vendor/v.go"}},
		{`ag -g env`, nil},
		{`git grep KEY`, []string{". git grep h: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`git grep KEY -- src`, []string{". git grep h: src/a.go src/.env"}},
		{`git grep KEY -- . ':!.env'`, []string{". git grep h: src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`git grep --untracked KEY`, []string{". git grep hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`git grep --no-index KEY`, []string{". git grep hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`git grep --no-index --exclude-standard KEY`, []string{". git grep hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`git grep KEY HEAD:.env`, []string{". git grep h: .env src/a.go src/.env conf/x.pem vendor/v.go", "read HEAD:.env", "read .env"}},
		{`tar czf out.tgz .`, []string{"write out.tgz", ". tar hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`tar -czf out.tgz --exclude=.env .`, []string{"write out.tgz", ". tar hiu: src/a.go conf/x.pem vendor/v.go"}},
		{`tar -C src/.. -cf - .`, []string{"src/../. tar hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`tar cf out.tar --no-recursion src`, []string{"write out.tar", "read src"}},
		{`tar --exclude-vcs-ignores -cf out.tar src`, []string{"write out.tar", "src tar hu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`tar xzf in.tgz`, nil},
		// -T names a file whose lines are the names to archive, -X one of
		// patterns: tar reads it, and prints a line it cannot find.
		{`tar -cT .env -f x.tar`, []string{"write x.tar", "read .env"}},
		{`tar cTf .env out.tar`, []string{"write out.tar", "read .env"}},
		{`tar -c --files-from=list -f x.tar`, []string{"write x.tar", "read list"}},
		{`tar -czf x.tgz -X .env src`, []string{"write x.tgz", "read .env", "src tar hiu: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`zip -r out.zip .`, []string{"write out.zip", ". zip -r hiuf: .env src/a.go src/.env conf/x.pem vendor/v.go"}},
		{`zip -r out.zip . -x .env '*/.env'`, []string{"write out.zip", ". zip -r hiuf: src/a.go conf/x.pem vendor/v.go"}},
		{`zip -ry out.zip src -i '*.go'`, []string{"write out.zip", "src zip -r hiu: src/a.go vendor/v.go"}},
		{`zip out.zip .env`, []string{"write out.zip", "read .env"}},
	}
	for _, tt := range tests {
		s := mustParse(t, tt.src, testOpts)
		var got []string
		for _, e := range s.Commands[0].Effects() {
			if e.Select == nil {
				got = append(got, fmt.Sprintf("%s %s", strings.ToLower(e.Op.String()), e.Path.Value))
				continue
			}
			sel := e.Select
			flags := ""
			for _, f := range []struct {
				on bool
				c  string
			}{{sel.Hidden, "h"}, {sel.Ignored, "i"}, {sel.Untracked, "u"}, {sel.Follow, "f"}} {
				if f.on {
					flags += f.c
				}
			}
			got = append(got, fmt.Sprintf("%s %s %s: %s", e.Path.Value, sel.Reader, flags, reads(sel, e.Path.Value, names)))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}
