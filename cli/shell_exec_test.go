package cli

import (
	"strings"
	"testing"
)

func TestParseShellExec(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		prog, project string
		err           string
	}{
		{[]string{"--project", "/p", "--", "npx", "-y", "x"}, "npx -y x", "/p", ""},
		{[]string{"--project", "/p", "--args-added", "--", "/opt/s"}, "/opt/s", "/p", ""},
		{[]string{"--", "cat", "--", "x"}, "cat -- x", "", ""},
		{[]string{"--project", "/p"}, "", "", "no -- before the program"},
		{[]string{"--project"}, "", "", "--project needs a folder"},
		{[]string{"--", ""}, "", "", "no program after --"},
		{[]string{"npx", "--"}, "", "", `unknown word "npx" before --`},
	} {
		prog, project, err := parseShellExec(tc.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err || strings.Join(prog, " ") != tc.prog || project != tc.project {
			t.Errorf("parseShellExec(%q) = %q, %q, %v; want %q, %q, %s", tc.args, prog, project, err, tc.prog, tc.project, tc.err)
		}
	}
}
