package scratchpad

import (
	"errors"
	"strings"
	"testing"
)

func TestDirName(t *testing.T) {
	tests := []struct {
		agent, def, want string
	}{
		{"", "general-purpose", "general-purpose"},
		{"", "plugin:x", "plugin%3Ax"},
		{"Explore", "general-purpose", "Explore"},
		{"code-reviewer_2.1", "", "code-reviewer_2.1"},
		{"plugin:reviewer", "", "plugin%3Areviewer"},
		{"my agent", "", "my%20agent"},
		{"café", "", "caf%C3%A9"},
		{"漢", "", "%E6%BC%A2"},
		{"100%", "", "100%25"},
		{"a%3Ab", "", "a%253Ab"},
		{".hidden", "", "%2Ehidden"},
		{"...", "", "%2E.."},
		{"a.b.", "", "a.b."},
		{"+~*?<>|\"'", "", "%2B%7E%2A%3F%3C%3E%7C%22%27"},
		{"\x7f\x01\xff", "", "%7F%01%FF"},
		{"ego", "", "ego"},
		{"coordinator", "", "coordinator"},
		{strings.Repeat("a", maxNameLen), "", strings.Repeat("a", maxNameLen)},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			got, err := DirName(tt.agent, tt.def)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DirName(%q, %q) = %q, want %q", tt.agent, tt.def, got, tt.want)
			}
		})
	}
}

func TestDirNameErrors(t *testing.T) {
	tests := []struct {
		agent, def, msg string
	}{
		{"", "", "is empty"},
		{".", "", "is not a directory name"},
		{"..", "", "is not a directory name"},
		{"", "..", "is not a directory name"},
		{"a/b", "", "contains a path separator"},
		{"/abs", "", "contains a path separator"},
		{"..\\x", "", "contains a path separator"},
		{"a\\b", "", "contains a path separator"},
		{"../etc", "", "contains a path separator"},
		{"", "../x", "contains a path separator"},
		{"a\x00b", "", "contains a NUL byte"},
		{"\x00", "", "contains a NUL byte"},
		{strings.Repeat("a", maxNameLen+1), "", "is too long"},
		{strings.Repeat(":", maxNameLen/3+1), "", "is too long"},
		{strings.Repeat("é", 40), "", "is too long"}, // 80 bytes, 240 encoded
	}
	for _, tt := range tests {
		t.Run(tt.agent+"|"+tt.def, func(t *testing.T) {
			got, err := DirName(tt.agent, tt.def)
			if got != "" {
				t.Errorf("got %q with an error", got)
			}
			var ne *NameError
			if !errors.As(err, &ne) {
				t.Fatalf("error %v (%T), want *NameError", err, err)
			}
			if !strings.Contains(ne.Msg, tt.msg) {
				t.Errorf("NameError.Msg = %q, want %q", ne.Msg, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "agent type ") {
				t.Errorf("error text %q", err)
			}
		})
	}
}

var nameSamples = []string{
	"general-purpose", "Explore", "plugin:reviewer", "plugin%3Areviewer", "a:b", "a%3Ab", "a%253Ab",
	"my agent", "my%20agent", "my+agent", "café", "cafe\u0301", "漢字", "😀", ".hidden", "%2Ehidden",
	"...", "a.", "a..b", "100%", "%", "%%", "%2", "%zz", "\xff", "%FF", "%ff", "A", "a", "-", "_",
	"coordinator", "ego", "tab\there", "new\nline", "semi;colon", "x=y&z",
}

func TestDisplayNameRoundTrip(t *testing.T) {
	for _, name := range nameSamples {
		dir, err := DirName(name, "")
		if err != nil {
			t.Errorf("DirName(%q): %v", name, err)
			continue
		}
		if got := DisplayName(dir); got != name {
			t.Errorf("DisplayName(DirName(%q)) = DisplayName(%q) = %q", name, dir, got)
		}
	}
}

func TestDirNameInjective(t *testing.T) {
	seen := map[string]string{}
	for _, name := range nameSamples {
		dir, err := DirName(name, "")
		if err != nil {
			t.Fatalf("DirName(%q): %v", name, err)
		}
		if prev, ok := seen[dir]; ok && prev != name {
			t.Errorf("%q and %q both map to %q", prev, name, dir)
		}
		seen[dir] = name
	}
}

func TestDisplayNameOfForeignDirs(t *testing.T) {
	// Directories not made by DirName are shown as they are when they do not decode.
	for dir, want := range map[string]string{
		"plain":      "plain",
		"100%":       "100%",
		"bad%zzname": "bad%zzname",
		"%E6%BC%A2":  "漢",
		"a+b":        "a+b",
		// A name on disk is decoded only when it is DirName's own spelling
		// of what it decodes to: these are not, and are shown literally.
		"a%2Fb":             "a%2Fb",         // a path separator
		"%2e%2e":            "%2e%2e",        // "..", in lower case
		"%2E%2E":            "%2E%2E",        // "..", as DirName would never write it
		"%2E":               "%2E",           // "."
		"a%00b":             "a%00b",         // a NUL
		"%63oordinator":     "%63oordinator", // "coordinator", a plain letter encoded
		"%e6%bc%a2":         "%e6%bc%a2",     // lower-case hex
		"%2Ehidden%2E":      "%2Ehidden%2E",  // a leading dot is encoded, a later one is not...
		"%2Ehidden.":        ".hidden.",      // ...so this is the canonical spelling
		"plugin%3areviewer": "plugin%3areviewer",
	} {
		if got := DisplayName(dir); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", dir, got, want)
		}
	}
}

func TestIsReserved(t *testing.T) {
	for dir, want := range map[string]bool{"coordinator": true, "ego": true, "Coordinator": false, "ego2": false, "": false} {
		if got := IsReserved(dir); got != want {
			t.Errorf("IsReserved(%q) = %v", dir, got)
		}
	}
}
