package wiring

import (
	"strings"
	"testing"
)

func isWrapper(cmd string) bool { return strings.HasSuffix(cmd, "/massgen-hook-shell") }

// TestConfineMCPRoundTrip: every stdio server is started through the
// wrapper, with the server's own command and arguments after "--", and
// unconfining gives back the file byte for byte, whatever its layout and
// whether the server had args.
func TestConfineMCPRoundTrip(t *testing.T) {
	for name, file := range map[string]string{
		"indented": `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/p"
      ]
    },
    "git": {
      "type": "stdio",
      "command": "uvx",
      "args": ["mcp-server-git"],
      "env": {"A": "1"}
    },
    "bare": {
      "command": "/opt/server"
    },
    "empty": {"command": "srv", "args": []},
    "web": {"type": "http", "url": "https://example.com/mcp"}
  }
}
`,
		"one line": `{"mcpServers":{"a":{"command":"npx","args":["-y","x"]},"b":{"command":"y"}}}`,
		"crlf":     "{\r\n\t\"mcpServers\": {\r\n\t\t\"a\": {\r\n\t\t\t\"command\": \"npx\",\r\n\t\t\t\"args\": [\r\n\t\t\t\t\"x\"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("mcp.json", []byte(file), 0o644)
			if err != nil {
				t.Fatal(err)
			}
			before := MCPServers(f, isWrapper)
			confined := *f
			for _, sv := range before {
				confined.Data = ConfineMCP(&confined, sv.Name, "/h/massgen-hook-shell", "/p q")
			}
			if _, err := Parse("mcp.json", confined.Data, 0o644); err != nil {
				t.Fatalf("confined file is not JSON: %v\n%s", err, confined.Data)
			}
			after := MCPServers(&confined, isWrapper)
			if len(after) != len(before) {
				t.Fatalf("servers %v, then %v", before, after)
			}
			for i, sv := range after {
				want := append([]string{ExecFlag, ProjectFlag, "/p q"}, sv.Args[3:]...)
				if !sv.Confined || sv.Command != "/h/massgen-hook-shell" || strings.Join(sv.Args, " ") != strings.Join(want, " ") {
					t.Errorf("%s: %+v", sv.Name, sv)
				}
				tail := sv.Args[len(sv.Args)-len(before[i].Args)-1:]
				if tail[0] != before[i].Command || strings.Join(tail[1:], " ") != strings.Join(before[i].Args, " ") {
					t.Errorf("%s: the server's own command line is %q, want %s %q", sv.Name, tail, before[i].Command, before[i].Args)
				}
			}
			restored := confined
			for _, sv := range after {
				var ok bool
				if restored.Data, ok = UnconfineMCP(&restored, sv.Name); !ok {
					t.Errorf("%s: not unconfined", sv.Name)
				}
			}
			if string(restored.Data) != file {
				t.Errorf("unconfined:\n%s\nwant:\n%s", restored.Data, file)
			}
		})
	}
}

// TestUnconfineMCPLeavesChangedArgs: a server whose args the user changed
// so they are no longer the wrapper's is left as it is.
func TestUnconfineMCPLeavesChangedArgs(t *testing.T) {
	f, _ := Parse("mcp.json", []byte(`{"mcpServers":{"a":{"command":"/h/massgen-hook-shell","args":["--verbose"]}}}`), 0o644)
	if out, ok := UnconfineMCP(f, "a"); ok || string(out) != string(f.Data) {
		t.Errorf("got %s %v", out, ok)
	}
}
