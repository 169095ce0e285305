package testrace

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// Enabled must say what the binary was built with: a wrong answer would
// skip a test in every run, or run it under the detector it avoids.
func TestEnabledIsTheBuildsRaceFlag(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information in this test binary")
	}
	race := false
	for _, s := range info.Settings {
		if s.Key == "-race" {
			race = s.Value == "true"
		}
	}
	if Enabled != race {
		t.Errorf("Enabled = %v, but the binary's -race setting is %v", Enabled, race)
	}
}

// Every test that calls Skip must be run without the detector by make
// test: named in the Makefile's NORACE_RUN, its package in NORACE_PKGS.
// A test left out would run in no job at all.
func TestMakefileRunsEverySkippedTest(t *testing.T) {
	root := filepath.Join("..", "..")
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(makefile), "\n") {
		if k, v, ok := strings.Cut(line, " := "); ok && strings.HasPrefix(k, "NORACE_") {
			vars[k] = strings.ReplaceAll(v, "$$", "$")
		}
	}
	run, err := regexp.Compile(vars["NORACE_RUN"])
	if err != nil || vars["NORACE_RUN"] == "" {
		t.Fatalf("the Makefile's NORACE_RUN %q is no pattern: %v", vars["NORACE_RUN"], err)
	}
	pkgs := strings.Fields(vars["NORACE_PKGS"])
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "bin" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir // builds, fixtures, git
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !callsSkip(fn.Body) {
				continue
			}
			found++
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			pkg := "./" + filepath.ToSlash(rel)
			if !run.MatchString(fn.Name.Name) || !slices.Contains(pkgs, pkg) {
				t.Errorf("%s calls testrace.Skip, but the Makefile's NORACE_RUN does not name it or NORACE_PKGS %q lacks %s", fn.Name.Name, pkgs, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no test calls testrace.Skip: this test reads the source wrong")
	}
}

// callsSkip reports whether body calls testrace.Skip.
func callsSkip(body *ast.BlockStmt) bool {
	calls := false
	ast.Inspect(body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testrace" && sel.Sel.Name == "Skip" {
				calls = true
			}
		}
		return !calls
	})
	return calls
}
