package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command a person runs has help with an example: the README is not
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
	walk(a.rootCommand())
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
