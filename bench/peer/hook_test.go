package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeHookEnv makes the test binary act as a hook (see TestMain): it answers
// by the word the event's command starts with.
const fakeHookEnv = "PEER_TEST_FAKE_HOOK"

func TestMain(m *testing.M) {
	if os.Getenv(fakeHookEnv) == "1" {
		os.Exit(fakeHook(os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	cleanupBuilt()
	os.Exit(code)
}

// fakeHook answers an event as the word its command starts with says.
func fakeHook(stdin io.Reader, stdout, stderr io.Writer) int {
	var ev struct {
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	if err := json.NewDecoder(stdin).Decode(&ev); err != nil {
		fmt.Fprintln(stderr, "fake hook: bad event:", err)
		return 1
	}
	switch strings.Fields(ev.ToolInput.Command + " x")[0] {
	case "deny":
		fmt.Fprintln(stdout, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: `+ev.ToolInput.Command+`"}}`)
	case "ask":
		fmt.Fprintln(stdout, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`)
	case "exit2":
		fmt.Fprintln(stderr, "refused by exit 2")
		return 2
	case "crash":
		fmt.Fprintln(stderr, "panic: boom")
		return 1
	case "junk":
		fmt.Fprintln(stdout, "hello")
	case "hang":
		time.Sleep(time.Minute)
	}
	return 0
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name           string
		code           int
		stdout, stderr string
		want           answer
	}{
		{"no output", 0, "", "", answer{Kind: allowed}},
		{"blank output", 0, " \n", "a note\n", answer{Kind: allowed}},
		{"empty object", 0, "{}\n", "", answer{Kind: allowed}},
		{"deny", 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rule x: no"}}`, "", answer{denied, "rule x: no"}},
		{"ask", 0, `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, "", answer{asked, "sure?"}},
		{"allow", 0, `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "", answer{Kind: allowed}},
		{"defer", 0, `{"hookSpecificOutput":{"permissionDecision":"defer"}}`, "", answer{Kind: allowed}},
		{"context only", 0, `{"hookSpecificOutput":{"additionalContext":"fyi"},"systemMessage":"note"}`, "", answer{Kind: allowed}},
		{"deprecated block", 0, `{"decision":"block","reason":"old style"}`, "", answer{denied, "old style"}},
		{"deprecated approve", 0, `{"decision":"approve"}`, "", answer{Kind: allowed}},
		{"continue false", 0, `{"continue":false,"stopReason":"stop"}`, "", answer{denied, "stop"}},
		{"exit 2", 2, "", "\nblocked: rm\nmore\n", answer{denied, "blocked: rm"}},
		{"exit 1", 1, "", "massgen-hook: bad hook input\n", answer{failed, "exit 1: massgen-hook: bad hook input"}},
		{"signal", -1, "", "", answer{failed, "killed by a signal: "}},
		{"text", 0, "hello\n", "", answer{failed, "stdout is not a JSON object ("}},
		{"two objects", 0, "{}\n{}\n", "", answer{failed, "stdout is not one JSON object: {}"}},
		{"array", 0, "[]", "", answer{failed, "stdout is not a JSON object ("}},
		{"null", 0, "null", "", answer{failed, "stdout is not one JSON object: null"}},
		{"truncated", 0, `{"hookSpecificOutput":`, "", answer{failed, "stdout is not a JSON object ("}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := classify(tc.code, []byte(tc.stdout), []byte(tc.stderr))
			if !sameAnswer(got, tc.want) {
				t.Errorf("classify = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// sameAnswer compares answers; for a failure, want's reason need only be
// the start of got's (the JSON decoder's wording is not ours to pin).
func sameAnswer(got, want answer) bool {
	if got.Kind != want.Kind {
		return false
	}
	if got.Kind == failed {
		return strings.HasPrefix(got.Reason, want.Reason)
	}
	return got.Reason == want.Reason
}

// fakeRun is a hookRun of the test binary acting as a hook.
func fakeRun(t *testing.T, timeout time.Duration) hookRun {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return hookRun{bin: self, env: []string{fakeHookEnv + "=1"}, dir: t.TempDir(), timeout: timeout}
}

func TestRunAllKeepsOrderAndClassifies(t *testing.T) {
	h := fakeRun(t, 20*time.Second)
	commands := []string{"ls", "deny rm -rf /", "ask x", "exit2", "crash", "junk", "git status", "deny two"}
	events := make([][]byte, len(commands))
	for i, c := range commands {
		events[i] = bashEvent(c, h.dir, fmt.Sprint(i))
	}
	answers, err := runAll(context.Background(), h, events, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []answer{
		{Kind: allowed},
		{denied, "no: deny rm -rf /"},
		{asked, "sure?"},
		{denied, "refused by exit 2"},
		{failed, "exit 1: panic: boom"},
		{failed, "stdout is not a JSON object ("},
		{Kind: allowed},
		{denied, "no: deny two"},
	}
	for i := range want {
		if !sameAnswer(answers[i], want[i]) {
			t.Errorf("%q: %+v, want %+v", commands[i], answers[i], want[i])
		}
	}
}

func TestRunTimesOut(t *testing.T) {
	h := fakeRun(t, 200*time.Millisecond)
	a, err := h.run(context.Background(), bashEvent("hang", h.dir, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != failed || !strings.HasPrefix(a.Reason, "no answer within") {
		t.Errorf("a hanging hook gave %+v, want a failure", a)
	}
}

func TestRunAllStopsWhenTheHookCannotStart(t *testing.T) {
	h := hookRun{bin: filepath.Join(t.TempDir(), "missing"), dir: t.TempDir(), timeout: time.Second}
	events := [][]byte{bashEvent("ls", h.dir, "1"), bashEvent("ls", h.dir, "2")}
	if _, err := runAll(context.Background(), h, events, 2); !errors.Is(err, errStart) {
		t.Errorf("runAll = %v, want errStart", err)
	}
}

func TestBashEventIsClaudeCodeShape(t *testing.T) {
	var ev map[string]any
	if err := json.Unmarshal(bashEvent("echo \"hi\"\nls", "/p", "toolu_1"), &ev); err != nil {
		t.Fatal(err)
	}
	if ev["hook_event_name"] != "PreToolUse" || ev["tool_name"] != "Bash" || ev["cwd"] != "/p" || ev["tool_use_id"] != "toolu_1" {
		t.Errorf("event %v", ev)
	}
	if in, _ := ev["tool_input"].(map[string]any); in["command"] != "echo \"hi\"\nls" {
		t.Errorf("tool_input %v", ev["tool_input"])
	}
}
