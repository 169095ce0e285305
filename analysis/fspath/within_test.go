package fspath

import "testing"

func TestRel(t *testing.T) {
	for _, tc := range []struct {
		p, root string
		fold    bool
		rel     string
		ok      bool
	}{
		{"/a", "/a", false, ".", true},
		{"/a/b", "/a", false, "b", true},
		{"/a/b/c", "/a", false, "b/c", true},
		{"/ab", "/a", false, "", false},
		{"/ab/c", "/a", false, "", false},
		{"/a", "/ab", false, "", false},
		{"/", "/a", false, "", false},
		{"/a", "/a/b", false, "", false},
		{"/x", "/", false, "x", true},
		{"/", "/", false, ".", true},
		{"/a/b", "/a/", false, "b", true},
		{"/a.b", "/a", false, "", false},
		{"/a-b/c", "/a", false, "", false},
		// Relative names compare the same way.
		{".claude/observed/x", ".claude/observed", false, "x", true},
		// Case: only with fold; the rest keeps the path's spelling.
		{"/Users/Me/Proj/.ENV", "/Users/me/proj", false, "", false},
		{"/Users/Me/Proj/.ENV", "/Users/me/proj", true, ".ENV", true},
		{"/USERS/ME/PROJ", "/Users/me/proj", true, ".", true},
		{"/Users/me/projx", "/Users/me/PROJ", true, "", false},
	} {
		rel, ok := Rel(tc.p, tc.root, tc.fold)
		if rel != tc.rel || ok != tc.ok {
			t.Errorf("Rel(%q, %q, fold %v) = %q, %v; want %q, %v", tc.p, tc.root, tc.fold, rel, ok, tc.rel, tc.ok)
		}
		if got := Within(tc.p, tc.root, tc.fold); got != tc.ok {
			t.Errorf("Within(%q, %q, fold %v) = %v, want %v", tc.p, tc.root, tc.fold, got, tc.ok)
		}
	}
}
