package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The release pipeline end to end: scripts/release.sh builds the binary for
// this machine (make release builds six the same way), then the dist folder
// is served over loopback HTTP as a published release to the scripts that
// download releases: fetch-release.sh, the GitHub Action's install step and
// the plugin launcher's first use; and pre-commit runs it as a hook.

const testRelease = "v0.0.0-test"

// TestRelease builds one release binary and runs its subtests against it.
func TestRelease(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	if testing.Short() {
		t.Skip("builds a release binary; skipped in -short mode")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the release scripts are sh scripts")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH; cannot build a release")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	build := exec.Command("sh", filepath.Join(repo, "scripts", "release.sh"))
	build.Env = append(os.Environ(), "VERSION="+testRelease, "DIST="+dist, "PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH)
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	t.Logf("release.sh for %s/%s: %v", runtime.GOOS, runtime.GOARCH, time.Since(start).Round(time.Millisecond))
	r := &release{repo: repo, dist: dist, name: "massgen-hook_" + testRelease + "_" + runtime.GOOS + "_" + runtime.GOARCH}
	r.binary = filepath.Join(dist, r.name)
	r.sum = fileSHA256(t, r.binary)
	good := httptest.NewServer(http.FileServer(http.Dir(dist)))
	defer good.Close()
	r.url = good.URL
	// A release whose SHA256SUMS does not match its binary (a corrupt or
	// replaced download).
	tampered := http.NewServeMux()
	tampered.HandleFunc("/SHA256SUMS", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "%s  %s\n", strings.Repeat("0", 64), r.name)
	})
	tampered.Handle("/", http.FileServer(http.Dir(dist)))
	bad := httptest.NewServer(tampered)
	defer bad.Close()
	r.tamperedURL = bad.URL

	t.Run("Dist", r.testDist)
	t.Run("Fetch", r.testFetch)
	t.Run("ActionInstall", r.testActionInstall)
	t.Run("PluginFirstUse", r.testPluginFirstUse)
	t.Run("PreCommit", r.testPreCommit)
}

type release struct {
	repo, dist, name, binary, sum string
	url, tamperedURL              string
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(data))
}

// testDist: the dist folder holds the binary and a SHA256SUMS naming it, and
// the binary is static, stripped, built with -trimpath, and reports the
// release version.
func (r *release) testDist(t *testing.T) {
	entries, err := os.ReadDir(r.dist)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"SHA256SUMS", r.name}; !slices.Equal(names, want) {
		t.Errorf("dist holds %q, want %q", names, want)
	}
	sums, err := os.ReadFile(filepath.Join(r.dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if want := r.sum + "  " + r.name + "\n"; string(sums) != want {
		t.Errorf("SHA256SUMS = %q, want %q", sums, want)
	}
	info, err := buildinfo.ReadFile(r.binary)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	// (With -trimpath the go command does not record -ldflags; -s and -w
	// are checked on the binary, -X by version below.)
	if settings["-trimpath"] != "true" || settings["CGO_ENABLED"] != "0" {
		t.Errorf("build settings %v: want -trimpath and CGO_ENABLED=0", settings)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(r.binary)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the binary names a dynamic loader: not static")
			}
		}
		if f.Section(".symtab") != nil {
			t.Error("the binary has a symbol table: not stripped (-s)")
		}
		if f.Section(".debug_info") != nil {
			t.Error("the binary has DWARF: not built with -w")
		}
	}
	out, err := exec.Command(r.binary, "version", "--format", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var facts struct {
		Version, Go, OS, Arch string
		Settings              map[string]string
	}
	if err := json.Unmarshal(out, &facts); err != nil {
		t.Fatalf("version --format json: %v\n%s", err, out)
	}
	if facts.Version != testRelease || facts.Go != info.GoVersion || facts.OS != runtime.GOOS || facts.Arch != runtime.GOARCH {
		t.Errorf("version --format json: %+v", facts)
	}
	if fmt.Sprint(facts.Settings) != fmt.Sprint(settings) {
		t.Errorf("version --format json settings %v, the binary's build information %v", facts.Settings, settings)
	}
	out, err = exec.Command(r.binary, "--version").Output()
	if want := "massgen-hook " + testRelease + " (" + info.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"; err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("--version: %v %q, want it to start %q", err, out, want)
	}
}

