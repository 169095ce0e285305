package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellHidesDots: what the shell starts with decides whether a * may
// name a dot file: its name, its environment, the files it and the
// user's interactive shell read, and Claude Code's snapshots of that.
func TestStartupHidesDots(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   []string
		files map[string]string // under the home
		hides bool
	}{
		{"bash, nothing set", []string{"SHELL=/bin/bash"}, nil, true},
		{"no SHELL", nil, nil, true},
		{"zsh", []string{"SHELL=/usr/bin/zsh"}, nil, true},
		{"fish", []string{"SHELL=/usr/bin/fish"}, nil, false},
		{"GLOBIGNORE", []string{"GLOBIGNORE=x"}, nil, false},
		{"BASHOPTS", []string{"BASHOPTS=checkwinsize:dotglob"}, nil, false},
		{"BASHOPTS without it", []string{"BASHOPTS=checkwinsize"}, nil, true},
		{"bashrc", nil, map[string]string{".bashrc": "alias ll='ls -l'\nshopt -s dotglob\n"}, false},
		{"zshrc", nil, map[string]string{".zshrc": "setopt GLOB_DOTS\n"}, false},
		{"zshrc, other spelling", nil, map[string]string{".zshrc": "setopt Glob_Dots\n"}, false},
		{"ZDOTDIR", []string{"ZDOTDIR=HOME/zdot"}, map[string]string{"zdot/.zshenv": "setopt globdots\n"}, false},
		{"BASH_ENV", []string{"BASH_ENV=HOME/rc"}, map[string]string{"rc": "GLOBIGNORE=.:..\n"}, false},
		{"profile, harmless", nil, map[string]string{".profile": "export PATH=$HOME/bin:$PATH\n"}, true},
		{"startup file too large", nil, map[string]string{".bashrc": strings.Repeat("#\n", maxStartupFile)}, false},
		{"snapshot with dotglob", nil, map[string]string{".claude/shell-snapshots/snapshot-bash-1-a.sh": "# Shopt\nshopt -u extglob\nshopt -s dotglob\n"}, false},
		{"snapshot with globdots", nil, map[string]string{".claude/shell-snapshots/snapshot-zsh-1-a.sh": "# Shell Options\nsetopt globdots\n"}, false},
		{"snapshot without", nil, map[string]string{".claude/shell-snapshots/snapshot-bash-1-a.sh": "# Shopt\nshopt -u dotglob\nshopt -s checkwinsize\n"}, true},
		{"snapshot function", nil, map[string]string{".claude/shell-snapshots/snapshot-bash-1-a.sh": "shopt -u dotglob\neval -- f\\ \\(\\)\\ \\{\\ shopt\\ -s\\ dotglob\\;\\ \\} > /dev/null 2>&1\n"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			for name, text := range tc.files {
				p := filepath.Join(home, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var env []string
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "HOME", home))
			}
			if got := startupHidesDots(env, home); got != tc.hides {
				t.Errorf("startupHidesDots = %v, want %v", got, tc.hides)
			}
		})
	}
}

func TestExtglobAsAny(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ext      bool
	}{
		{"*.go", "*.go", false},
		{"@(.env)", "*", true},
		{".@(env|x)", ".*", true},
		{"*(D)", "*", true},
		{"a+(b|c(d))e", "a*e", true},
		{`\@(x)`, `\@(x)`, false},
		{"!(a.txt)*", "*", true},
		{"@(unclosed", "@(unclosed", false},
	} {
		got, ext := extglobAsAny(tc.in)
		if got != tc.want || ext != tc.ext {
			t.Errorf("extglobAsAny(%q) = %q, %v; want %q, %v", tc.in, got, ext, tc.want, tc.ext)
		}
	}
}

func TestShellSkips(t *testing.T) {
	for _, tc := range []struct {
		pattern, match string
		skips          bool
	}{
		{"/p/*", "/p/.env", true},
		{"/p/?env", "/p/.env", true},
		{"/p/*/x", "/p/.git/x", true},
		{"/p/.*", "/p/.env", false},
		{"/p/*", "/p/a.txt", false},
		{"/p/.config/*", "/p/.config/a", false},
		{"/p/**/*", "/p/.env", false}, // find's model: it names dot files
		{"/p//*", "/p/.env", false},   // cleaned by Glob: not judged
		{"/p/\\*x", "/p/.x", false},
	} {
		if got := shellSkips(tc.pattern, tc.match); got != tc.skips {
			t.Errorf("shellSkips(%q, %q) = %v, want %v", tc.pattern, tc.match, got, tc.skips)
		}
	}
}
