package scratchpad

import (
	"reflect"
	"testing"
)

func TestCheckFiles(t *testing.T) {
	l := checkTree(t)
	rep, err := l.Check("2026-01-02", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	want := []FileResult{
		{Dir: "alice", Agent: "alice", Date: "2026-01-02", Path: sp + "alice/2026-01-02.md", Missing: []string{"Unresolved"}},
		{Dir: EgoDir, Agent: EgoDir, Date: "2026-01-02", Path: sp + "ego/2026-01-02.md"},
		{Dir: "plugin%3Areviewer", Agent: "plugin:reviewer", Date: "2026-01-02", Path: sp + "plugin%3Areviewer/2026-01-02.md", Missing: DefaultSections},
		{Dir: "zed", Agent: "zed", Date: "2026-01-02", Path: sp + "zed/2026-01-02.md"},
	}
	for i := range rep.Files {
		if len(rep.Files[i].Missing) == 0 {
			rep.Files[i].Missing = nil
		}
	}
	if !reflect.DeepEqual(rep.Files, want) {
		t.Errorf("Files =\n%+v\nwant\n%+v", rep.Files, want)
	}
	if len(rep.Files) != rep.FilesChecked {
		t.Errorf("%d Files, FilesChecked %d", len(rep.Files), rep.FilesChecked)
	}
}

func TestGrid(t *testing.T) {
	l := checkTree(t)
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	const (
		__ = CellIdle
		ok = CellCompliant
		in = CellIncomplete
		mi = CellMissing
		un = CellUnreadable
	)
	want := Grid{
		// The ego's 2026-01-02 is in no row; "evil" (escapes the root) has
		// no files to show.
		Dates: []string{"2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"},
		Rows: []GridRow{
			// 2026-01-04: bob's file is a symlink loop, so it is not
			// evidence of delegation and the coordinator owes nothing.
			{Dir: CoordinatorDir, Agent: CoordinatorDir, Cells: []Cell{ok, mi, un, __}},
			{Dir: "alice", Agent: "alice", Cells: []Cell{ok, in, __, __}},
			{Dir: "bob", Agent: "bob", Cells: []Cell{__, __, ok, un}},
			{Dir: "plugin%3Areviewer", Agent: "plugin:reviewer", Cells: []Cell{__, in, __, __}},
			{Dir: "zed", Agent: "zed", Cells: []Cell{__, ok, __, __}},
		},
	}
	if got := rep.Grid(); !reflect.DeepEqual(got, want) {
		t.Errorf("Grid =\n%+v\nwant\n%+v", got, want)
	}

	// One date: one column; the coordinator's row even without its file.
	rep, err = l.Check("2026-01-02", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Grid()
	if !reflect.DeepEqual(g.Dates, []string{"2026-01-02"}) || len(g.Rows) != 4 || g.Rows[0].Cells[0] != mi {
		t.Errorf("Grid(2026-01-02) = %+v", g)
	}
}

func TestGridEmpty(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, l.File(EgoDir, "2026-01-05"), "") // the ego alone: nothing to show
	for _, day := range []string{"", "2026-01-05", "2026-01-06"} {
		rep, err := l.Check(day, DefaultSections)
		if err != nil {
			t.Fatal(err)
		}
		if g := rep.Grid(); g.Dates != nil || g.Rows != nil {
			t.Errorf("Check(%q).Grid() = %+v, want none", day, g)
		}
	}
}

func TestGridSameDisplayName(t *testing.T) {
	// "a%zz" is not a valid encoding and shows as it is; "a%25zz" decodes
	// to the same text. Both get a row, in a fixed order.
	rep := &Report{Files: []FileResult{
		{Dir: "a%zz", Agent: DisplayName("a%zz"), Date: "2026-01-01"},
		{Dir: "a%25zz", Agent: DisplayName("a%25zz"), Date: "2026-01-01"},
		{Dir: CoordinatorDir, Agent: CoordinatorDir, Date: "2026-01-01"},
	}}
	g := rep.Grid()
	var dirs []string
	for _, r := range g.Rows {
		dirs = append(dirs, r.Dir)
	}
	if want := []string{CoordinatorDir, "a%25zz", "a%zz"}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("rows %q, want %q", dirs, want)
	}
}
