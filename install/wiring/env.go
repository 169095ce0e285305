package wiring

import (
	"bytes"
	"encoding/json"
)

// SetEnv returns data with "env": {key: value} set (Claude Code's env key
// of settings.json), the object created when missing, a different value
// replaced in place. Nothing else changes; the same value twice returns
// the bytes unchanged.
func SetEnv(f *File, key, value string) ([]byte, error) {
	data := f.Data
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	s := styleOf(data)
	r := root(data)
	env, at := member(r, "env")
	if at >= 0 && !env.IsObject() {
		return nil, f.shapeError(data, env, `"env"`, "must be an object of variable names")
	}
	if at < 0 {
		data = s.appendTo(data, r, memberText("env", struct{}{}))
		env, _ = member(root(data), "env")
	}
	old, i := member(env, key)
	switch {
	case i < 0:
		return s.appendTo(data, env, memberText(key, value)), nil
	case old.Type == 0 || old.Str != value || !isString(old.Raw):
		return s.replace(data, old, value), nil
	}
	return data, nil
}

// UnsetEnv returns data without env[key] when ours says its value is one
// to take out (a value the user set to something else stays), and without
// the env object when that emptied it. empty reports that nothing but {}
// is left.
func UnsetEnv(f *File, key string, ours func(value string) bool) (out []byte, empty bool) {
	data := f.Data
	r := root(data)
	env, at := member(r, "env")
	if at < 0 || !env.IsObject() {
		return data, false
	}
	old, i := member(env, key)
	if i < 0 || !ours(old.Str) {
		return data, false
	}
	if len(elements(env)) == 1 {
		data = remove(data, r, at)
	} else {
		data = remove(data, env, i)
	}
	var rest map[string]json.RawMessage
	empty = json.Unmarshal(data, &rest) == nil && len(rest) == 0
	return data, empty
}

func isString(raw string) bool { return len(raw) > 0 && raw[0] == '"' }
