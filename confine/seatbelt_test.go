package confine

import (
	"strings"
	"testing"
)

// The profile is tested as text: it has not run on a Mac here.
func TestSeatbeltProfileFollowsThePlan(t *testing.T) {
	pl := Plan{
		Writable:  []string{"/Users/me/proj", "/private/tmp", `/Users/me/odd "dir"`},
		ReadOnly:  []string{"/Users/me/proj/.claude"},
		MaskFiles: []string{"/Users/me/proj/.env", "/Users/me/.git-credentials"},
		MaskDirs:  []string{"/Users/me/proj/secrets"},
	}
	got := pl.Seatbelt()
	want := `(version 1)
(allow default)
(deny file-write* (subpath "/"))
(allow file-write*
  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")
  (regex #"^/dev/tty") (regex #"^/dev/fd/")
  (subpath "/Users/me/proj")
  (subpath "/private/tmp")
  (subpath "/Users/me/odd \"dir\""))
(deny file-write*
  (subpath "/Users/me/proj/.claude"))
(deny file-read* file-write*
  (literal "/Users/me/proj/.env")
  (literal "/Users/me/.git-credentials")
  (subpath "/Users/me/proj/secrets"))
`
	if got != want {
		t.Errorf("profile\n%s\nwant\n%s", got, want)
	}
	// In SBPL the last matching rule decides: the writes allowed must come
	// after the deny of everything, and the guards' files and the secrets
	// after the writes allowed.
	all, allow, ro, mask := strings.Index(got, `(deny file-write* (subpath "/"))`), strings.Index(got, "(allow file-write*"), strings.Index(got, "(deny file-write*\n"), strings.Index(got, "(deny file-read* file-write*")
	if !(all < allow && allow < ro && ro < mask) {
		t.Errorf("rules out of order: %d %d %d %d", all, allow, ro, mask)
	}
	argv := Argv(SandboxExec, pl, "", 3, "/bin/bash", "echo hi")
	if len(argv) != 6 || argv[0] != SandboxExec || argv[1] != "-p" || argv[2] != want || argv[3] != "/bin/bash" || argv[5] != "echo hi" {
		t.Errorf("sandbox-exec argv: %q", argv)
	}
}

func TestSeatbeltProfileWithNothingProtected(t *testing.T) {
	got := Plan{Writable: []string{"/p"}}.Seatbelt()
	if strings.Contains(got, "file-read*") || strings.Count(got, "(deny") != 1 {
		t.Errorf("a plan with no masks or read-only folders:\n%s", got)
	}
}
