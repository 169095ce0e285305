package hookenv

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
)

// DecodeOptions decodes a built-in check's options into dst (a pointer to
// a struct with yaml tags) strictly: a key dst does not have is an error
// naming it and its line, at any depth, because a misspelt option silently
// ignored is a guard silently off. nil options leave dst as it is.
func DecodeOptions(options *yaml.Node, dst any) error {
	options = deref(options)
	if options == nil || (options.Kind == yaml.ScalarNode && options.Tag == "!!null") {
		return nil
	}
	if options.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: options must be a mapping, got %s", options.Line, options.ShortTag())
	}
	if err := checkOptionKeys(options, reflect.TypeOf(dst).Elem(), ""); err != nil {
		return err
	}
	if err := options.Decode(dst); err != nil {
		return fmt.Errorf("%s", strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:"), "\n")))
	}
	return nil
}

// checkOptionKeys walks n alongside t and reports the first key t has no
// field for.
func checkOptionKeys(n *yaml.Node, t reflect.Type, path string) error {
	n = deref(n)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := optionFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				// <<: *defaults merges a mapping (or a list of them) in:
				// its keys are this mapping's keys.
				if err := checkMerged(v, t, path); err != nil {
					return err
				}
				continue
			}
			f, ok := fields[k.Value]
			if !ok {
				return fmt.Errorf("line %d: unknown option %q (known: %s)", k.Line, path+k.Value, strings.Join(SortedKeys(fields), ", "))
			}
			if err := checkOptionKeys(v, f.Type, path+k.Value+"."); err != nil {
				return err
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if err := checkOptionKeys(item, t.Elem(), fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i)); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := checkOptionKeys(n.Content[i], t.Elem(), path+n.Content[i-1].Value+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkMerged checks the mappings a merge key brings in.
func checkMerged(v *yaml.Node, t reflect.Type, path string) error {
	v = deref(v)
	if v.Kind == yaml.SequenceNode {
		for _, m := range v.Content {
			if err := checkOptionKeys(m, t, path); err != nil {
				return err
			}
		}
		return nil
	}
	return checkOptionKeys(v, t, path)
}

// deref follows YAML aliases (*name) to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// optionFields maps a struct's yaml keys to its fields.
func optionFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NoOptions is the factory of a check that takes no options: giving it some
// is a configuration error, not silently ignored.
func NoOptions(b engine.Builtin) engine.Factory {
	return func(options *yaml.Node) (engine.Builtin, error) {
		if options != nil && !(options.Kind == yaml.ScalarNode && options.Tag == "!!null") {
			return nil, fmt.Errorf("this check takes no options")
		}
		return b, nil
	}
}
