package main

import (
	"strings"
	"testing"
)

func TestFirstLineWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"nothing", nil, ""},
		{"one line", []string{"boom\n"}, "boom"},
		{"no newline", []string{"boom"}, "boom"},
		{"split across writes", []string{"bo", "om\nsecond\n"}, "boom"},
		{"skips blank lines", []string{"\n  \n", "real error\nmore"}, "real error"},
		{"later writes ignored", []string{"first\n", "second\n"}, "first"},
		{"long line cut", []string{strings.Repeat("x", 2*maxStderrLine) + "\n"}, strings.Repeat("x", maxStderrLine)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w firstLineWriter
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := w.line(); got != tt.want {
				t.Errorf("line() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExecRunner(t *testing.T) {
	sh := &Command{Argv: []string{"sh", "-c", `cat; printf 12345; echo "$K" >&2; exit 3`}, Env: map[string]string{"K": "from env"}}
	if err := sh.resolve(); err != nil {
		t.Skip("no sh:", err)
	}
	s, err := newExecRunner().Run(sh)
	if err != nil {
		t.Fatal(err)
	}
	if s.ExitCode != 3 || s.StderrLine != "from env" || s.StdoutBytes != 5 || s.Wall <= 0 {
		t.Errorf("sample = %+v", s)
	}
}
