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
}
