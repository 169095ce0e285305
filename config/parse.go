package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/internal/suggest"
)

// Parse decodes YAML config text over the defaults and validates it. path is
// only used in error messages.
//
// A valid file is read in one strict pass: the config is read on every hook
// call, so the node tree that error messages use to name keys and lines is
// only built when there is an error to report.
func Parse(path string, data []byte) (Config, error) {
	cfg := Default()
	cfg.Path = path
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, decodeError(&cfg, err, parseTree(data))
	}
	if line := secondDocument(data); line > 0 {
		return Config{}, &Error{Path: path, Line: line,
			Msg: "a second YAML document starts here; the config must be one document (remove the \"---\")"}
	}
	if !cfg.Record.On {
		bare, nullLine := bareRecord(data)
		if nullLine > 0 {
			return Config{}, &Error{Path: path, Line: nullLine, Msg: "record: a null value is ambiguous: write record: true to record (or a mapping with dir: and events:), record: false not to"}
		}
		if bare {
			cfg.Record = Record{On: true, Dir: DefaultRecordDir}
		}
	}
	if err := cfg.validate(func() *yaml.Node { return parseTree(data) }); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// decodeError is the decoder's errors, with the keys that are not
// massgen-hook's judged as in a valid file, in the order of their lines.
func decodeError(cfg *Config, err error, doc *yaml.Node) error {
	var all []*Error
	var joined interface{ Unwrap() []error }
	if errors.As(yamlError(cfg.Path, err, doc), &joined) {
		for _, e := range joined.Unwrap() {
			all = append(all, e.(*Error))
		}
	}
	cfg.MassGen = cfg.recogniseMassGen()
	cfg.checkOtherKeys(func(key, msg string) {
		line := 0
		if doc != nil {
			line = lineOfKey(doc, key)
		}
		all = append(all, &Error{Path: cfg.Path, Line: line, Msg: msg})
	}, func(string, string, ...any) {})
	sort.SliceStable(all, func(i, j int) bool { return all[i].Line < all[j].Line })
	errs := make([]error, len(all))
	for i, e := range all {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// parseTree is data's node tree, or nil when it is not valid YAML.
func parseTree(data []byte) *yaml.Node {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	return &doc
}

// secondDocument returns the line where a second YAML document starts, or
// 0. The YAML decoder finds it (after "---", "...", with any spacing); the
// line reported is the separator's, found by looking back from the
// document's first node.
func secondDocument(data []byte) int {
	// Every way to start a second document has one of these markers; most
	// files have neither, and are not decoded again.
	if !bytes.Contains(data, []byte("---")) && !bytes.Contains(data, []byte("...")) {
		return 0
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, second yaml.Node
	if dec.Decode(&first) != nil {
		return 0
	}
	if err := dec.Decode(&second); errors.Is(err, io.EOF) {
		return 0
	} else if err != nil {
		// Text after the end of the document ("...") that is no document.
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return line
		}
		return 1
	}
	lines := strings.Split(string(data), "\n")
	for i := min(second.Line, len(lines)) - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], " \t\r")
		if l == "---" || l == "..." || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "---\t") {
			return i + 1
		}
	}
	return max(second.Line, 1)
}

// yamlLine and yamlUnknownField read the YAML library's messages. They are
// compiled on the error path only: a regexp compiled at start-up would be
// paid by every hook call.
func yamlLine() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) }

func yamlUnknownField() *regexp.Regexp {
	return regexp.MustCompile(`^field (\S+) not found in type (?:config\.)?(\S*)$`)
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
		if doc == nil && !lineRe.MatchString(m) {
			e.Line = 1 // the YAML library leaves the line out of syntax errors on line 1
		}
		if sm := lineRe.FindStringSubmatch(m); sm != nil {
			e.Line, _ = strconv.Atoi(sm[1])
			e.Msg = sm[2]
			key := keyAtLine(doc, e.Line, e.Msg)
			if fm := unknownFieldRe.FindStringSubmatch(e.Msg); fm != nil {
				if key == "" {
					key = fm[1]
				}
				e.Msg = fmt.Sprintf("unknown key %q", key)
				if s := suggest.Closest(fm[1], keysOf(fm[2])); s != "" {
					e.Msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
			} else if key != "" {
				e.Msg = fmt.Sprintf("key %s: %s", key, e.Msg)
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// keyAtLine returns the dotted path of the mapping key (or sequence item) on
// line that a YAML error message is about. Flow style puts several keys on
// one line ({a: 1, b: x}), so the message's own clue picks among them: the
// unknown field's name, or the offending value in backquotes.
func keyAtLine(doc *yaml.Node, line int, msg string) string {
	if doc == nil {
		return ""
	}
	clue := ""
	if m := yamlUnknownField().FindStringSubmatch(msg); m != nil {
		clue = m[1]
	} else if i := strings.IndexByte(msg, '`'); i >= 0 {
		if j := strings.IndexByte(msg[i+1:], '`'); j >= 0 {
			clue = msg[i+1 : i+1+j]
		}
	}
	first := ""
	var walk func(n *yaml.Node, prefix string) string
	walk = func(n *yaml.Node, prefix string) string {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if k := walk(c, prefix); k != "" {
					return k
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", prefix, i)
				if prefix != "" && c.Line == line && c.Kind != yaml.MappingNode && first == "" {
					first = p
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
					if clue != "" && (k.Value == clue || v.Kind == yaml.ScalarNode && v.Value == clue) {
						return p
					}
					if first == "" {
						first = p
					}
				}
				if r := walk(v, p); r != "" {
					return r
				}
			}
		}
		return ""
	}
	if k := walk(doc, ""); k != "" {
		return k
	}
	return first
}

// lineOfKey returns the line of the dotted key path in doc, or 0. A part
// may index a sequence: "agents[1].id".
func lineOfKey(doc *yaml.Node, path string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, part := range strings.Split(path, ".") {
		name, index, indexed := strings.Cut(part, "[")
		if n == nil || n.Kind != yaml.MappingNode {
			return line
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		n = next
		if indexed && n != nil {
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err != nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
		}
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
