package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
)

// spec is the harness's spec file (bench/harness/spec.go), as much of it as
// this program writes.
type spec struct {
	Cases []specCase `json:"cases"`
}

type specCase struct {
	Name      string            `json:"name"`
	Runs      int               `json:"runs,omitempty"`
	Labels    map[string]string `json:"labels"`
	Reference command           `json:"reference"`
	Subject   command           `json:"subject"`
}

type command struct {
	Argv   []string          `json:"argv"`
	Stdin  string            `json:"stdin,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
	Before []command         `json:"before,omitempty"`
}

// Backends, the two sides of every case: the file inbox is the reference,
// the NATS inbox the subject.
const (
	fileBackend = "file"
	natsBackend = "nats"
)

// recipient is the agent every message is for: the main thread of a
// session, whose post-tool-use delivers them.
const recipient = "coordinator"

// messageText is the text of every message sent.
const messageText = "Use PostgreSQL, not SQLite."

// caseDef is one measured situation. Each case has its own pair of
// projects, so what one case leaves behind (delivered messages, a stream's
// consumer) does not weigh on another.
type caseDef struct {
	// key names the case's folder and labels it in the results.
	key  string
	name string
	// send is true for the send case: the timed command is `send` itself.
	send bool
	// waiting is how many messages are sent, untimed, before each hook run.
	waiting int
	// ownRuns, when set, caps the measured runs (a case whose preparation
	// starts many processes).
	ownRuns int
}

// cases are the measured situations, in table order. batchRuns caps the
// runs of the batch case, which starts batch+1 processes per run and side.
func cases(batch, batchRuns int) []caseDef {
	return []caseDef{
		{key: "empty", name: "post-tool-use, nothing to deliver"},
		{key: "one", name: "post-tool-use, 1 message waiting", waiting: 1},
		{key: "batch", name: fmt.Sprintf("post-tool-use, %d messages waiting", batch), waiting: batch, ownRuns: batchRuns},
		{key: "send", name: "send (1 message)", send: true},
	}
}

// project is where one side of one case runs: its folder, and the event
// its hook reads.
func project(work, key, backend string) (dir, event string) {
	return filepath.Join(work, key, backend), filepath.Join(work, key, backend+".json")
}

// buildSpec is the harness spec of the cases: for each, the file-backend
// side as reference and the NATS side as subject, with the same command,
// event and messages; only the project's config differs. The sends that
// prepare a hook run are before commands, outside the timed part. runs
// caps each case's own runs.
func buildSpec(hook, work string, defs []caseDef, runs int) spec {
	var s spec
	for _, d := range defs {
		c := specCase{
			Name:      d.name,
			Labels:    map[string]string{"key": d.key, "waiting": strconv.Itoa(d.waiting)},
			Reference: side(hook, work, d, fileBackend),
			Subject:   side(hook, work, d, natsBackend),
		}
		if d.ownRuns > 0 && d.ownRuns < runs {
			c.Runs = d.ownRuns
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

// side is the command of one backend of case d.
func side(hook, work string, d caseDef, backend string) command {
	dir, event := project(work, d.key, backend)
	env := map[string]string{"CLAUDE_PROJECT_DIR": dir, "TZ": "UTC"}
	send := command{Argv: []string{hook, "send", "--to", recipient, messageText}, Env: env}
	if d.send {
		return send
	}
	c := command{Argv: []string{hook, "post-tool-use"}, Stdin: event, Env: env}
	for range d.waiting {
		c.Before = append(c.Before, send)
	}
	return c
}

// configYAML is the project config of a backend: the inbox setting alone.
// The NATS timeout is the largest allowed: the benchmark measures the work
// of a hook that reaches its broker; on a loaded machine the default 500 ms
// would turn slow runs into outages, after which the back-off skips the
// broker, and a faster "run" would measure something else.
func configYAML(backend, url string) string {
	if backend == natsBackend {
		return fmt.Sprintf("inbox:\n  backend: nats\n  url: %s\n  timeout: 10s\n", url)
	}
	return "inbox:\n  backend: file\n"
}

// eventJSON is the PostToolUse event of a Bash call on the main thread of
// a session in project dir.
func eventJSON(dir string) []byte {
	data, _ := json.Marshal(map[string]any{
		"session_id": "b1", "transcript_path": "/tmp/b1.jsonl", "cwd": dir, "permission_mode": "default",
		"hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]any{"command": "go test ./...", "description": "Run the tests"},
		"tool_response": map[string]any{"stdout": "ok", "stderr": "", "interrupted": false, "isImage": false},
		"tool_use_id":   "toolu_01",
	})
	return data
}
