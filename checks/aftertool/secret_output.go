package aftertool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"go.yaml.in/yaml/v3"
)

// redactSecrets masks, in what a tool returned, the values of the
// environment variables whose names mark them as secrets (OPENAI_API_KEY,
// GITHUB_TOKEN, DB_PASSWORD: shellcmd.SecretName), before the model reads
// it. The agent's tools run with the environment the hooks see, so a
// secret a tool printed (a debug log, a program that dumps its
// environment, a config echoed back) is that very value. Each one becomes
// [redacted $NAME]: the model learns which secret was there, not what it
// is. The replacement goes wherever the CLI lets a hook replace a tool's
// output (docs/dialects.md).
//
// A value shorter than minSecretLen is left alone (masking "1" or "true"
// everywhere would garble the output and protect nothing), and so is one
// that is a path (SSH_AUTH_SOCK, GOOGLE_APPLICATION_CREDENTIALS name where
// a secret is, not the secret).
//
//	options:
//	  min_length: 8   # shortest value masked
type redactSecrets struct {
	minLen int
}

// minSecretLen is the shortest value masked by default.
const minSecretLen = 8

type redactOptions struct {
	MinLength *int `yaml:"min_length"`
}

// NewRedactSecrets builds the check from its options.
func NewRedactSecrets(options *yaml.Node) (engine.Builtin, error) {
	var o redactOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	r := &redactSecrets{minLen: minSecretLen}
	if o.MinLength != nil {
		if *o.MinLength < 4 {
			return nil, fmt.Errorf("min_length: at least 4, got %d", *o.MinLength)
		}
		r.minLen = *o.MinLength
	}
	return r, nil
}

// secretValue is one secret variable's value, as it appears inside a JSON
// string.
type secretValue struct {
	name  string
	forms [][]byte // the value JSON-escaped, and HTML-escaped as Go writes it
}

func (r *redactSecrets) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	out := call.ToolOutput
	if len(out) == 0 {
		return engine.Verdict{}, nil
	}
	masked := out
	for _, s := range r.secrets(call.Environ) {
		mask, _ := json.Marshal("[redacted $" + s.name + "]")
		mask = mask[1 : len(mask)-1]
		for _, f := range s.forms {
			if bytes.Contains(masked, f) {
				masked = bytes.ReplaceAll(masked, f, mask)
			}
		}
	}
	if len(masked) == len(out) && bytes.Equal(masked, out) {
		return engine.Verdict{}, nil
	}
	if !json.Valid(masked) {
		// A value cut across an escape cannot be masked in place; the
		// model must not get the original, nor a broken output: it gets
		// a notice in its place, and the user is told.
		masked, _ = json.Marshal("[redacted: the output held the value of a secret environment variable]")
		return engine.Verdict{UpdatedToolOutput: masked, SystemMessage: fmt.Sprintf(
			"massgen-hook: the output of %s held the value of a secret environment variable that could not be masked in place; the model got a notice instead of the whole output.", call.Event.ToolName)}, nil
	}
	return engine.Verdict{UpdatedToolOutput: masked}, nil
}

// secrets are the secret variables of environ worth masking, longest
// value first (a value inside another is masked after it).
func (r *redactSecrets) secrets(environ []string) []secretValue {
	var out []secretValue
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(value) < r.minLen || !shellcmd.SecretName(name) || strings.HasPrefix(value, "/") || strings.HasPrefix(value, "~/") {
			continue
		}
		plain, _ := json.Marshal(value) // HTML-escaped: <, > and & as \u003c ...
		var forms [][]byte
		forms = append(forms, plain[1:len(plain)-1])
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(value) == nil {
			if raw := bytes.TrimSpace(b.Bytes()); !bytes.Equal(raw, plain) {
				forms = append(forms, raw[1:len(raw)-1])
			}
		}
		out = append(out, secretValue{name: name, forms: forms})
	}
	slices.SortStableFunc(out, func(a, b secretValue) int { return len(b.forms[0]) - len(a.forms[0]) })
	return out
}
