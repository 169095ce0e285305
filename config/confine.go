package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Confine configures the sandbox every shell command of an agent runs in
// (package confine): `confine: off` switches it off, `confine: {writable:
// [...]}` adds folders commands may write besides the project, the
// temporary folders and the default build caches.
type Confine struct {
	// Off is true for `confine: off` (or `enabled: false`).
	Off bool
	// Writable are folders outside the project that commands may write:
	// absolute, or under ~/.
	Writable []string
}

// UnmarshalYAML reads `confine: off|on` or a mapping with enabled and
// writable. Unknown keys are errors, as everywhere in the file.
func (c *Confine) UnmarshalYAML(n *yaml.Node) error {
	bad := func(line int, format string, args ...any) error {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...))}}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch strings.ToLower(n.Value) {
		case "off", "false", "no":
			c.Off = true
		case "on", "true", "yes":
			c.Off = false
		default:
			return bad(n.Line, "use on, off, or a mapping with writable: [...], got %q", n.Value)
		}
		return nil
	case yaml.MappingNode:
	default:
		return bad(n.Line, "use on, off, or a mapping with writable: [...]")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "enabled":
			var on bool
			if err := v.Decode(&on); err != nil {
				return bad(v.Line, "enabled: want true or false")
			}
			c.Off = !on
		case "writable":
			var list []string
			if err := v.Decode(&list); err != nil {
				return bad(v.Line, "writable: want a list of folders")
			}
			for _, w := range list {
				if !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
					return bad(v.Line, "writable: %q must be absolute or start with ~/ (the project is writable already)", w)
				}
				if filepath.Clean(strings.TrimPrefix(w, "~")) == "/" {
					return bad(v.Line, "writable: %q would make the whole of it writable; name the folder a tool needs", w)
				}
			}
			c.Writable = list
		default:
			return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: field %s not found in type config.Confine", k.Line, k.Value)}}
		}
	}
	return nil
}
