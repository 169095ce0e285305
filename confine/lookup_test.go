package confine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLookupOutsideSkipsWritableFolders: a bwrap in a folder on PATH that
// confined commands may write (the project, a cache, a confine.writable
// folder) is never the one found: whoever finds it runs it unconfined.
func TestLookupOutsideSkipsWritableFolders(t *testing.T) {
	root := t.TempDir()
	project, cache, extra, trusted := filepath.Join(root, "proj"), filepath.Join(root, "cache"), filepath.Join(root, "extra"), filepath.Join(root, "usr")
	for _, dir := range []string{project + "/bin", cache + "/bin", extra, trusted} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bwrap"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(project+"/bin", link); err != nil {
		t.Fatal(err)
	}
	p := &Policy{
		Project:  project,
		Writable: []string{extra},
		Caches:   []Cache{{Dir: cache}},
		Path:     "relative:" + link + ":" + project + "/bin:" + cache + "/bin:" + extra + ":" + trusted,
	}
	noEnv := func(string) string { return "" }
	if got, want := LookupOutside(noEnv, p), filepath.Join(trusted, "bwrap"); got != want {
		t.Errorf("LookupOutside = %q, want %q", got, want)
	}
	p.Path = project + "/bin"
	if got := LookupOutside(noEnv, p); got != "" {
		t.Errorf("LookupOutside with only the project's bin on PATH = %q, want none", got)
	}
	named := func(k string) string {
		if k == BwrapEnv {
			return "/opt/bwrap"
		}
		return ""
	}
	if got := LookupOutside(named, p); got != "/opt/bwrap" {
		t.Errorf("LookupOutside with %s set = %q, want the user's", BwrapEnv, got)
	}
}
