package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestGenerate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "scratchpad")
	if err := generate(root, 12, 5, time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{ // sorted: agent01, agent02, agent03, coordinator, ego
		"agent01":     {"2000-01-01.md", "2000-01-02.md", "2000-01-03.md"},
		"agent02":     {"2000-01-01.md", "2000-01-02.md", "2000-01-03.md"},
		"agent03":     {"2000-01-01.md", "2000-01-02.md"},
		"coordinator": {"2000-01-01.md", "2000-01-02.md"},
		"ego":         {"2000-01-01.md", "2000-01-02.md"},
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Fatalf("%d directories, want %d", len(entries), len(want))
	}
	for dir, files := range want {
		got, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(files) {
			t.Errorf("%s: %d files, want %d", dir, len(got), len(files))
			continue
		}
		for i, e := range got {
			if e.Name() != files[i] {
				t.Errorf("%s: file %d is %s, want %s", dir, i, e.Name(), files[i])
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(root, "agent01", "2000-01-03.md"))
	if err != nil || string(data) != content {
		t.Errorf("content %q, %v", data, err)
	}
}

func TestGenerateRejects(t *testing.T) {
	if err := generate(t.TempDir(), 10, 2, time.Now()); err == nil {
		t.Error("2 agents accepted")
	}
	if err := generate(t.TempDir(), -1, 50, time.Now()); err == nil {
		t.Error("negative count accepted")
	}
}