// script runs an sh script with env added to a clean environment.
func script(path string, env []string, args ...string) hookRun {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("sh", append([]string{path}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return finish(cmd.Run(), &stdout, &stderr)
}

// testFetch: fetch-release.sh installs a binary only when its checksum
// matches, and says why when it does not.
func (r *release) testFetch(t *testing.T) {
	fetch := filepath.Join(r.repo, "scripts", "fetch-release.sh")
	otherSums := filepath.Join(t.TempDir(), "SHA256SUMS")
	if err := os.WriteFile(otherSums, []byte(r.sum+"  massgen-hook_"+testRelease+"_plan9_386\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     []string
		args    []string
		code    int
		stderr  string // the last line of stderr
		install bool
	}{
		{name: "http", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url}, install: true},
		{name: "file URL", env: []string{"MASSGEN_HOOK_RELEASE_URL=file://" + r.dist}, install: true},
		{name: "SHA256SUMS given", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url}, args: []string{filepath.Join(r.dist, "SHA256SUMS")}, install: true},
		{name: "expected SHA-256 matches", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url, "MASSGEN_HOOK_SHA256=" + r.sum}, install: true},
		{
			name: "SHA256SUMS mismatch", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.tamperedURL}, code: 1,
			stderr: "massgen-hook fetch: checksum mismatch for " + r.name + ": SHA256SUMS says " + strings.Repeat("0", 64) + ", the download is " + r.sum + "; nothing installed",
		},
		{
			name: "expected SHA-256 mismatch", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url, "MASSGEN_HOOK_SHA256=" + strings.Repeat("1", 64)}, code: 1,
			stderr: "massgen-hook fetch: checksum mismatch for " + r.name + ": expected " + strings.Repeat("1", 64) + ", the download is " + r.sum + "; nothing installed",
		},
		{
			name: "not a release", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url + "/nothing"}, code: 1,
			stderr: "massgen-hook fetch: cannot download " + r.url + "/nothing/SHA256SUMS (is " + testRelease + " a published release?)",
		},
		{
			name: "not in SHA256SUMS", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url}, args: []string{otherSums}, code: 1,
			stderr: "massgen-hook fetch: " + otherSums + " lists no " + r.name,
		},
		{
			name: "unknown CPU", env: []string{"MASSGEN_HOOK_RELEASE_URL=" + r.url, "MASSGEN_HOOK_ARCH=mips"}, code: 2,
			stderr: "massgen-hook fetch: no release binary for CPU mips (amd64, arm64)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "bin", "massgen-hook")
			res := script(fetch, tt.env, append([]string{testRelease, dest}, tt.args...)...)
			if res.err != nil || res.code != tt.code {
				t.Fatalf("exit %d (%v), want %d; stderr:\n%s", res.code, res.err, tt.code, res.stderr)
			}
			if lines := strings.Split(strings.TrimSpace(res.stderr), "\n"); lines[len(lines)-1] != tt.stderr {
				t.Errorf("stderr:\n%s\nwant its last line:\n%s", res.stderr, tt.stderr)
			}
			if !tt.install {
				// Nothing at DEST, and no partial download beside it.
				if left, _ := filepath.Glob(filepath.Join(dir, "bin", "*")); len(left) > 0 {
					t.Errorf("left behind %q", left)
				}
				return
			}
			if got := fileSHA256(t, dest); got != r.sum {
				t.Errorf("installed a binary with SHA-256 %s, want %s", got, r.sum)
			}
			if fi, err := os.Stat(dest); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("installed binary: %v %v", fi.Mode(), err)
			}
		})
	}
	if res := script(fetch, nil, "v1 2", "x"); res.code != 2 {
		t.Errorf("a version with a space: exit %d, %q", res.code, res.stderr)
	}
}

