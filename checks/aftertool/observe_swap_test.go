package aftertool

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// TestObserveRunRefusesSwappedFile: the worker, which runs unconfined and
// after the hook has judged the path, copies only the file the hook
// judged. A file swapped in the meantime for a symlink to a secret, or a
// folder on its way swapped for a symlink to a folder of secrets (a
// background job of a confined command can wait for the job file and do
// it), is skipped: its copy would land in the observed folder, which the
// agent reads.
func TestObserveRunRefusesSwappedFile(t *testing.T) {
	for _, tc := range []struct {
		name, written string
		swap          func(t *testing.T, project string)
	}{
		{"the file", "out.txt", func(t *testing.T, project string) {
			replaceWithLink(t, filepath.Join(project, "out.txt"), ".env")
		}},
		{"a folder on its way", "sub/db.txt", func(t *testing.T, project string) {
			replaceWithLink(t, filepath.Join(project, "sub"), "secrets")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := checktest.NewGuardEnv(t)
			checktest.WriteFiles(t, g.Project, tc.written)
			if err := os.WriteFile(filepath.Join(g.Project, ".env"), []byte("API_KEY=SECRET-VALUE\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(g.Project, "secrets"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(g.Project, "secrets", "db.txt"), []byte("SECRET-VALUE\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			call := postCall(t, g, "Write", checktest.JsonInput("file_path", tc.written), `{}`)
			var jobFile string
			call.Detach = func(args ...string) error { jobFile = args[3]; return nil }
			if _, err := newObserveCheck(t, "").Check(context.Background(), call); err != nil {
				t.Fatal(err)
			}
			if jobFile == "" {
				t.Fatal("the hook queued no job")
			}
			tc.swap(t, g.Project)
			if err := RunObserverJob(g.State, g.Project, jobFile, observeNow); err != nil {
				t.Fatal(err)
			}
			_ = filepath.WalkDir(filepath.Join(g.Project, defaultObserveFolder), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if data, _ := os.ReadFile(p); strings.Contains(string(data), "SECRET-VALUE") {
						t.Errorf("the secret was copied to %s", p)
					}
				}
				return nil
			})
			if got := lastObserverAudit(t, g.State); got["outcome"] != "skipped" {
				t.Errorf("audit: %v, want skipped", got)
			}
		})
	}
}

// replaceWithLink replaces path by a symlink to target, as an agent's
// command would between the hook and the worker.
func replaceWithLink(t *testing.T, path, target string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
