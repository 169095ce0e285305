package cli

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/massgen/massgen-hook/internal/lazy"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
)

// probeAgent is the agent the probes run as: a name of doctor's own, so a
// probe never acts as one of the user's agents (whatever $MASSGEN_AGENT_ID
// says in doctor's shell, or whose workspace the throwaway project is).
const probeAgent = "massgen-doctor-probe"

// probeEnvDropped are the variables of doctor's shell the probes do not
// inherit: which project and config (the throwaway copy's instead), the
// CLI's switch (the probes try the hooks regardless), who the agent is
// (probeAgent instead), the broker's URL (the probes use no broker), and
// recording (a probe is no event of the user's).
var probeEnvDropped = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"CLAUDE_PROJECT_DIR": true, "MASSGEN_HOOK_CONFIG": true, "CLAUDE_ENV_FILE": true,
		"GEMINI_PROJECT_DIR": true, "CURSOR_PROJECT_DIR": true, "COPILOT_PROJECT_DIR": true,
		disableEnv: true, "MASSGEN_AGENT_ID": true, "MASSGEN_ORCHESTRATOR_ID": true,
		config.NATSURLEnv: true, recordEnv: true,
	}
}}

// probeConfig is the config the probes run with: the project's, byte for
// byte (so what a child reports of it is at the same file:line), except
// that the inbox is the file backend and there is no audit copy on NATS.
// A probe then reaches no broker: it would take real messages off it,
// make consumers, and publish audit lines and delivery records.
//
// The two values are replaced where they are written. A config the hooks
// cannot read is returned as it is: the hooks then run the built-in
// defaults, which use no broker. An error says the copy could not be made
// sure of (a value written through an alias, say): the probes must not
// run then.
func probeConfig(path string, data []byte) ([]byte, error) {
	orig, err := config.Parse(path, data)
	if err != nil {
		return data, nil
	}
	if !usesBroker(&orig) {
		return data, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("the config does not parse as YAML here: %v", err)
	}
	var edits []edit
	for _, want := range []struct{ section, key, value string }{
		{"inbox", "backend", config.BackendFile},
		{"audit", "sink", `""`},
	} {
		v := mappingValue(mappingValue(doc.Content[0], want.section), want.key)
		if v == nil || v.Kind != yaml.ScalarNode || v.Value != config.BackendNATS {
			continue
		}
		e, err := scalarEdit(data, v, want.value)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", want.section, want.key, err)
		}
		edits = append(edits, e)
	}
	out := applyEdits(data, edits)
	cfg, err := config.Parse(path, out)
	if err != nil || usesBroker(&cfg) {
		return nil, errors.New("inbox.backend or audit.sink is written in a way doctor cannot switch off in its copy (through an alias or a merge key)")
	}
	return out, nil
}

func usesBroker(cfg *config.Config) bool {
	return cfg.Inbox.UsesNATS() || cfg.Audit.Sink == config.BackendNATS
}

// mappingValue is the value of key in mapping node m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	var found *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			found = m.Content[i+1] // a key given twice counts as the last
		}
	}
	return found
}

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// scalarEdit replaces scalar v, found at its line and column, with text;
// it checks that the bytes there are the scalar as written.
func scalarEdit(data []byte, v *yaml.Node, text string) (edit, error) {
	line := v.Line
	start := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return edit{}, errors.New("its value is not where the parser says")
		}
		start += i + 1
	}
	for col := 1; col < v.Column && start < len(data); col++ {
		_, size := utf8.DecodeRune(data[start:])
		start += size
	}
	token := v.Value
	switch v.Style {
	case yaml.DoubleQuotedStyle:
		token = `"` + token + `"`
	case yaml.SingleQuotedStyle:
		token = `'` + token + `'`
	case 0:
	default:
		return edit{}, errors.New("its value is written in a style doctor does not rewrite")
	}
	if !bytes.HasPrefix(data[start:], []byte(token)) {
		return edit{}, errors.New("its value is not where the parser says")
	}
	return edit{start: start, end: start + len(token), text: text}, nil
}

// applyEdits applies non-overlapping edits, from the last.
func applyEdits(data []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), data...)
	for _, e := range edits {
		var b strings.Builder
		b.Write(out[:e.start])
		b.WriteString(e.text)
		b.Write(out[e.end:])
		out = []byte(b.String())
	}
	return out
}
