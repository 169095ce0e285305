package config

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultRecordDir is where recordings go when record: names no dir,
// relative to the project: inside the runtime directory, so git ignores it.
const DefaultRecordDir = ".claude/massgen-hook/corpus"

// RecordEvents are the events that can be recorded: every event
// massgen-hook has a hook for.
var RecordEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "SessionStart", "SubagentStart", "SubagentStop", "Stop"}

// Record configures recording real hook events (redacted) into a corpus
// that `massgen-hook replay` runs through a config. The key switches it on:
// `record:` alone, `record: true` or a mapping; `record: false`, or no key,
// leaves it off.
type Record struct {
	// On is set by the key's presence.
	On bool
	// Dir is the corpus folder, relative to the project and inside it.
	Dir string
	// Events are the events recorded; empty is all of RecordEvents.
	Events []string
}

// Wants reports whether event is one to record.
func (r *Record) Wants(event string) bool {
	return len(r.Events) == 0 || slices.Contains(r.Events, event)
}

// UnmarshalYAML reads true, false or {dir, events}. A bare `record:` never
// gets here (the YAML library skips nulls): Parse sees to it. Keys are
// checked by hand, as the library does not carry strict checking into
// custom decoders.
func (r *Record) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var on bool
		if err := n.Decode(&on); err != nil {
			return err
		}
		*r = Record{On: on, Dir: DefaultRecordDir}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return typeError(n.Line, fmt.Sprintf("must be true, false, or a mapping with dir: and events:, got `%s`", n.Value))
	}
	if err := checkKeys(n, "Record", "dir", "events"); err != nil {
		return err
	}
	var raw struct {
		Dir    *string  `yaml:"dir"`
		Events []string `yaml:"events"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	*r = Record{On: true, Dir: DefaultRecordDir, Events: raw.Events}
	if raw.Dir != nil {
		r.Dir = *raw.Dir
	}
	return nil
}

// bareRecord looks for a top-level `record:` with no value, which the YAML
// library decodes as nothing at all: it is the key's presence, so recording
// is on with the defaults. An explicit null (`record: ~`) reads as "off" as
// easily as "on", so it is an error naming its line. Only a file with a
// line starting "record:" pays for the node tree.
func bareRecord(data []byte) (bare bool, nullLine int) {
	if !bytes.HasPrefix(data, []byte("record:")) && !bytes.Contains(data, []byte("\nrecord:")) {
		return false, 0
	}
	doc := parseTree(data)
	if doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false, 0
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k, v := m.Content[i], m.Content[i+1]; k.Value == "record" && isNull(v) {
			if v.Value == "" {
				return true, 0
			}
			return false, k.Line
		}
	}
	return false, 0
}

// validateRecord checks record: when it is on.
func (c *Config) validateRecord(bad func(key, format string, args ...any)) {
	r := &c.Record
	if !r.On {
		return
	}
	if msg := checkRecordDir(r.Dir); msg != "" {
		bad("record.dir", "%s", msg)
	}
	for i, e := range r.Events {
		if !slices.Contains(RecordEvents, e) {
			bad("record.events", "entry %d, %q, is not an event massgen-hook handles: use %s", i+1, e, strings.Join(RecordEvents, ", "))
		}
	}
}

// checkRecordDir says what is wrong with dir as a corpus folder, or "": it
// must be a relative path to a folder inside the project. A config file is
// shared, so it must not be able to make hooks write anywhere else.
func checkRecordDir(dir string) string {
	if strings.TrimSpace(dir) == "" {
		return "must not be empty"
	}
	if filepath.IsAbs(dir) || dir == "~" || strings.HasPrefix(dir, "~/") {
		return fmt.Sprintf("%q must be relative to the project (recordings stay inside it)", dir)
	}
	clean := filepath.Clean(dir)
	if clean == "." {
		return fmt.Sprintf("%q is the project itself: name a folder inside it", dir)
	}
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Sprintf("%q leaves the project: recordings must stay inside it", dir)
	}
	return ""
}
