package config

import (
	"reflect"
	"testing"
)

func TestParseRecord(t *testing.T) {
	all := Record{On: true, Dir: DefaultRecordDir}
	tests := []struct {
		text string
		want Record
	}{
		{"fail_closed: false\n", Record{}},
		{"record:\n", all},
		{"record:\n# dir: x\n", all},
		{"record: true\n", all},
		{"record: false\n", Record{Dir: DefaultRecordDir}},
		{"record: {}\n", all},
		{"record:\n  dir: tests/corpus\n", Record{On: true, Dir: "tests/corpus"}},
		{"record:\n  events: [PreToolUse, Stop]\n", Record{On: true, Dir: DefaultRecordDir, Events: []string{"PreToolUse", "Stop"}}},
		{"record: {dir: ./a/../b}\n", Record{On: true, Dir: "./a/../b"}},
		// A rule's text mentioning record: is not the key.
		{"hooks:\n  PreToolUse:\n    - shell: 'echo\n\n        record: 1'\n", Record{}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			cfg, err := Parse(file, []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.Record, tt.want) {
				t.Errorf("Record = %+v, want %+v", cfg.Record, tt.want)
			}
		})
	}
}

func TestParseRecordErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"record:\n  dir: ../elsewhere\n", `cfg.yaml:2: record.dir: "../elsewhere" leaves the project: recordings must stay inside it`},
		{"record:\n  dir: a/../../b\n", `cfg.yaml:2: record.dir: "a/../../b" leaves the project: recordings must stay inside it`},
		{"record:\n  dir: ..\n", `cfg.yaml:2: record.dir: ".." leaves the project: recordings must stay inside it`},
		{"record:\n  dir: /tmp/corpus\n", `cfg.yaml:2: record.dir: "/tmp/corpus" must be relative to the project (recordings stay inside it)`},
		{"record:\n  dir: ~/corpus\n", `cfg.yaml:2: record.dir: "~/corpus" must be relative to the project (recordings stay inside it)`},
		{"record:\n  dir: .\n", `cfg.yaml:2: record.dir: "." is the project itself: name a folder inside it`},
		{"record:\n  dir: ''\n", `cfg.yaml:2: record.dir: must not be empty`},
		{"record:\n  events: [PreToolUse, UserPromptSubmit]\n",
			`cfg.yaml:2: record.events: entry 2, "UserPromptSubmit", is not an event massgen-hook handles: use PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, SessionStart, SubagentStart, SubagentStop, Stop`},
		{"record:\n  folder: x\n", `cfg.yaml:2: unknown key "record.folder"`},
		{"record: yes\n", "cfg.yaml:1: key record: must be true, false, or a mapping with dir: and events:, got `yes`"},
		{"record:\n  events: PreToolUse\n", "cfg.yaml:2: key record.events: cannot unmarshal !!str `PreToolUse` into []string"},
		{"record: ~\n", "cfg.yaml:1: record: a null value is ambiguous: write record: true to record (or a mapping with dir: and events:), record: false not to"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestRecordWants(t *testing.T) {
	all := Record{On: true}
	if !all.Wants("Stop") || !all.Wants("PreToolUse") {
		t.Error("no events: every event is recorded")
	}
	some := Record{On: true, Events: []string{"Stop"}}
	if !some.Wants("Stop") || some.Wants("PreToolUse") {
		t.Error("events: only those are recorded")
	}
}
