package hookenv

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

type optInner struct {
	A int    `yaml:"a"`
	B string `yaml:"b,omitempty"`
}

type optDeep struct {
	Name   string              `yaml:"name"`
	Nested optInner            `yaml:"nested"`
	Ptr    *optInner           `yaml:"ptr"`
	List   []optInner          `yaml:"list"`
	Array  [2]optInner         `yaml:"array"`
	Map    map[string]optInner `yaml:"map"`
	Ptrs   map[string]*[]optInner
	Plain  []string          `yaml:"plain"`
	Free   map[string]string `yaml:"free"`
	NoTag  int
	Skip   int `yaml:"-"`
	hidden int //nolint:unused // an unexported field is never an option
}

const optDeepKnown = "array, free, list, map, name, nested, notag, plain, ptr, ptrs"

func TestDecodeOptionsAccepts(t *testing.T) {
	text := `
name: x
nested: {a: 1, b: two}
ptr: {a: 2}
list: [{a: 3}, {b: four}]
array: [{a: 5}, {a: 6}]
map: {k: {a: 7}}
ptrs: {p: [{a: 8}]}
plain: [p, q]
free: {anything: goes, at: all}
notag: 9
`
	var got optDeep
	if err := DecodeOptions(checktest.OptionsNode(t, text), &got); err != nil {
		t.Fatalf("decodeOptions: %v", err)
	}
	want := optDeep{Name: "x", Nested: optInner{1, "two"}, Ptr: &optInner{A: 2},
		List: []optInner{{A: 3}, {B: "four"}}, Array: [2]optInner{{A: 5}, {A: 6}},
		Map:   map[string]optInner{"k": {A: 7}},
		Ptrs:  map[string]*[]optInner{"p": {{A: 8}}},
		Plain: []string{"p", "q"}, Free: map[string]string{"anything": "goes", "at": "all"}, NoTag: 9}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v\nwant %+v", got, want)
	}
}

