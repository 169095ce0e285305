// Package integrations holds what massgen-hook ships to run inside other
// programs: the plugin of OpenCode and the extension of pi, which
// `massgen-hook init` writes into those CLIs' plugin folders, and MassGen's
// Python adapter (massgen/). The plugins are thin shims: they hand each
// event to the massgen-hook binary and apply its answer.
package integrations

import "embed"

//go:embed opencode/massgen-hook.js pi/massgen-hook.ts
var sources embed.FS

// Plugin is the source of the plugin massgen-hook ships for the agent CLI
// named (opencode, pi); ok is false for a CLI that takes hooks from a
// settings file instead.
func Plugin(cli string) (src []byte, ok bool) {
	for name, file := range map[string]string{"opencode": "opencode/massgen-hook.js", "pi": "pi/massgen-hook.ts"} {
		if name == cli {
			data, err := sources.ReadFile(file)
			return data, err == nil
		}
	}
	return nil, false
}
