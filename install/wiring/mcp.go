package wiring

import (
	"strings"

	"github.com/tidwall/gjson"
)

// The MCP servers a CLI starts from its "mcpServers" object (Claude Code's
// .mcp.json, Gemini CLI's settings.json) can be started through the
// confinement wrapper: a stdio server's command becomes the wrapper, and
// its args the wrapper's own, then the server's command and arguments:
//
//	"command": "npx", "args": ["-y", "pkg"]
//	"command": "/…/massgen-hook-shell",
//	"args": ["--exec", "--project", "/p", "--", "npx", "-y", "pkg"]
//
// The wrapper's part is spliced in before the first argument, and taken
// out again byte for byte, so that unconfining gives back the file as it
// was. A server that had no args gets them, with ArgsAdded among the
// wrapper's words so that unconfining takes the member out again.

// ExecFlag starts the wrapper's own words; ProjectFlag names the project
// whose policy confines the server; ArgsAdded says the server had no args.
const (
	ExecFlag    = "--exec"
	ProjectFlag = "--project"
	ArgsAdded   = "--args-added"
)

// MCPServer is one stdio server of an mcpServers object.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	// Confined: started through the wrapper (ours said so of Command).
	Confined bool
}

// MCPServers are the stdio servers of f's mcpServers object, in order: a
// server with a string command and no type or type "stdio", whose args (if
// any) are strings. ours tells the wrapper's command.
func MCPServers(f *File, ours func(command string) bool) []MCPServer {
	var out []MCPServer
	servers, _ := member(root(f.Data), "mcpServers")
	if !servers.IsObject() {
		return nil
	}
	for _, e := range elements(servers) {
		sv, ok := stdioServer(e.Key.Str, e.Value)
		if !ok {
			continue
		}
		sv.Confined = ours(sv.Command) && len(sv.Args) > 0 && sv.Args[0] == ExecFlag
		out = append(out, sv)
	}
	return out
}

func stdioServer(name string, v gjson.Result) (MCPServer, bool) {
	if !v.IsObject() {
		return MCPServer{}, false
	}
	cmd, _ := member(v, "command")
	typ, at := member(v, "type")
	if cmd.Type != gjson.String || cmd.Str == "" || at >= 0 && typ.Str != "stdio" {
		return MCPServer{}, false
	}
	sv := MCPServer{Name: name, Command: cmd.Str}
	if args, at := member(v, "args"); at >= 0 {
		if !args.IsArray() {
			return MCPServer{}, false
		}
		for _, a := range args.Array() {
			if a.Type != gjson.String {
				return MCPServer{}, false
			}
			sv.Args = append(sv.Args, a.Str)
		}
	}
	return sv, true
}

// server is the value of server name in data's mcpServers.
func server(data []byte, name string) gjson.Result {
	servers, _ := member(root(data), "mcpServers")
	v, _ := member(servers, name)
	return v
}

// ConfineMCP returns data with the stdio server name started through
// wrapper, confined by project's policy. The caller picks a server of
// MCPServers that is not Confined.
func ConfineMCP(f *File, name, wrapper, project string) []byte {
	data := f.Data
	s := styleOf(data)
	v := server(data, name)
	cmd, _ := member(v, "command")
	words := []string{ExecFlag, ProjectFlag, project}
	args, at := member(v, "args")
	switch {
	case at < 0:
		words = append(words, ArgsAdded, "--", cmd.Str)
		data = s.appendTo(data, v, memberText("args", words))
	case len(args.Array()) == 0:
		data = s.replace(data, args, append(words, "--", cmd.Str))
	default:
		words = append(words, "--", cmd.Str)
		first := elements(args)[0].start()
		sep := ","
		switch {
		case strings.Contains(args.Raw, "\n"):
			sep = "," + s.newline + lineIndent(data, first)
		case strings.Contains(args.Raw, ", "):
			sep = ", "
		}
		var text []byte
		for _, w := range words {
			text = append(append(text, marshal(w)...), sep...)
		}
		data = splice(data, first, first, text)
	}
	cmd, _ = member(server(data, name), "command")
	return s.replace(data, cmd, wrapper)
}

// UnconfineMCP returns data with the confined server name started as it
// was before ConfineMCP; ok is false when its args are not the wrapper's
// (the user changed them), and data is unchanged.
func UnconfineMCP(f *File, name string) (out []byte, ok bool) {
	data := f.Data
	s := styleOf(data)
	v := server(data, name)
	args, at := member(v, "args")
	elems := elements(args)
	sep := -1
	for i, e := range elems {
		if e.Value.Str == "--" {
			sep = i
			break
		}
	}
	if sep < 0 || sep+1 >= len(elems) || elems[0].Value.Str != ExecFlag {
		return f.Data, false
	}
	added := false
	for _, e := range elems[:sep] {
		added = added || e.Value.Str == ArgsAdded
	}
	command := elems[sep+1].Value.Str
	switch rest := len(elems) - sep - 2; {
	case added && rest == 0:
		data = remove(data, v, at)
	case rest == 0:
		data = s.replace(data, args, []string{})
	default:
		data = splice(data, elems[0].start(), elems[sep+2].start(), nil)
	}
	cmd, _ := member(server(data, name), "command")
	return s.replace(data, cmd, command), true
}
