package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command a person runs has help with an example: the docs are not
// at hand in a terminal.
func TestEveryCommandHasAnExample(t *testing.T) {
	a := &app{getenv: func(string) string { return "" }}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			if sub.Runnable() && strings.TrimSpace(sub.Example) == "" {
				t.Errorf("%s has no Example", sub.CommandPath())
			}
			if sub.Short == "" {
				t.Errorf("%s has no Short help", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(a.rootCommand(nil))
}

// Shell completion is generated for the shells cobra knows.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		var out, errOut bytes.Buffer
		code := Main([]string{"completion", shell}, strings.NewReader(""), &out, &errOut)
		if code != 0 || !strings.Contains(out.String(), "massgen-hook") || errOut.Len() > 0 {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", shell, code, out.Len(), errOut.String())
		}
	}
}

// A hook builds its own subcommand alone; the names it is found by must be
// the commands' own, or that subcommand would silently get the whole tree
// (slower) and a renamed one could never be built alone.
func TestSubcommandNames(t *testing.T) {
	a := &app{}
	all := a.rootCommand(nil).Commands()
	if got, want := len(all), len(subcommands()); got < want {
		t.Fatalf("whole tree has %d commands, want at least %d", got, want)
	}
	for _, sc := range subcommands() {
		cmds := (&app{}).rootCommand([]string{sc.name, "--flag"}).Commands()
		if len(cmds) != 1 || cmds[0].Name() != sc.name {
			t.Errorf("rootCommand(%q): built %d commands; want only %q", sc.name, len(cmds), sc.name)
		}
	}
	if n := len((&app{}).rootCommand([]string{"help", "check"}).Commands()); n != len(all) {
		t.Errorf("help check: built %d commands, want the whole tree (%d)", n, len(all))
	}
	// --version first prints the version whatever follows: no command is
	// needed. With help asked for too, the help is the whole tree's.
	for _, args := range [][]string{{"--version"}, {"-v"}, {"--version", "chek"}, {"-v", "check", "--format", "json"}} {
		if n := len((&app{}).rootCommand(args).Commands()); n != 0 {
			t.Errorf("%q: built %d commands, want none", args, n)
		}
	}
	for _, args := range [][]string{{"--version", "--help"}, {"-v", "-h"}, {"check", "--version"}} {
		if n := len((&app{}).rootCommand(args).Commands()); n == 0 {
			t.Errorf("%q: built no command, want the tree", args)
		}
	}
}

// Root help introduces the tool and lists every command in its group:
// setting up, operating, and the hooks the CLIs run.
func TestRootHelpGroupsCommands(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"--help"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("--help: exit %d, stderr %q", code, errOut.String())
	}
	help := out.String()
	headings := []string{"Set up a project:", "While agents work:", "Hooks (run by the agent CLIs"}
	last := -1
	for _, h := range headings {
		i := strings.Index(help, h)
		if i < last {
			t.Fatalf("heading %q missing or out of order in:\n%s", h, help)
		}
		last = i
	}
	for _, sc := range subcommands() {
		var heading string
		switch sc.group {
		case setupGroup:
			heading = headings[0]
		case operatingGroup:
			heading = headings[1]
		case hooksGroup:
			heading = headings[2]
		default:
			t.Fatalf("%s has no group", sc.name)
		}
		section := help[strings.Index(help, heading):]
		if end := strings.Index(section, "\n\n"); end >= 0 {
			section = section[:end]
		}
		if sc.name != "observe-run" && !strings.Contains(section, "\n  "+sc.name+" ") {
			t.Errorf("%s is not listed under %q", sc.name, heading)
		}
	}
	if !strings.Contains(help, "massgen-hook init") {
		t.Errorf("root help does not say where to start:\n%s", help)
	}
}
