package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/fixtures"
	"github.com/massgen/massgen-hook/internal/testrace"
)

// marker starts every planted secret. Masking can only cut text or insert
// Mask, so it cannot create these letters: if they show up in the output,
// the planted secret leaked.
const marker = "Zq7Vx3"

// FuzzJSON plants a secret in JSON and masks it. Masking starts no
// goroutine: under -race it skips itself (4.3 s there, 1 s without), and
// `make test` runs it without.
func FuzzJSON(f *testing.F) {
	testrace.Skip(f)
	for _, seed := range []string{
		`{"command":"ls -la","description":"List files"}`,
		`{"command":"GITHUB_TOKEN=abc gh pr list"}`,
		`{"password":"x","nested":{"api_key":[1,2,{"a":"b"}]}}`,
		`{"n":1e400,"m":12345678901234567890}`,
		`{"pass\u0077ord":"x","u":"https:\/\/u:p@h"}`,
		`["Bearer abcdef1234","token: x"]`,
		`{"content":"-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----"}`,
		`"` + ghToken + `"`,
		`null`,
		`{"a":`,
		``,
	} {
		f.Add([]byte(seed), "hunter2")
		f.Add([]byte(seed), `a"b\c`+"\n")
	}
	// Whole events (the corpus redacts them) and their tool inputs (audit
	// records and retry errors quote those).
	for _, ev := range fixtures.Files(f, ".json") {
		f.Add(ev, "hunter2")
		var fields struct {
			ToolInput json.RawMessage `json:"tool_input"`
		}
		if json.Unmarshal(ev, &fields) == nil && len(fields.ToolInput) > 0 {
			f.Add([]byte(fields.ToolInput), "hunter2")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, secret string) {
		out := JSON(data)
		if !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q, not valid JSON", data, out)
		}
		if again := JSON(out); !bytes.Equal(again, out) {
			t.Fatalf("JSON not idempotent on %q:\n once %q\ntwice %q", data, out, again)
		}
		if canSkipJSON(data) {
			fast, slow := decode(t, out), decode(t, redactJSON(data))
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("fast path on %q gives %v, the rules give %v", data, fast, slow)
			}
		}

		// Plant the secret under "password" in whatever object the fuzzer
		// made (or one wrapping its bytes), at the top and nested.
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&obj) != nil || obj == nil {
			obj = map[string]any{"data": string(data)}
		}
		rest, err := encode(obj)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(rest, []byte(marker)) {
			return // the marker is already there, not as a secret
		}
		planted := marker + secret
		obj["password"] = planted
		for _, doc := range []any{
			obj,
			map[string]any{"list": []any{map[string]any{"PASSWORD": planted}}, "x": obj},
		} {
			in, err := encode(doc)
			if err != nil {
				t.Fatal(err)
			}
			if out := JSON(in); bytes.Contains(out, []byte(marker)) {
				t.Fatalf("secret leaked:\n in %s\nout %s", in, out)
			}
		}
	})
}

func FuzzString(f *testing.F) {
	for _, tt := range stringTests {
		f.Add(tt.in)
	}
	// Error texts and command lines from the fixtures' events, and their
	// scratchpads (session-start quotes those).
	for _, ev := range fixtures.Files(f, ".json") {
		var fields struct {
			Error     string `json:"error"`
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		if json.Unmarshal(ev, &fields) == nil {
			for _, s := range []string{fields.Error, fields.ToolInput.Command} {
				if s != "" {
					f.Add(s)
				}
			}
		}
	}
	for _, md := range fixtures.Files(f, ".md") {
		f.Add(string(md))
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if again := String(out); again != out {
			t.Fatalf("String not idempotent on %q:\n once %q\ntwice %q", s, out, again)
		}
		if hints(s) == 0 && once(s, ^uint8(0)) != s {
			t.Fatalf("the fast path skips %q, which the rules change to %q", s, once(s, ^uint8(0)))
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("String(%q) = %q broke UTF-8", s, out)
		}
	})
}
