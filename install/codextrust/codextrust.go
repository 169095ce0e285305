// Package codextrust reads how Codex CLI decides to run a hook. Codex
// loads a project's .codex/ only when the project is trusted
// ([projects."DIR"] trust_level = "trusted" in $CODEX_HOME/config.toml),
// and runs a hook of a project or user hooks.json only when the user
// trusted that exact definition: [hooks.state."KEY"] trusted_hash in the
// same file, where KEY is "HOOKS_JSON:EVENT_LABEL:GROUP:HANDLER" and the
// hash is Codex's fingerprint of the handler. Anything else is skipped
// without a word. Checked against Codex 0.169.0 (its app-server's
// hooks/list reports the same keys, hashes and trust).
package codextrust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Status is what Codex makes of one hook.
type Status string

const (
	Trusted   Status = "trusted"
	Untrusted Status = "untrusted"
	// Modified: trusted once, changed since (a new binary path, a new
	// timeout): Codex skips it until trusted again.
	Modified Status = "modified"
	Disabled Status = "disabled"
)

// Hook is one handler of a hooks.json, as Codex keys and fingerprints it.
type Hook struct {
	Event   string // as in hooks.json: PreToolUse
	Command string
	Key     string
	Hash    string
}

// hooksFile is the part of hooks.json a fingerprint covers.
type hooksFile struct {
	Hooks map[string][]struct {
		Matcher  *string          `json:"matcher"`
		Handlers []map[string]any `json:"hooks"`
	} `json:"hooks"`
}

// eventLabels are Codex's labels of its events in trust keys and hashes.
var eventLabels = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
		"PreCompact": "pre_compact", "PostCompact": "post_compact", "SessionStart": "session_start",
		"UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
		"SubagentStop": "subagent_stop", "Stop": "stop",
	}
}}

// matcherless are the events whose matcher Codex ignores (and leaves out
// of the fingerprint).
var matcherless = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"UserPromptSubmit": true, "Stop": true} }}

// Hooks returns the command handlers of the hooks.json at path (its
// content is data) that ours picks, keyed and fingerprinted as Codex does.
// path must be absolute, as Codex names it.
func Hooks(path string, data []byte, ours func(command string) bool) ([]Hook, error) {
	var f hooksFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []Hook
	for event, groups := range f.Hooks {
		label, ok := eventLabels.Get()[event]
		if !ok {
			continue
		}
		for gi, g := range groups {
			for hi, h := range g.Handlers {
				command, _ := h["command"].(string)
				if h["type"] != "command" || !ours(command) {
					continue
				}
				matcher := g.Matcher
				if matcherless.Get()[event] {
					matcher = nil
				}
				out = append(out, Hook{Event: event, Command: command,
					Key:  fmt.Sprintf("%s:%s:%d:%d", path, label, gi, hi),
					Hash: fingerprint(label, matcher, command, h)})
			}
		}
	}
	slices.SortFunc(out, func(a, b Hook) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// fingerprint is Codex's hash of one handler (codex-rs/hooks/src/engine/
// discovery.rs, command_hook_hash, and config/src/fingerprint.rs): the
// SHA-256 of the compact JSON, keys sorted, of the event label, the
// group's matcher and the handler normalized: type, command, async
// (default false) and timeout (default 600, at least 1) and, when set,
// the status message.
func fingerprint(label string, matcher *string, command string, h map[string]any) string {
	timeout := int64(600)
	if t, ok := h["timeout"].(float64); ok {
		timeout = max(int64(t), 1)
	}
	async, _ := h["async"].(bool)
	handler := map[string]any{"type": "command", "command": command, "async": async, "timeout": timeout}
	if m, ok := h["statusMessage"].(string); ok {
		handler["statusMessage"] = m
	}
	identity := map[string]any{"event_name": label, "hooks": []any{handler}}
	if matcher != nil {
		identity["matcher"] = *matcher
	}
	// encoding/json sorts map keys; serde_json escapes the same
	// characters once HTML escaping is off.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity)
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Config is the trust Codex's user config records.
type Config struct {
	// Path is $CODEX_HOME/config.toml.
	Path     string `toml:"-"`
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	// SandboxMode is the sandbox Codex runs shell commands in ("" :
	// Codex's default, a sandbox of its own), unless a run's flags say
	// otherwise.
	SandboxMode string `toml:"sandbox_mode"`
	Hooks       struct {
		State map[string]struct {
			Enabled     *bool  `toml:"enabled"`
			TrustedHash string `toml:"trusted_hash"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// Home is Codex's home folder: $CODEX_HOME, else ~/.codex.
func Home(codexHome, home string) string {
	if codexHome != "" {
		return codexHome
	}
	return filepath.Join(home, ".codex")
}

// ReadConfig reads config.toml in codexHome; a missing file trusts
// nothing.
func ReadConfig(codexHome string) (Config, error) {
	c := Config{Path: filepath.Join(codexHome, "config.toml")}
	data, err := os.ReadFile(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := toml.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %w", c.Path, err)
	}
	return c, nil
}

// ProjectTrusted reports whether Codex loads the .codex/ of project, a
// git repository's top.
func (c Config) ProjectTrusted(project string) bool {
	return c.Projects[project].TrustLevel == "trusted"
}

// Status is what Codex makes of h.
func (c Config) Status(h Hook) Status {
	s, ok := c.Hooks.State[h.Key]
	switch {
	case ok && s.Enabled != nil && !*s.Enabled:
		return Disabled
	case !ok || s.TrustedHash == "":
		return Untrusted
	case s.TrustedHash != h.Hash:
		return Modified
	}
	return Trusted
}

// TrustLines are the config.toml lines that trust hooks, as Codex's /hooks
// writes them.
func TrustLines(hooks []Hook) string {
	var b bytes.Buffer
	for _, h := range hooks {
		fmt.Fprintf(&b, "[hooks.state.%s]\ntrusted_hash = %q\n", tomlKey(h.Key), h.Hash)
	}
	return b.String()
}

// ProjectLines are the config.toml lines that trust project.
func ProjectLines(project string) string {
	return fmt.Sprintf("[projects.%s]\ntrust_level = \"trusted\"\n", tomlKey(project))
}

// tomlKey quotes a key as a TOML basic string.
func tomlKey(k string) string {
	b, _ := json.Marshal(k) // JSON's escapes are TOML basic string escapes
	return string(b)
}
