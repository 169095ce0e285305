package cli

import (
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/config"
)

// The probes' copy of the config uses no broker, and everything else in it
// stays byte for byte where it was (a child's file:line stays true).
func TestProbeConfigSwitchesTheBrokerOff(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"plain":  {"inbox:\n  backend: nats  # shared\n  url: nats://h:4222\naudit:\n  sink: nats\n", "inbox:\n  backend: file  # shared\n  url: nats://h:4222\naudit:\n  sink: \"\"\n"},
		"quoted": {"inbox:\n  backend: \"nats\"\naudit: {sink: 'nats'}\n", "inbox:\n  backend: file\naudit: {sink: \"\"}\n"},
		"flow":   {"inbox: {url: \"nats://é:1\", backend: nats}\n", "inbox: {url: \"nats://é:1\", backend: file}\n"},
		"twice":  {"inbox:\n  backend: nats\n  backend: nats\n", ""},
		"file":   {"inbox:\n  backend: file\n", "inbox:\n  backend: file\n"},
		"broken": {"inbox: [\n", "inbox: [\n"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := probeConfig("c.yaml", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				// A config the hooks cannot read runs the defaults: no broker.
				if _, perr := config.Parse("c.yaml", out); perr == nil {
					t.Fatalf("a config with a key given twice now parses: %q", out)
				}
				return
			}
			if string(out) != c.want {
				t.Fatalf("got %q, want %q", out, c.want)
			}
		})
	}
}

// A value doctor cannot switch off where it is written stops the probes.
func TestProbeConfigRefusesWhatItCannotSwitchOff(t *testing.T) {
	in := "agents:\n  - id: a\n    workspace: &b nats\ninbox:\n  backend: *b\n"
	if cfg, err := config.Parse("c.yaml", []byte(in)); err != nil || !cfg.Inbox.UsesNATS() {
		t.Fatalf("the config should use NATS through an alias (%v)", err)
	}
	if _, err := probeConfig("c.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("want a refusal naming the alias, got %v", err)
	}
}
