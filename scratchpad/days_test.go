package scratchpad

import (
	"testing"
	"time"
)

func TestDayOf(t *testing.T) {
	tests := []struct {
		name string
		day  string
		ok   bool
	}{
		{"2026-11-20.md", "2026-11-20", true},
		{"2024-02-29.md", "2024-02-29", true},
		{"1999-12-31.md", "1999-12-31", true},
		{"2026-11-20.txt", "", false},
		{"2026-11-20.MD", "", false},
		{"2026-11-20", "", false},
		{"2026-11-20.md.bak", "", false},
		{".2026-11-20.md", "", false},
		{"2026-11-20.md~", "", false},
		{"2026-02-30.md", "", false},
		{"2025-02-29.md", "", false},
		{"2026-13-01.md", "", false},
		{"2026-00-10.md", "", false},
		{"2026-01-32.md", "", false},
		{"2026-1-01.md", "", false},
		{"2026-01-1.md", "", false},
		{"26-01-01.md", "", false},
		{"20260-01-01.md", "", false},
		{"2026-01-011.md", "", false},
		{"2026/01/01.md", "", false},
		{"2026_01_01.md", "", false},
		{"abcd-ef-gh.md", "", false},
		{" 026-01-01.md", "", false},
		{"notes.md", "", false},
		{".md", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			day, ok := DayOf(tt.name)
			if day != tt.day || ok != tt.ok {
				t.Errorf("DayOf(%q) = %q, %v; want %q, %v", tt.name, day, ok, tt.day, tt.ok)
			}
		})
	}
}

func TestFileNameAndToday(t *testing.T) {
	if got := FileName("2026-01-02"); got != "2026-01-02.md" {
		t.Errorf("FileName = %q", got)
	}
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.Local)
	if got := Today(now); got != "2026-03-04" {
		t.Errorf("Today = %q", got)
	}
	if day, ok := DayOf(FileName(Today(now))); !ok || day != "2026-03-04" {
		t.Errorf("DayOf(FileName(Today)) = %q, %v", day, ok)
	}
}
