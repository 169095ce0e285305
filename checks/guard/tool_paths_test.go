package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// patchInput is apply_patch's tool_input (Codex's shape; the Copilot
// dialect gives its raw patch text the same one).
func patchInput(patch string) string {
	b, _ := json.Marshal(map[string]string{"command": patch})
	return string(b)
}

// TestProtectedApplyPatch: every file an apply_patch touches is judged,
// added, updated and moved-to files as writes, deleted and moved-from ones
// as deletes (which protected paths treat as writes), relative to the
// call's cwd.
func TestProtectedApplyPatch(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	for _, tc := range []struct {
		name, patch, want string
	}{
		{"update of a key file", "*** Begin Patch\n*** Update File: deploy/server.key\n@@\n-SECRET=1\n+PWNED\n*** End Patch\n",
			protectedDenial(true, "deploy/server.key", "**/*.key")},
		{"the guards' own config", "*** Begin Patch\n*** Update File: .claude/massgen-hook.yaml\n@@\n-default_guards: true\n+default_guards: false\n*** End Patch",
			protectedDenial(true, ".claude/massgen-hook.yaml", ".claude/massgen-hook.yaml")},
		{"an add", "*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch", protectedDenial(true, ".env", "**/.env")},
		{"a delete", "*** Begin Patch\n*** Delete File: .git/HEAD\n*** End Patch", protectedDenial(true, ".git/HEAD", "**/.git/**")},
		{"a move onto a protected file", "*** Begin Patch\n*** Update File: notes.md\n*** Move to: .claude/settings.json\n@@\n+x\n*** End Patch",
			protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"a move away from one", "*** Begin Patch\n*** Update File: id_rsa\n*** Move to: backup.txt\n@@\n+x\n*** End Patch",
			protectedDenial(true, "id_rsa", "**/id_rsa")},
		{"the second of two files", "*** Begin Patch\n*** Add File: docs/notes.md\n+hi\n*** Delete File: .env.local\n*** End Patch",
			protectedDenial(true, ".env.local", "**/.env.*")},
		{"a heredoc around it", "<<'EOF'\n*** Begin Patch\n*** Delete File: .env\n*** End Patch\nEOF",
			protectedDenial(true, ".env", "**/.env")},
		{"outside the project", "*** Begin Patch\n*** Add File: /etc/massgen-test/x.conf\n+x\n*** End Patch",
			outsideDenial("/etc/massgen-test/x.conf", g.Project)},
		{"ordinary files", "*** Begin Patch\n*** Add File: docs/notes.md\n+hi\n*** Update File: src/a.go\n*** Move to: src/b.go\n@@\n-a\n+b\n*** End Patch", ""},
		{"a template is not a secret", "*** Begin Patch\n*** Add File: .env.example\n+X=\n*** End Patch", ""},
		// Codex refuses these too: denied, saying why.
		{"not a patch", "rm -rf .git", applyPatchUnreadable("invalid patch: the first line of the patch must be '*** Begin Patch'")},
		{"a broken change", "*** Begin Patch\n*** Update File: a\n@@\n?\n*** End Patch",
			applyPatchUnreadable(`invalid patch at line 4: unexpected line "?" in a change: each starts with ' ', '+' or '-'`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch", Input: patchInput(tc.patch)}), tc.want)
		})
	}
	// Paths are relative to the call's cwd.
	sub := filepath.Join(g.Project, "sub")
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch", Cwd: sub,
		Input: patchInput("*** Begin Patch\n*** Add File: ../.env\n+x\n*** End Patch")}), protectedDenial(true, ".env", "**/.env"))
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch", Cwd: sub,
		Input: patchInput("*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch")}), protectedDenial(true, "sub/.env", "**/.env"))
	// Through a symlink: an update writes the file it points at; a delete
	// removes the link only.
	if err := os.Symlink(".env", filepath.Join(g.Project, "env-link")); err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch",
		Input: patchInput("*** Begin Patch\n*** Update File: env-link\n@@\n+x\n*** End Patch")}), protectedDenial(true, "env-link", "**/.env"))
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch",
		Input: patchInput("*** Begin Patch\n*** Delete File: env-link\n*** End Patch")}), "")
	// An apply_patch without patch text names no file.
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "apply_patch", Input: `{"input":"x"}`}), "")
}

// TestProtectedPathLists: tools that take several paths (Copilot CLI's
// grep and rg, whose dialect names them Grep, and Gemini CLI's
// read_many_files) have each one judged.
func TestProtectedPathLists(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	envAbs := filepath.Join(g.Project, ".env")
	for _, tc := range []struct {
		tool, input, want string
	}{
		{"Grep", `{"pattern":"SECRET","paths":["` + envAbs + `"]}`, protectedDenial(false, ".env", "**/.env")},
		{"Grep", `{"pattern":"SECRET","paths":["src","docs/.netrc"]}`, protectedDenial(false, "docs/.netrc", "**/.netrc")},
		{"Grep", `{"pattern":"SECRET","paths":".env"}`, protectedDenial(false, ".env", "**/.env")},
		{"Grep", `{"pattern":"SECRET","paths":["src","docs"]}`, ""},
		{"Grep", `{"pattern":"SECRET","paths":[42,".env"]}`, protectedDenial(false, ".env", "**/.env")},
		// Grep's own path is still judged beside them.
		{"Grep", `{"pattern":"SECRET","paths":["src"],"path":".env"}`, protectedDenial(false, ".env", "**/.env")},
		// Glob lists names: its paths are not reads.
		{"Glob", `{"pattern":"*","paths":[".env"]}`, ""},
		{"read_many_files", `{"include":["README.md",".env"]}`, protectedDenial(false, ".env", "**/.env")},
		{"read_many_files", `{"include":["src/**/*.go"]}`, ""},
		{"str_replace_editor", `{"command":"insert","path":".claude/settings.json","insert_line":1,"new_str":"x"}`,
			protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"str_replace_editor", `{"command":"insert","path":"notes.md","insert_line":1,"new_str":"x"}`, ""},
	} {
		t.Run(tc.tool+" "+tc.input, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input}), tc.want)
		})
	}
}
