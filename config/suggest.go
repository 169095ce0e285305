package config

import (
	"reflect"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// customKeys are the keys of the types that decode themselves (their
// struct fields carry no yaml tags to read them from).
var customKeys = &lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"EventHooks": {"override", "hooks"},
		"Hook":       hookKeys,
		"Record":     {"dir", "events"},
		"Confine":    {"enabled", "writable"},
	}
}}

// keysOf returns the keys a mapping of the named config type accepts, read
// from the yaml tags of the types reachable from Config, so a key added to
// a struct is suggested without another list to keep.
func keysOf(typeName string) []string {
	if keys, ok := customKeys.Get()[typeName]; ok {
		return keys
	}
	var found []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || customKeys.Get()[t.Name()] != nil {
			return
		}
		seen[t] = true
		var keys []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, name)
			walk(f.Type)
		}
		if t.Name() == typeName && found == nil {
			found = keys
		}
	}
	walk(reflect.TypeOf(Config{}))
	return found
}