// runnerNames are GitHub's names for this machine's platform.
func runnerNames(t *testing.T) (string, string) {
	os := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if os == "" || arch == "" {
		t.Skipf("GitHub has no runner for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return os, arch
}

// testActionInstall: the Action's install step puts the verified binary on
// the job's PATH, and fails the job, installing nothing, when the checksum
// does not match.
func (r *release) testActionInstall(t *testing.T) {
	install := filepath.Join(r.repo, "scripts", "action-install.sh")
	runnerOS, runnerArch := runnerNames(t)
	run := func(t *testing.T, url, version string, extra ...string) (hookRun, string, string) {
		dir := filepath.Join(t.TempDir(), "tool")
		githubPath := filepath.Join(t.TempDir(), "github_path")
		env := append([]string{"RUNNER_OS=" + runnerOS, "RUNNER_ARCH=" + runnerArch, "GITHUB_PATH=" + githubPath, "MASSGEN_HOOK_RELEASE_URL=" + url}, extra...)
		res := script(install, env, version, dir)
		path, _ := os.ReadFile(githubPath)
		return res, dir, string(path)
	}
	t.Run("installs", func(t *testing.T) {
		res, dir, path := run(t, r.url, testRelease)
		if res.code != 0 || res.err != nil || res.stderr != "" {
			t.Fatalf("exit %d (%v), stderr %q", res.code, res.err, res.stderr)
		}
		if want := "massgen-hook " + testRelease + " ("; !strings.HasPrefix(res.stdout, want) {
			t.Errorf("stdout %q, want it to start %q", res.stdout, want)
		}
		if path != dir+"\n" {
			t.Errorf("GITHUB_PATH = %q, want %q", path, dir+"\n")
		}
		if got := fileSHA256(t, filepath.Join(dir, "massgen-hook")); got != r.sum {
			t.Errorf("installed SHA-256 %s", got)
		}
	})
	failures := []struct {
		name, url, version string
		env                []string
		code               int
		message            string
	}{
		{"checksum mismatch", r.tamperedURL, testRelease, nil, 1, "massgen-hook fetch: checksum mismatch for " + r.name + ": SHA256SUMS says"},
		{"sha256 input mismatch", r.url, testRelease, []string{"INPUT_SHA256=" + strings.Repeat("f", 64)}, 1, "massgen-hook fetch: checksum mismatch for " + r.name + ": expected " + strings.Repeat("f", 64)},
		{"branch, not a release", r.url, "main", nil, 2, `massgen-hook action: no release version (got "main"): use massgen/massgen-hook@vX.Y.Z or set with: version: vX.Y.Z`},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			res, dir, path := run(t, f.url, f.version, f.env...)
			if res.code != f.code || !strings.HasPrefix(res.stderr, f.message) || strings.Count(res.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line starting %q", res.code, res.stderr, f.code, f.message)
			}
			if _, err := os.Stat(filepath.Join(dir, "massgen-hook")); err == nil || path != "" {
				t.Errorf("a failed install left a binary or a PATH entry (%q)", path)
			}
		})
	}
}

