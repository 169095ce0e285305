package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

func TestWritesReads(t *testing.T) {
	tests := []struct {
		src    string
		writes []string
		reads  []string
	}{
		// Writers that write or delete every operand.
		{`rm -rf --no-preserve-root / "$D"`, []string{"/", `"$D"?`}, nil},
		{`rm -- -f x`, []string{"-f", "x"}, nil},
		{`rm x -rf`, []string{"x"}, nil},
		{`rmdir -p a/b`, []string{"a/b"}, nil},
		{`unlink l`, []string{"l"}, nil},
		{`shred -n 3 -u -s 1K s --random-source=r`, []string{"s"}, nil},
		{`tee -a log out.txt`, []string{"log", "out.txt"}, nil},
		{`touch -d yesterday -r ref -t 2001 f`, []string{"f"}, nil},
		{`mkdir -p -m 755 a b`, []string{"a", "b"}, nil},
		{`truncate -s 0 -r ref f`, []string{"f"}, nil},
		// Copiers: the destination is written (and, should it be a folder,
		// each source's name in it), the sources read.
		{`mv a b dest`, []string{"a", "b", "dest", "dest/a", "dest/b"}, []string{"a", "b"}},
		{`mv -t dest a b`, []string{"a", "b", "dest", "dest/a", "dest/b"}, []string{"a", "b"}},
		{`mv -S .bak --target-directory=d a`, []string{"a", "d", "d/a"}, []string{"a"}},
		{`cp -r a b dest`, []string{"dest", "dest/a", "dest/b"}, []string{"a", "b"}},
		{`cp -t dest a b`, []string{"dest", "dest/a", "dest/b"}, []string{"a", "b"}},
		{`cp --suffix .x a b`, []string{"b", "b/a"}, []string{"a"}},
		{`install -m 644 -o root f /usr/local/bin/f`, []string{"/usr/local/bin/f", "/usr/local/bin/f/f"}, []string{"f"}},
		{`install -d -m 755 d1 d2`, []string{"d1", "d2"}, nil},
		{`ln -sf target link`, []string{"link"}, nil},
		{`ln -s /x/y`, []string{"y"}, nil},
		{`ln -t dir a b`, []string{"dir"}, nil},
		{`rsync -avz -e ssh --exclude .git src/ host:dst/`, []string{"host:dst/"}, []string{"src/"}},
		{`rsync --exclude-from list a b c`, []string{"c", "c/a", "c/b"}, []string{"a", "b"}},
		{`rsync host:x`, nil, nil},
		{`scp -P 22 -i key a b host:/tmp/`, []string{"host:/tmp/", "host:/tmp/a", "host:/tmp/b"}, []string{"a", "b"}},
		// Mode and owner changers.
		{`chmod -R 755 d f`, []string{"d", "f"}, nil},
		{`chmod -x f`, []string{"f"}, nil},
		{`chmod u+x,go-w f`, []string{"f"}, nil},
		{`chmod --reference=r f`, []string{"f"}, nil},
		{`chmod --reference r f`, []string{"f"}, nil},
		{`chown -R root:root /etc/x`, []string{"/etc/x"}, nil},
		{`chown --from root user f`, []string{"f"}, nil},
		{`chgrp --reference=r f`, []string{"f"}, nil},
		// In-place editors.
		{`sed -i 's/a/b/' f1 f2`, []string{"f1", "f2"}, nil},
		{`sed -i.bak -e 's/a/b/' -e 's/c/d/' f`, []string{"f", "f.bak"}, nil},
		{`sed -i'' 's/a/b/' f`, []string{"f"}, nil},
		{`sed -Ei 's/a/b/' f`, []string{"f"}, nil},
		{`sed -ie 's/a/b/' f`, []string{"f", "fe"}, nil}, // suffix "e": the script is an operand
		{`sed --in-place=.orig -f script.sed f`, []string{"f", "f.orig"}, []string{"script.sed"}},
		{`sed -i'c' -e p .envr`, []string{".envr", ".envrc"}, nil},
		{`sed -i'bak/*.old' s/a/b/ d/f`, []string{"d/f", "bak/f.old"}, nil},
		{`sed -f /h/.ssh/id_rsa README.md`, nil, []string{"README.md", "/h/.ssh/id_rsa"}},
		{`sed -i '' 's/a/b/' f`, []string{"f"}, nil},
		{`sed -i .bak 's/a/b/' f`, []string{"f"}, nil},
		{`sed -n '1,5p' secret`, nil, []string{"secret"}},
		{`gsed -i s/a/b/ f`, []string{"f"}, nil},
		{`perl -pi -e 's/a/b/' f1 f2`, []string{"f1", "f2"}, nil},
		{`perl -i.bak -pe 's/a/b/' f`, []string{"f"}, nil},
		{`perl -i -p script.pl f`, []string{"f"}, nil},
		{`perl -lane 'print' f`, nil, []string{"f"}},
		// Other writers.
		{`dd if=/dev/zero of=/dev/sda bs=1M`, []string{"/dev/sda"}, []string{"/dev/zero"}},
		{`dd if=/etc/shadow`, nil, []string{"/etc/shadow"}},
		{`curl -fsSL -o out https://x`, []string{"out"}, nil},
		{`curl -fsSLo out https://x`, []string{"out"}, nil},
		{`curl --output out2 -H 'a: b' https://x -oout3 --output=out4`, []string{"out2", "out3", "out4"}, nil},
		{`curl -D headers -c jar -o - https://x`, []string{"headers", "jar"}, nil},
		{`curl -d -o https://x`, nil, nil}, // -o is -d's data
		{`wget -O out https://x`, []string{"out"}, nil},
		{`wget --output-document=out -o log https://x`, []string{"out", "log"}, nil},
		{`wget -qO- https://x`, nil, nil},
		{`wget --post-fi=.env --body-file b -i urls https://x`, nil, []string{".env", "b", "urls"}},
		{`curl -d @.env --data-binary @b --data-raw @c -F f=@d -F 'g=<e;type=text/plain' -T up https://x`, nil, []string{".env", "b", "d", "e", "up"}},
		{`curl --data-urlencode name@f --data-urlencode a=b@c -b jar -b 'k=v' https://x`, nil, []string{"f", "jar"}},
		{`xxd -r dump bin`, []string{"bin"}, nil},
		{`xxd -l 64 bin`, nil, []string{"bin"}},
		{`find /tmp -name '*.log' -delete`, []string{`"/tmp/**/*.log"*`}, nil},
		{`find . -maxdepth 1 -type f -name '*.log' -delete`, []string{`"./**/*.log"*`}, nil},
		{`find .env -name .env -delete`, []string{`".env/**/.env"*`, ".env"}, nil},
		{`find . -iname '*.PYC' -delete`, []string{`"./**/*.[pP][yY][cC]"*`}, nil},
		{`find . -name '*' -delete`, []string{"."}, nil},
		{`find . -name '*.pyc' -o -name x -delete`, []string{"."}, nil},
		{`find . -delete -name '*.pyc'`, []string{"."}, nil},
		{`find . -name '[a].pyc' -delete`, []string{"."}, nil},
		{`find . -name a -delete -name b -delete`, []string{"."}, nil},
		{`find -type f -delete`, []string{"."}, nil},
		{`find . -fprint list -exec echo -delete \;`, []string{"list"}, nil},
		{`find . -name -delete -print`, nil, nil},
		{`find . -fprintf out '%p -delete' -type f`, []string{"out"}, nil},
		{`find src -newermt yesterday -delete`, []string{"src"}, nil},
		{`find src -newermt -delete -print`, nil, nil},
		{`git rm -rf . > /dev/null`, []string{"/dev/null", "."}, nil},
		{`git rm --cached -r .env`, nil, nil},
		{`git -C sub mv a b`, []string{"a", "b"}, []string{"a"}},
		{`git checkout HEAD -- .env x`, []string{".env", "x"}, nil},
		{`git status .env`, nil, nil},
		{`git show HEAD:.env`, nil, []string{"HEAD:.env", ".env"}},
		{`git -c core.quotepath=off add .env`, nil, []string{".env", "."}}, // and what it selects below .
		{`git add -n .`, nil, nil},
		{`git add`, nil, nil},
		{`git add -A`, nil, []string{"."}},
		{`git clean -fdx`, nil, nil},
		// ssh reads its config file and the words of the remote command,
		// not its identity file, which it never shows; it writes its log.
		{`ssh -i ~/.ssh/id -F cfg -E log -p 22 host cat f`, []string{"log"}, []string{"cfg", "22", "host", "cat", "f"}},
		// Readers.
		{`cat -n .env - "$F"`, nil, []string{".env", `"$F"?`}},
		{`tac -s x f`, nil, []string{"f"}},
		{`head -n 5 a -c10 b`, nil, []string{"a", "b"}},
		{`head -5 a`, nil, []string{"a"}},
		{`tail -f -n +20 --pid 12 log`, nil, []string{"log"}},
		{`less -p pat +G f`, nil, []string{"f"}},
		{`more +10 f`, nil, []string{"f"}},
		{`bat -l json --style=plain f`, nil, []string{"f"}},
		{`nl -b a f`, nil, []string{"f"}},
		{`base64 -w 0 f`, nil, []string{"f"}},
		{`base64 -i f -o out`, []string{"out"}, []string{"f"}},
		{`base64 -d -o .claude/settings.json a.txt`, []string{".claude/settings.json"}, []string{"a.txt"}},
		{`base64 --decode --output=x a.txt`, []string{"x"}, []string{"a.txt"}},
		{`od -A x -t x1z f`, nil, []string{"f"}},
		{`hexdump -C -n 64 f`, nil, []string{"f"}},
		{`strings -n 8 bin`, nil, []string{"bin"}},
		{`diff -u a b`, nil, []string{"a", "b"}},
		{`diff --from-file=a b c`, nil, []string{"b", "c", "a"}},
		{`grep -rn pattern src`, nil, []string{"src"}},
		{`grep -r pattern`, nil, []string{"."}},
		{`grep -e pat -e pat2 f1 f2`, nil, []string{"f1", "f2"}},
		{`grep --regexp=pat -A 3 f`, nil, []string{"f"}},
		{`grep -f patterns f`, nil, []string{"f"}},
		{`egrep 'a|b' f`, nil, []string{"f"}},
		{`fgrep -- -x f`, nil, []string{"f"}},
		{`echo x | grep y`, nil, nil},
		{`rg -g '*.go' -t go TODO`, nil, []string{"."}},
		{`rg -e TODO src lib`, nil, []string{"src", "lib"}},
		{`rg --files src`, nil, nil},
		{`awk '{print $1}' f`, nil, []string{"f"}},
		{`awk -F: -v x=1 'NR==1' x=2 /etc/passwd`, nil, []string{"/etc/passwd"}},
		{`awk -f prog.awk f`, nil, []string{"f", "prog.awk"}},
		{`sort < in > out`, []string{"out"}, []string{"in"}},
		{`source .env`, nil, nil},
		{`. ./env.sh`, nil, []string{"./env.sh"}},
		{`source .venv/bin/../../key.pem`, nil, []string{".venv/bin/../../key.pem"}},
		{`source config/.env.local`, nil, nil},
		{`. .envrc`, nil, nil},
		// Through wrappers, and the real log lines.
		{`echo x | sudo tee -a /etc/hosts >/dev/null`, []string{"/dev/null", "/etc/hosts"}, nil},
		{`source /Users/dalton/projects/teamwork/.env 2>/dev/null`, []string{"/dev/null"}, nil},
		{`npm test 2>&1`, nil, []string{"test"}},
		// Programs not listed may read whatever their arguments name, in
		// every form programs take a file name.
		{`sort -u .env`, nil, []string{".env"}},
		{`curlish -d @.env --input=cfg x=y`, nil, []string{`"@.env"`, ".env", "cfg", "x=y", "y"}},
		{`git show :0:.env`, nil, []string{":0:.env", "0:.env", ".env"}},
		// Rewriters: the operand they write.
		{`sort -o out.txt -k2 in.txt`, []string{"out.txt"}, []string{"in.txt"}},
		{`sort --out=out.txt in.txt`, []string{"out.txt"}, []string{"in.txt"}},
		{`uniq -c in.txt out.txt`, []string{"out.txt"}, []string{"in.txt"}},
		{`patch -p1 f.go fix.diff`, []string{"f.go"}, []string{"fix.diff"}},
		{`patch -p1 -i fix.diff`, []string{`"<files the patch names>"?`}, []string{"fix.diff"}},
		{`ex -sc 'd|x' notes.md`, []string{"notes.md"}, nil},
		{`vim -u NONE -c wq +5 a.txt`, []string{"a.txt"}, nil},
		{`sponge out.txt`, []string{"out.txt"}, nil},
		{`mkfifo -m 600 p`, []string{"p"}, nil},
		{`mknod n p`, []string{"n"}, nil},
		{`gzip big.log`, []string{"big.log"}, []string{"big.log"}},
		{`gzip -k big.log`, nil, []string{"big.log"}},
		{`gunzip -c x.gz`, nil, []string{"x.gz"}},
		{`unzip -o a.zip -d out`, []string{"out"}, []string{"a.zip"}},
		{`unzip a.zip`, nil, []string{"a.zip"}},
		{`scpish .env host:/tmp/x https://h:1/p`, nil, []string{".env", "host:/tmp/x", "/tmp/x", "https://h:1/p"}},
		{`tool "$F"`, nil, []string{`"$F"?`}},
		{`echo .env >> .gitignore`, []string{".gitignore"}, nil},
		{`export F=.env`, nil, nil},
		{`sudo rm -rf /etc`, []string{"/etc"}, nil},
		{`echo / | xargs rm -rf`, []string{"/"}, nil},
		{`find . -name -delete -print`, nil, nil},
		{`find . -exec echo -delete \; -print`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s := mustParse(t, tt.src, testOpts)
			// The last command, unless the line starts with find: then
			// find itself, listed before its -exec command.
			c := s.Commands[len(s.Commands)-1]
			if strings.HasPrefix(tt.src, "find ") {
				c = s.Commands[0]
			}
			if got := showWords(c.Writes()); !slices.Equal(got, nonNil(tt.writes)) {
				t.Errorf("%s\nWrites %q, want %q", show(c), got, tt.writes)
			}
			if got := showWords(c.Reads()); !slices.Equal(got, nonNil(tt.reads)) {
				t.Errorf("%s\nReads %q, want %q", show(c), got, tt.reads)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Writes and Reads must not write into the command's own words.
func TestWritesKeepArgs(t *testing.T) {
	s := mustParse(t, `cat - a - b`, testOpts)
	c := s.Commands[0]
	before := showWords(c.Args)
	r := c.Reads()
	r = append(r, Word{Value: "z"})
	_ = r
	if after := showWords(c.Args); !slices.Equal(before, after) {
		t.Errorf("Args changed: %q -> %q", before, after)
	}
	s = mustParse(t, `xxd a b c`, testOpts)
	c = s.Commands[0]
	w := c.Writes()
	_ = append(w, Word{Value: "z"})
	if c.Args[2].Value != "c" {
		t.Errorf("Args changed: %q", showWords(c.Args))
	}
}
