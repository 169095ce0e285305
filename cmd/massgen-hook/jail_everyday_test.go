package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// everydayDriver plays Claude Code inside the outer jail: each step runs
// through the shell prefix as Claude Code runs a Bash command (eval of the
// command, then its capture of the working directory), and the next step
// starts in the directory the last one ended in, as Claude Code carries a
// cd over. It prints one line per step: "STEP name exit N".
const everydayDriver = `
cwd=` + jailProject + `
step() {
  name=$1; shift
  (cd "$cwd" && ` + jailRoot + `/bin/massgen-hook-shell "eval $(printf %q "$1") < /dev/null && pwd -P >| /tmp/claude-cwd")
  code=$?
  [ -s /tmp/claude-cwd ] && cwd=$(cat /tmp/claude-cwd) && : > /tmp/claude-cwd
  echo "STEP $name exit $code"
}
`

// everydaySteps are the everyday work an agent does, each of which must
// pass under confinement with the default policy (no confine.writable).
var everydaySteps = []struct{ name, command string }{
	{"go build", "go build -o demo . && ./demo"},
	{"go test", "go test ./..."},
	{"npm test", "printf '{\"name\":\"d\",\"version\":\"1.0.0\",\"scripts\":{\"test\":\"node t.js\"}}' > package.json && echo 'console.log(\"npm ok\")' > t.js && npm test"},
	{"git commit", "echo more >> README.md && git add README.md && git commit -q -m more"},
	{"git branch", "git branch topic && git switch -q topic && echo t > t.txt && git add t.txt && git commit -q -m topic"},
	{"git stash", "echo wip >> README.md && git stash -q && git stash pop -q && git checkout -q README.md"},
	{"git rebase", "git switch -q main && echo m > m.txt && git add m.txt && git commit -q -m m && git switch -q topic && git rebase -q main"},
	{"make", "printf 'all:\\n\\techo built > out.txt\\n' > Makefile && make -s && cat out.txt"},
	{"python venv", "python3 -m venv .venv && .venv/bin/python -c 'import sys; print(sys.prefix)'"},
	{"background server", "python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1 & echo $! > /tmp/server.pid"},
	{"server reachable", "for i in $(seq 50); do curl -sf http://127.0.0.1:8765/README.md >/dev/null && break; sleep 0.1; done; curl -sf http://127.0.0.1:8765/README.md | head -1"},
	{"server stopped", "kill $(cat /tmp/server.pid)"},
	{"cd sub && make", "mkdir -p sub && printf 'all:\\n\\techo sub > here.txt\\n' > sub/Makefile && cd sub && make -s"},
	{"relies on the new cwd", "test -f here.txt && test -f Makefile && pwd"},
}

// TestEverydayWorkUnderConfinement runs everyday work for real, confined,
// inside the outer jail (so nothing leaves the scratch folder), and
// requires every step to pass with no confine.writable entry.
func TestEverydayWorkUnderConfinement(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs builds in a bubblewrap jail; skipped in -short mode")
	}
	j := newJail(t, attackFixture(t))
	j.timeout = 5 * time.Minute // a first go build fills an empty build cache
	script := everydayDriver
	for _, s := range everydaySteps {
		script += fmt.Sprintf("step %s %s\n", shellQuoteTest(s.name), shellQuoteTest(s.command))
	}
	_, out := j.run(jailProject, "", "/bin/bash", "-c", script)
	for _, s := range everydaySteps {
		m := regexp.MustCompile(`(?m)^STEP ` + regexp.QuoteMeta(s.name) + ` exit (\d+)$`).FindStringSubmatch(out)
		if m == nil || m[1] != "0" {
			t.Errorf("%s (%s) did not pass under confinement", s.name, s.command)
		}
	}
	for _, want := range []string{"hello", "npm ok", "built", jailProject + "/.venv", "# demo", jailProject + "/sub"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

// TestNpmInstallUnderConfinement installs a small package from the npm
// registry, confined, in a jail that keeps the network (an everyday
// command, not an attack), then runs npm test on it. Skipped, and says
// why, where the registry cannot be reached.
func TestNpmInstallUnderConfinement(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("downloads from the npm registry; skipped in -short mode")
	}
	if out, err := exec.Command("npm", "view", "is-number@7.0.0", "version", "--fetch-timeout=5000", "--fetch-retries=0").Output(); err != nil || strings.TrimSpace(string(out)) != "7.0.0" {
		t.Skipf("the npm registry cannot be reached from here (%v)", err)
	}
	j := newJail(t, attackFixture(t))
	j.network = true
	j.timeout = 2 * time.Minute
	j.write("proj/package.json", `{"name":"d","version":"1.0.0","scripts":{"test":"node t.js"}}`+"\n", 0o644)
	j.write("proj/t.js", "console.log(require('is-number')(5))\n", 0o644)
	code, out := j.confined(jailProject, "npm install --no-audit --no-fund is-number@7.0.0 && npm test")
	if code != 0 || !strings.Contains(out, "true") {
		t.Errorf("npm install, then npm test, confined: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(j.scratch, "proj", "node_modules", "is-number", "package.json")); err != nil {
		t.Errorf("the package is not in the project: %v", err)
	}
	if _, err := os.Stat(filepath.Join(j.scratch, "home", ".npm")); err != nil {
		t.Errorf("npm's cache was not written: %v", err)
	}
}
