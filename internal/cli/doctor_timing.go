package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/doctor"
	"github.com/massgen/massgen-hook/internal/hookfs"
)

// doctorTiming is one hook subcommand run on its sample event.
type doctorTiming struct {
	Subcommand string  `json:"subcommand"`
	Event      string  `json:"event"`
	Ms         float64 `json:"ms"`
	Exit       int     `json:"exit"`
}

// doctorSamples are the events the hook subcommands are timed on, one per
// subcommand init wires. CWD stands for the throwaway project.
var doctorSamples = map[string]string{
	"session-start":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"SessionStart","source":"startup"}`,
	"subagent-start":        `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"SubagentStart","agent_id":"doctor-1","agent_type":"general-purpose"}`,
	"subagent-stop":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"doctor-1","agent_type":"general-purpose","agent_transcript_path":""}`,
	"stop":                  `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"Stop","stop_hook_active":false}`,
	"permission-request":    `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"PermissionRequest","permission_mode":"default","agent_id":"doctor-1","agent_type":"general-purpose","tool_name":"Write","tool_input":{"file_path":"/nonexistent/x.md","content":"x"}}`,
	"pre-tool-use":          `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_doctor"}`,
	"post-tool-use":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"","stderr":"","interrupted":false},"tool_use_id":"toolu_doctor"}`,
	"post-tool-use-failure": `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"tool_use_id":"toolu_doctor","error":"Exit code 1"}`,
}

// timeHooks runs each subcommand init wires into Claude Code on its sample
// event, as a child of this binary, in a throwaway project holding a copy
// of the project's config. A run that fails, prints what is not one JSON
// object, or outlasts its wired timeout is a problem.
func (d *doctorRun) timeHooks() ([]doctorTiming, []doctor.Finding, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("finding this binary to time the hooks (or use --no-timing): %w", err)
	}
	tmp, err := os.MkdirTemp("", "massgen-hook-doctor-")
	if err != nil {
		return nil, nil, fmt.Errorf("making a throwaway project to time the hooks in (or use --no-timing): %w", err)
	}
	defer os.RemoveAll(tmp)
	env, cfgPath, err := d.throwawayProject(tmp)
	if err != nil {
		return nil, nil, err
	}
	// The children name the copy of the config; show the real one.
	shown := strings.NewReplacer(filepath.Join(tmp, config.DefaultPath), cfgPath, tmp, d.project)
	var timings []doctorTiming
	var findings []doctor.Finding
	for _, w := range targets["claude"].wires {
		sample, ok := doctorSamples[w.sub]
		if !ok {
			continue
		}
		cwd, _ := json.Marshal(tmp)
		t, is := runSample(exe, tmp, env, w.sub, w.event, strings.Replace(sample, "CWD", string(cwd), 1), time.Duration(w.timeout)*time.Second)
		timings = append(timings, t)
		if is != nil {
			findings = append(findings, doctor.Finding{Severity: doctor.Problem, Scope: "timing",
				File: doctor.ProgramName + " " + w.sub, Message: shown.Replace(is.Message)})
		}
	}
	return timings, findings, nil
}

// throwawayProject copies the project's config into tmp and returns the
// environment the children run in, and the config's path as doctor shows it.
func (d *doctorRun) throwawayProject(tmp string) ([]string, string, error) {
	var env []string
	for _, kv := range d.environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "CLAUDE_PROJECT_DIR", "MASSGEN_HOOK_CONFIG", "CLAUDE_ENV_FILE":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "CLAUDE_PROJECT_DIR="+tmp)
	path, required := config.Locate(d.configPath, d.getenv("MASSGEN_HOOK_CONFIG"), d.project)
	data, err := hookfs.ReadFile(path, config.MaxFileBytes)
	switch {
	case err == nil:
		dest := filepath.Join(tmp, config.DefaultPath)
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(dest, data, 0o644); err != nil {
			return nil, "", err
		}
	case required || !errors.Is(err, fs.ErrNotExist):
		// Let the children meet the same error.
		abs, _ := filepath.Abs(path)
		env = append(env, "MASSGEN_HOOK_CONFIG="+abs)
	}
	return env, d.rel(path), nil
}

// runSample runs one subcommand on its sample and judges the run.
func runSample(exe, dir string, env []string, sub, event, sample string, timeout time.Duration) (doctorTiming, *doctor.Issue) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, sub)
	cmd.Args[0] = doctor.ProgramName
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(sample)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // a detached child keeping the pipes open must not hold doctor
	start := time.Now()
	err := cmd.Run()
	t := doctorTiming{Subcommand: sub, Event: event, Ms: float64(time.Since(start).Microseconds()) / 1000}
	if cmd.ProcessState != nil {
		t.Exit = cmd.ProcessState.ExitCode()
	}
	problem := func(format string, args ...any) (doctorTiming, *doctor.Issue) {
		return t, &doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case ctx.Err() != nil:
		return problem("did not answer a sample %s event within %s, the timeout init wires; Claude Code would give up on it", event, timeout)
	case err != nil && t.Exit <= 0:
		return problem("could not be run on a sample %s event: %v", event, err)
	case t.Exit != 0:
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return problem("exits %d on a sample %s event: %s", t.Exit, event, first)
	}
	if out := bytes.TrimSpace(stdout.Bytes()); len(out) > 0 {
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			return problem("prints output that is not one JSON object on a sample %s event (%v); Claude Code would ignore it", event, err)
		}
	}
	return t, nil
}