func TestDecodeOptionsUnknownKeys(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"nmae: x", `line 1: unknown option "nmae" (known: ` + optDeepKnown + `)`},
		{"name: x\nnested:\n  a: 1\n  c: 2", `line 4: unknown option "nested.c" (known: a, b)`},
		{"ptr: {a: 1, z: 2}", `line 1: unknown option "ptr.z" (known: a, b)`},
		{"list:\n  - {a: 1}\n  - {a: 2, c: 3}", `line 3: unknown option "list[1].c" (known: a, b)`},
		{"array: [{a: 1}, {q: 1}]", `line 1: unknown option "array[1].q" (known: a, b)`},
		{"map:\n  k1: {a: 1}\n  k2:\n    bad: 1", `line 4: unknown option "map.k2.bad" (known: a, b)`},
		{"ptrs: {p: [{a: 1}, {a: 2}, {x: 3}]}", `line 1: unknown option "ptrs.p[2].x" (known: a, b)`},
		{"skip: 1", `unknown option "skip"`},
		{"Skip: 1", `unknown option "Skip"`},
		{"hidden: 1", `unknown option "hidden"`},
		{"NoTag: 1", `unknown option "NoTag"`},
	} {
		var dst optDeep
		err := DecodeOptions(checktest.OptionsNode(t, tc.text), &dst)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestDecodeOptionsFirstUnknown: the first unknown key is named, in
// document order.
func TestDecodeOptionsFirstUnknown(t *testing.T) {
	var dst optDeep
	err := DecodeOptions(checktest.OptionsNode(t, "name: x\nzz: 1\naa: 2"), &dst)
	if err == nil || !strings.HasPrefix(err.Error(), `line 2: unknown option "zz"`) {
		t.Fatalf("err %v", err)
	}
}

func TestDecodeOptionsNull(t *testing.T) {
	for _, text := range []string{"", "~", "null", "# only a comment"} {
		dst := optDeep{Name: "kept", NoTag: 3}
		if err := DecodeOptions(checktest.OptionsNode(t, text), &dst); err != nil {
			t.Errorf("%q: %v", text, err)
		}
		if dst.Name != "kept" || dst.NoTag != 3 {
			t.Errorf("%q: dst changed to %+v", text, dst)
		}
	}
	if err := DecodeOptions(nil, &optDeep{}); err != nil {
		t.Errorf("nil node: %v", err)
	}
}

// TestDecodeOptionsKeepsDefaults: keys not given keep what dst held.
func TestDecodeOptionsKeepsDefaults(t *testing.T) {
	dst := optDeep{Name: "default", NoTag: 5}
	if err := DecodeOptions(checktest.OptionsNode(t, "plain: [a]"), &dst); err != nil {
		t.Fatal(err)
	}
	if dst.Name != "default" || dst.NoTag != 5 || !reflect.DeepEqual(dst.Plain, []string{"a"}) {
		t.Fatalf("got %+v", dst)
	}
}

func TestDecodeOptionsNotMapping(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[1, 2]", "line 1: options must be a mapping, got !!seq"},
		{"5", "line 1: options must be a mapping, got !!int"},
		{"\n\nhello", "line 3: options must be a mapping, got !!str"},
		{"true", "line 1: options must be a mapping, got !!bool"},
		{"- a\n- b", "line 1: options must be a mapping, got !!seq"},
	} {
		var dst optDeep
		err := DecodeOptions(checktest.OptionsNode(t, tc.text), &dst)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: err %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestDecodeOptionsTypeErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"name: [1]", "line 1: cannot unmarshal !!seq into string"},
		{"nested: {a: many}", "line 1: cannot unmarshal !!str `many` into int"},
		{"notag: abc", "line 1: cannot unmarshal !!str `abc` into int"},
		{"list: {a: 1}", "line 1: cannot unmarshal !!map into []hookenv.optInner"},
		{"plain: x", "line 1: cannot unmarshal !!str `x` into []string"},
		{"map: [1]", "line 1: cannot unmarshal !!seq into map[string]hookenv.optInner"},
		{"nested: 3", "line 1: cannot unmarshal !!int `3` into hookenv.optInner"},
	} {
		var dst optDeep
		err := DecodeOptions(checktest.OptionsNode(t, tc.text), &dst)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: err %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestDecodeOptionsMismatchedShapes: a value of the wrong shape is a type
// error, not an unknown key, and the key check does not crash on it.
func TestDecodeOptionsMismatchedShapes(t *testing.T) {
	for _, text := range []string{"nested: [1]", "list: [1, 2]", "map: {k: 3}", "ptr: x", "name: {a: 1}"} {
		var dst optDeep
		err := DecodeOptions(checktest.OptionsNode(t, text), &dst)
		if err == nil || !strings.Contains(err.Error(), "cannot unmarshal") {
			t.Errorf("%q: err %v, want a type error", text, err)
		}
	}
}

// TestDecodeOptionsYAMLSharing: options shared through YAML's own means,
// an alias to an anchored mapping or a merge key, decode like the mapping
// written out (a config reuses one rule's options for another this way).
func TestDecodeOptionsYAMLSharing(t *testing.T) {
	doc := checktest.OptionsNode(t, "first: &shared {name: x, notag: 2}\nsecond: *shared\nthird: {<<: *shared, notag: 3}\n")
	for _, tc := range []struct {
		key  string
		want optDeep
	}{
		{"first", optDeep{Name: "x", NoTag: 2}},
		{"second", optDeep{Name: "x", NoTag: 2}},
		{"third", optDeep{Name: "x", NoTag: 3}},
	} {
		var node = doc.Content[0]
		for i := 0; i+1 < len(doc.Content); i += 2 {
			if doc.Content[i].Value == tc.key {
				node = doc.Content[i+1]
			}
		}
		var got optDeep
		if err := DecodeOptions(node, &got); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: decoded %+v, %v; want %+v", tc.key, got, err, tc.want)
		}
	}
	// An unknown key behind an alias is still refused.
	doc = checktest.OptionsNode(t, "first: &bad {name: x, nmae: y}\nsecond: *bad\n")
	var got optDeep
	if err := DecodeOptions(doc.Content[3], &got); err == nil || !strings.Contains(err.Error(), `unknown option "nmae"`) {
		t.Errorf("alias to a mapping with an unknown key: %v", err)
	}
}

func TestDecodeOptionsMergeKeys(t *testing.T) {
	doc := checktest.OptionsNode(t, `
a: &a {name: x}
b: &b {notag: 4}
both: {<<: [*a, *b], plain: [p]}
inline: {<<: {name: y}, notag: 5}
bad: &bad {name: z, nmae: w}
merged-bad: {<<: *bad}
nested: {nested: {<<: {a: 1, zz: 2}}}
`)
	get := func(key string) *yaml.Node {
		for i := 0; i+1 < len(doc.Content); i += 2 {
			if doc.Content[i].Value == key {
				return doc.Content[i+1]
			}
		}
		t.Fatalf("no %s", key)
		return nil
	}
	var got optDeep
	if err := DecodeOptions(get("both"), &got); err != nil || got.Name != "x" || got.NoTag != 4 || !reflect.DeepEqual(got.Plain, []string{"p"}) {
		t.Errorf("merge of a list: %+v, %v", got, err)
	}
	got = optDeep{}
	if err := DecodeOptions(get("inline"), &got); err != nil || got.Name != "y" || got.NoTag != 5 {
		t.Errorf("inline merge: %+v, %v", got, err)
	}
	if err := DecodeOptions(get("merged-bad"), &optDeep{}); err == nil || !strings.Contains(err.Error(), `unknown option "nmae"`) {
		t.Errorf("merged mapping with an unknown key: %v", err)
	}
	if err := DecodeOptions(get("nested"), &optDeep{}); err == nil || !strings.Contains(err.Error(), `unknown option "nested.zz" (known: a, b)`) {
		t.Errorf("nested merge with an unknown key: %v", err)
	}
}
