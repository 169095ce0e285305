package guard

import (
	"slices"
	"strings"
	"unicode"
)

// How the guards read the names of an MCP tool they do not know, and of
// its arguments: a name is split into lower-case words (nameWords), and
// the words say whether the tool writes, and which arguments hold paths,
// which free text, and which patterns.

// A tool reads when a word of its name is a verb of readWords and none
// is one of writeWords; it writes when one is of writeWords; otherwise
// what it does is not known (do_thing, file_operation, browser_type).
var (
	readWords = []string{"get", "read", "list", "ls", "search", "find", "fetch", "view", "show", "query", "lookup", "look",
		"describe", "stat", "info", "inspect", "count", "grep", "cat", "head", "tail", "tree", "browse", "open", "compare",
		"diff", "check", "validate", "explain", "summarize", "analyze", "lint", "preview", "display", "load", "scan",
		"peek", "glob", "match", "exists", "resolve", "navigate", "status", "log", "history"}
	writeWords = []string{"write", "edit", "create", "move", "copy", "delete", "remove", "save", "append", "rename", "replace",
		"update", "patch", "apply", "put", "insert", "set", "store", "upload", "download", "mkdir", "touch", "link", "symlink",
		"extract", "unzip", "untar", "clone", "init", "overwrite", "truncate", "chmod", "chown", "modify", "change", "add",
		"install", "commit", "push", "restore", "reset", "import", "export", "generate", "format", "fix", "convert",
		"transform", "sync", "merge", "upsert", "run", "exec", "execute", "rm", "mv", "cp", "del", "erase", "clear", "drop"}
)

// toolVerb says what a tool the table does not know does, by its name.
type toolVerb int

const (
	verbUnknown toolVerb = iota
	verbReads
	verbWrites
)

func verbOf(name string) toolVerb {
	v := verbUnknown
	for _, w := range nameWords(bareToolName(name)) {
		if slices.Contains(writeWords, w) {
			return verbWrites
		}
		if slices.Contains(readWords, w) {
			v = verbReads
		}
	}
	return v
}

// An argument's name says what its strings are. Its last word decides
// (rich_text is text, text_file a file):
//   - freeWords: free text, a search, an entity of a knowledge graph:
//     words, not paths (a title naming server.key is no write of it);
//   - patternWords, and names that start with exclude or ignore: what to
//     match or leave out, not files to open;
//   - pathWords: a path, judged as the file it names.
//
// An argument named for where output goes (outputStarts: output_path,
// outfile, destination, save_to) is judged as written, whatever the tool.
var (
	remotePathWords = []string{"path", "paths"}
	freeWords       = []string{"content", "contents", "text", "body", "message", "messages", "title", "description", "query",
		"q", "topic", "comment", "comments", "note", "notes", "summary", "prompt", "instructions", "markdown", "html",
		"caption", "label", "subject", "reason", "answer", "question", "blocks", "entities", "observations", "relations",
		"value", "values", "data", "code", "snippet"}
	patternWords  = []string{"pattern", "patterns", "mask", "glob", "globs", "regex", "regexp", "filter", "filters"}
	folderWords   = []string{"path", "dir", "directory", "folder"}
	pathWords     = []string{"path", "paths", "file", "files", "filename", "filenames", "filepath", "dir", "dirs", "directory", "folder", "location", "uri", "root"}
	outputStarts  = []string{"out", "dest", "save", "export", "write"}
	notPathStarts = []string{"exclude", "ignore"}
)

// argKind is what an argument's name says its strings are.
type argKind int

const (
	argAny argKind = iota
	argFree
	argPath
	argOutput
	argRemote // a file in a remote repository (argWalk.kindOf)
)

func kindOfArg(name string) argKind {
	words := nameWords(name)
	if len(words) == 0 {
		return argAny
	}
	for _, w := range words {
		for _, s := range outputStarts {
			if strings.HasPrefix(w, s) {
				return argOutput
			}
		}
	}
	for _, s := range notPathStarts {
		if strings.HasPrefix(words[0], s) {
			return argFree
		}
	}
	last := words[len(words)-1]
	if slices.Contains(words, "entity") { // entityName, entityNames: a knowledge graph's
		return argFree
	}
	switch {
	case slices.Contains(freeWords, last), slices.Contains(patternWords, last):
		return argFree
	case slices.Contains(pathWords, last) || strings.HasSuffix(last, "path") || strings.HasSuffix(last, "file"):
		return argPath
	}
	return argAny
}

// remoteWords name the servers that act on a remote service (a code host,
// a tracker, a chat, a mailbox). Their tools are walked as any other's,
// save that an argument named just path or paths is a file in a remote
// repository (next to owner and repo), unless it starts at / or ~: their
// uploads, attachments and downloads are this machine's files.
var remoteWords = []string{"github", "gitlab", "bitbucket", "linear", "notion", "slack", "jira", "confluence", "atlassian",
	"sentry", "brave", "context7", "exa", "tavily", "perplexity", "figma", "stripe", "asana", "trello", "hubspot",
	"salesforce", "zendesk", "intercom", "discord", "gmail", "gdrive"}

// remoteServer reports whether an MCP tool's name names such a server
// (mcp__github__x, mcp__plugin_github_github__x, mcp_github_x).
func remoteServer(name string) bool {
	server := name
	if i := strings.LastIndex(name, "__"); i > 0 {
		server = strings.TrimPrefix(name[:i], "mcp__")
	} else if !strings.HasPrefix(name, geminiMCPPrefix) {
		return false
	}
	for _, w := range nameWords(server) {
		if slices.Contains(remoteWords, w) {
			return true
		}
	}
	return false
}

// nameWords splits a name into lower-case words: at _, -, ., spaces and
// colons, and where a lower-case letter or digit meets an upper-case one.
func nameWords(name string) []string {
	var words []string
	start := 0
	for i, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == ':':
			words = append(words, name[start:i])
			start = i + 1
		case unicode.IsUpper(r) && i > start:
			if prev := rune(name[i-1]); unicode.IsLower(prev) || unicode.IsDigit(prev) {
				words = append(words, name[start:i])
				start = i
			}
		}
	}
	words = append(words, name[start:])
	out := words[:0]
	for _, w := range words {
		if w != "" {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// commandArg reports whether an argument's name says it holds a command
// line: a word command or cmd (cli_command, command_line). A script is
// not one: browser tools take JavaScript by that name.
func commandArg(name string) bool {
	words := nameWords(name)
	return slices.Contains(words, "command") || slices.Contains(words, "cmd")
}

// elsewhereWords, in a tool's name (its server's too), say that what it
// runs runs elsewhere: in a container, a pod, a remote machine or
// sandbox. A command line it is given is that machine's, not this one's.
var elsewhereWords = []string{"pod", "pods", "container", "containers", "docker", "kubernetes", "k8s", "kubectl",
	"ssh", "remote", "sandbox", "e2b", "vm"}

// graphWords, in a tool's name, say it works on a knowledge graph (the
// memory server's open_nodes, delete_entities): its names are the
// graph's entities, not files.
var graphWords = []string{"node", "nodes", "entity", "entities", "relation", "relations", "observation", "observations", "graph"}

// nameHas reports whether a word of the tool's name is one of words.
func nameHas(name string, words []string) bool {
	for _, w := range nameWords(name) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}
