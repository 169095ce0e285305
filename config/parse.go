package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Parse decodes YAML config text over the defaults and validates it. path is
// only used in error messages.
func Parse(path string, data []byte) (Config, error) {
	cfg := Default()
	cfg.Path = path
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, yamlError(path, err, nil)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, yamlError(path, err, &doc)
	}
	if err := cfg.validate(&doc); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// yamlLine and yamlUnknownField read the YAML library's messages. They are
// compiled on the error path only: a regexp compiled at start-up would be
// paid by every hook call.
func yamlLine() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) }

func yamlUnknownField() *regexp.Regexp {
	return regexp.MustCompile(`^field (\S+) not found in type .*$`)
}

// yamlError turns the YAML library's errors into one line per problem that
// names the file, the line and, where it can, the key.
func yamlError(path string, err error, doc *yaml.Node) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	lineRe, unknownFieldRe := yamlLine(), yamlUnknownField()
	var errs []error
	for _, m := range msgs {
		e := &Error{Path: path, Msg: strings.TrimPrefix(m, "yaml: ")}
		if sm := lineRe.FindStringSubmatch(m); sm != nil {
			e.Line, _ = strconv.Atoi(sm[1])
			e.Msg = sm[2]
			if fm := unknownFieldRe.FindStringSubmatch(e.Msg); fm != nil {
				e.Msg = fmt.Sprintf("unknown key %q", fm[1])
				if key := keyAtLine(doc, e.Line); key != "" {
					e.Msg = fmt.Sprintf("unknown key %q", key)
				}
			} else if key := keyAtLine(doc, e.Line); key != "" {
				e.Msg = fmt.Sprintf("key %s: %s", key, e.Msg)
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// keyAtLine returns the dotted path of the mapping key on line, if any.
func keyAtLine(n *yaml.Node, line int) string {
	if n == nil {
		return ""
	}
	var walk func(n *yaml.Node, prefix string) string
	walk = func(n *yaml.Node, prefix string) string {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for i, c := range n.Content {
				p := prefix
				if n.Kind == yaml.SequenceNode {
					p = fmt.Sprintf("%s[%d]", prefix, i)
				}
				if k := walk(c, p); k != "" {
					return k
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if prefix != "" {
					p = prefix + "." + k.Value
				}
				if k.Line == line {
					return p
				}
				if r := walk(v, p); r != "" {
					return r
				}
			}
		}
		return ""
	}
	return walk(n, "")
}

// lineOfKey returns the line of the dotted key path in doc, or 0.
func lineOfKey(doc *yaml.Node, path string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, part := range strings.Split(path, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return line
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		n = next
	}
	return line
}

// Duration is a time.Duration written as "10s" or "1m30s".
type Duration time.Duration

// UnmarshalYAML reads a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		// A *yaml.TypeError lets the decoder go on and report every problem at once.
		return &yaml.TypeError{Errors: []string{
			fmt.Sprintf("line %d: %q is not a duration (write it like 10s or 1m30s)", n.Line, n.Value)}}
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration back as text.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }
