package cli

import (
	"bytes"
	"runtime/debug"
	"testing"
)

// TestBuildFacts pins what version prints from given build information:
// the link-time version wins over the module's, the revision line appears
// only when the build recorded one, and every setting reaches the JSON.
func TestBuildFacts(t *testing.T) {
	stamped := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/massgen/massgen-hook", Version: "v0.6.0"},
		Settings: []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "CGO_ENABLED", Value: "0"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "4be4dda6b31389a6baae60aeff7758bc193fda86"},
			{Key: "vcs.time", Value: "2026-11-27T03:47:14Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	tests := []struct {
		name, override string
		info           *debug.BuildInfo
		text, json     string
	}{
		{
			name: "module version and revision", info: stamped,
			text: "massgen-hook v0.6.0 (go1.26.0 linux/arm64)\nrevision 4be4dda6b31389a6baae60aeff7758bc193fda86 2026-11-27T03:47:14Z (modified)\n",
			json: `{
  "version": "v0.6.0",
  "module": "github.com/massgen/massgen-hook",
  "revision": "4be4dda6b31389a6baae60aeff7758bc193fda86",
  "time": "2026-11-27T03:47:14Z",
  "modified": true,
  "go": "go1.26.0",
  "os": "linux",
  "arch": "arm64",
  "settings": {
    "-trimpath": "true",
    "CGO_ENABLED": "0",
    "vcs": "git",
    "vcs.modified": "true",
    "vcs.revision": "4be4dda6b31389a6baae60aeff7758bc193fda86",
    "vcs.time": "2026-11-27T03:47:14Z"
  }
}
`,
		},
		{
			name: "link-time override", info: stamped, override: "v1.2.3",
			text: "massgen-hook v1.2.3 (go1.26.0 linux/arm64)\nrevision 4be4dda6b31389a6baae60aeff7758bc193fda86 2026-11-27T03:47:14Z (modified)\n",
		},
		{
			name: "no build information",
			text: "massgen-hook (devel) (go1.26.0 linux/arm64)\n",
			json: `{
  "version": "(devel)",
  "module": "",
  "revision": "",
  "time": "",
  "modified": false,
  "go": "go1.26.0",
  "os": "linux",
  "arch": "arm64",
  "settings": {}
}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factsOf(tt.info, tt.override, "go1.26.0", "linux", "arm64")
			var text, js bytes.Buffer
			if err := f.writeText(&text); err != nil {
				t.Fatal(err)
			}
			if text.String() != tt.text {
				t.Errorf("text:\n%s\nwant:\n%s", text.String(), tt.text)
			}
			if tt.json == "" {
				return
			}
			if err := f.writeJSON(&js); err != nil {
				t.Fatal(err)
			}
			if js.String() != tt.json {
				t.Errorf("json:\n%s\nwant:\n%s", js.String(), tt.json)
			}
		})
	}
}