// pluginTools is a PATH folder with the tools the plugin launcher uses on
// first use, and no go.
func pluginTools(t *testing.T) string {
	t.Helper()
	tools := t.TempDir()
	for _, name := range []string{"sh", "dirname", "uname", "sed", "head", "mkdir", "cp", "mv", "rm", "rmdir", "find", "sleep", "awk", "curl", "chmod", "sha256sum", "cat"} {
		real, err := exec.LookPath(name)
		if err != nil {
			t.Skip(name, " not found")
		}
		if err := os.Symlink(real, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	return tools
}

// pluginRoot makes a plugin folder with the launcher's files from repo and,
// when sums is not empty, a hooks/SHA256SUMS holding it.
func pluginRoot(t *testing.T, repo, sums string) string {
	t.Helper()
	root := t.TempDir()
	for _, rel := range []string{"hooks/massgen-hook.sh", "hooks/first-use.sh", "scripts/fetch-release.sh"} {
		data, err := os.ReadFile(filepath.Join(repo, rel))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, rel, string(data))
		if err := os.Chmod(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if sums != "" {
		writeFile(t, root, "hooks/SHA256SUMS", sums)
	}
	return root
}

// catEnvIn is Claude Code's PreToolUse event for `cat .env` in project.
func catEnvIn(project string) string {
	return `{"session_id":"plugin","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_use_id":"toolu_1","cwd":"` + project + `"}`
}

// launch runs the plugin's launcher as Claude Code runs a plugin hook.
func launch(root, path, project, stdin string, env ...string) hookRun {
	return launchArgs(root, path, project, stdin, []string{"pre-tool-use"}, env...)
}

func launchArgs(root, path, project, stdin string, args []string, env ...string) hookRun {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(root, "hooks", "massgen-hook.sh"), args...)
	cmd.Dir = project
	cmd.Env = append([]string{"CLAUDE_PLUGIN_ROOT=" + root, "CLAUDE_PROJECT_DIR=" + project, "HOME=" + project, "PATH=" + path}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return finish(cmd.Run(), &stdout, &stderr)
}

// testPluginFirstUse: without Go, the plugin's first hook call installs the
// pinned release (or the binary shipped in the plugin) and answers at once:
// its guards deny `cat .env`. A download that does not match the plugin's
// SHA256SUMS is not run.
func (r *release) testPluginFirstUse(t *testing.T) {
	tools := pluginTools(t)
	project := t.TempDir()
	writeFile(t, project, ".env", "SECRET=1\n")
	sums, err := os.ReadFile(filepath.Join(r.dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	denies := func(t *testing.T, res hookRun) {
		t.Helper()
		if res.code != 0 || res.err != nil || res.stderr != "" || !strings.Contains(res.stdout, `"permissionDecision":"deny"`) {
			t.Errorf("exit %d (%v), stdout %q, stderr %q; want a deny", res.code, res.err, res.stdout, res.stderr)
		}
	}
	t.Run("pinned release", func(t *testing.T) {
		root := pluginRoot(t, r.repo, string(sums))
		denies(t, launch(root, tools, project, catEnvIn(project), "MASSGEN_HOOK_RELEASE_URL="+r.url))
		if got := fileSHA256(t, filepath.Join(root, "bin", "massgen-hook")); got != r.sum {
			t.Errorf("bin/massgen-hook has SHA-256 %s, want the release's %s", got, r.sum)
		}
		// Later calls run it without downloading: the release is gone.
		denies(t, launch(root, tools, project, catEnvIn(project), "MASSGEN_HOOK_RELEASE_URL=file:///nonexistent"))
	})
	t.Run("shipped binary", func(t *testing.T) {
		root := pluginRoot(t, r.repo, "")
		data, err := os.ReadFile(r.binary)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "bin/massgen-hook_"+runtime.GOOS+"_"+runtime.GOARCH, string(data))
		if err := os.Chmod(filepath.Join(root, "bin", "massgen-hook_"+runtime.GOOS+"_"+runtime.GOARCH), 0o755); err != nil {
			t.Fatal(err)
		}
		denies(t, launch(root, tools, project, catEnvIn(project)))
	})
	t.Run("checksum mismatch", func(t *testing.T) {
		root := pluginRoot(t, r.repo, strings.Repeat("0", 64)+"  "+r.name+"\n")
		res := launch(root, tools, project, catEnvIn(project), "MASSGEN_HOOK_RELEASE_URL="+r.url)
		want := "massgen-hook fetch: checksum mismatch for " + r.name + ": SHA256SUMS says " + strings.Repeat("0", 64) + ", the download is " + r.sum + "; nothing installed\n" +
			"massgen-hook plugin: could not fetch release " + testRelease + "; building from source instead\n" +
			"massgen-hook plugin: no release binary for " + runtime.GOOS + "/" + runtime.GOARCH + " and Go is not installed to build one; run make build in " + root + "\n"
		if res.code != 1 || res.stdout != "" || res.stderr != want {
			t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", res.code, res.stdout, res.stderr, want)
		}
		if left, _ := filepath.Glob(filepath.Join(root, "bin", "*")); len(left) > 0 {
			t.Errorf("left in bin: %q", left)
		}
	})
}
