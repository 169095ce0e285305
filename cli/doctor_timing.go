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
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// doctorTiming is one wired hook command run on its probe event.
type doctorTiming struct {
	Subcommand string `json:"subcommand"`
	// Binary is the file that ran, as doctor shows it.
	Binary string  `json:"binary"`
	Event  string  `json:"event"`
	Ms     float64 `json:"ms"`
	Exit   int     `json:"exit"`
}

// doctorSamples are the probe events, one per subcommand init wires, in
// Claude Code's shape. CWD stands for the throwaway project, EVENT for the
// CLI's name of the event, TOOL for the tool call; the dialects read these
// fields too.
var doctorSamples = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"session-start":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"source":"startup"}`,
		"subagent-start":        `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"agent_id":"doctor-1","agent_type":"massgen-doctor-probe"}`,
		"subagent-stop":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"stop_hook_active":false,"agent_id":"doctor-1","agent_type":"massgen-doctor-probe","agent_transcript_path":""}`,
		"stop":                  `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"stop_hook_active":false}`,
		"permission-request":    `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"permission_mode":"default","agent_id":"doctor-1","agent_type":"massgen-doctor-probe","tool_name":"Write","tool_input":{"file_path":"/nonexistent/x.md","content":"x"}}`,
		"pre-tool-use":          `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,TOOL,"tool_use_id":"toolu_doctor"}`,
		"post-tool-use":         `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"","stderr":"","interrupted":false},"tool_use_id":"toolu_doctor"}`,
		"post-tool-use-failure": `{"session_id":"doctor","transcript_path":"","cwd":CWD,"hook_event_name":EVENT,"tool_name":"Bash","tool_input":{"command":"false"},"tool_use_id":"toolu_doctor","error":"Exit code 1"}`,
	}
}}

// probeRead is the pre-tool-use probe's tool call in each CLI's terms: a
// Read of a file that does not exist, which nothing should block. ABSENT
// stands for its path.
var probeRead = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"claude":  `"tool_name":"Read","tool_input":{"file_path":ABSENT}`,
		"codex":   `"tool_name":"Read","tool_input":{"file_path":ABSENT}`,
		"cursor":  `"tool_name":"Read","tool_input":{"file_path":ABSENT}`,
		"gemini":  `"tool_name":"read_file","tool_input":{"file_path":ABSENT}`,
		"copilot": `"toolName":"view","toolArgs":{"path":ABSENT}`,
		"pi":      `"toolName":"read","input":{"path":ABSENT}`,
	}
}}

// probe is one wired hook command to run: a binary, the arguments init
// wrote, the CLI's event, and where it is wired.
type probe struct {
	bin     string
	args    []string
	dialect string
	event   string // the CLI's name
	claude  string // Claude Code's name
	timeout time.Duration
	// shown is the binary as reports name it; where lists where it is
	// wired ("" for this binary, tried when nothing is wired).
	shown, where string
}

// maxProbeTime bounds one probe: far above what a hook needs on a sample,
// far below the CLIs' own timeouts.
const maxProbeTime = 10 * time.Second

// probes are the hook commands the wiring runs, each binary and arguments
// once; with nothing wired, this binary's hooks as init would wire them
// for Claude Code, so the config is still tried.
func (d *doctorRun) probes(exe string) ([]probe, []doctor.Finding) {
	var out []probe
	var notes []doctor.Finding
	seen := map[string]bool{}
	for _, wf := range d.wired {
		for _, h := range wf.ours {
			where := fmt.Sprintf("%s:%d (%s)", d.rel(wf.path), h.Line, wf.name())
			bin := d.wiredProgram(h.Command, d.project)
			if bin == "" {
				notes = append(notes, doctor.Finding{Severity: doctor.Note,
					Scope: "probe", File: d.rel(wf.path), Line: h.Line, Field: "hooks." + h.Event,
					Message: "cannot tell which binary this command runs before the CLI runs it, so it was not tried"})
				continue
			}
			_, args := commandWords(h.Command)
			key := bin + "\x00" + strings.Join(args, " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, d.probeFor(wf.target, bin, args, h.Event, where))
		}
	}
	if len(out) == 0 && !d.wiredAnywhere() {
		t := targets.Get()["claude"]
		for _, w := range t.wires {
			p := d.probeFor(t, exe, []string{w.sub}, w.event, "")
			p.shown = doctor.ProgramName
			out = append(out, p)
		}
	}
	return out, notes
}

func (d *doctorRun) probeFor(t target, bin string, args []string, event, where string) probe {
	p := probe{bin: bin, args: args, dialect: "claude", event: event, claude: event, timeout: maxProbeTime, shown: d.rel(bin), where: where}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--dialect" {
			p.dialect = args[i+1]
		}
	}
	for _, w := range t.wires {
		if w.event == event && len(args) > 0 && w.sub == args[0] {
			p.claude = claudeEventOf(w.sub)
			if limit := wiredTimeout(t, w); limit < p.timeout {
				p.timeout = limit
			}
		}
	}
	return p
}

// claudeEventOf is Claude Code's event for a hook subcommand.
func claudeEventOf(sub string) string {
	for _, w := range claudeWires {
		if w.sub == sub {
			return w.event
		}
	}
	return ""
}

func wiredTimeout(t target, w wire) time.Duration {
	if t.name == "gemini" {
		return time.Duration(w.timeout) * time.Millisecond
	}
	return time.Duration(w.timeout) * time.Second
}

// timeHooks runs every wired hook command on its probe event, in a
// throwaway project holding a copy of the project's config, and first asks
// each binary its version. A binary that cannot run, or differs from this
// one, is a problem; so is a run that fails, prints what is not one JSON
// object, blocks the harmless probe, or outlasts its timeout.
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
	var skip *noProbes
	if errors.As(err, &skip) {
		return nil, []doctor.Finding{{Severity: doctor.Problem, Scope: "probe", File: d.rel(cfgPath),
			Message: "the wired hooks were not run on probe events: " + skip.why.Error() + "; a probe would reach the NATS broker and take real messages; write inbox.backend and audit.sink as plain values"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// The children name the copy of the config; show the real one.
	shown := strings.NewReplacer(filepath.Join(tmp, config.DefaultPath), cfgPath, tmp, d.project)
	probes, findings := d.probes(exe)
	var timings []doctorTiming
	broken := map[string]bool{}
	for _, bin := range binariesOf(probes) {
		is, runs := d.checkBinary(exe, bin, tmp, env, probes)
		if is != nil {
			findings = append(findings, doctor.Finding{Severity: is.Severity, Scope: "binary", File: d.rel(bin), Message: shown.Replace(is.Message)})
		}
		broken[bin] = !runs
	}
	// A note said by one binary on every probe is said once.
	saidBefore := map[string]bool{}
	cwd, _ := json.Marshal(tmp)
	absent, _ := json.Marshal(filepath.Join(tmp, "doctor-probe-absent.txt"))
	for _, p := range probes {
		sample, ok := doctorSamples.Get()[p.args[0]]
		if !ok || broken[p.bin] {
			continue
		}
		name, _ := json.Marshal(p.event)
		sample = strings.NewReplacer("CWD", string(cwd), "EVENT", string(name), "TOOL", probeRead.Get()[p.dialect]).Replace(sample)
		sample = strings.Replace(sample, "ABSENT", string(absent), 1)
		pe := env
		if dl, err := dialect.Named(p.dialect); err == nil && dl.ProjectEnv != "" {
			pe = append(append([]string{}, env...), dl.ProjectEnv+"="+tmp)
		}
		t, is := runSample(p, tmp, pe, sample)
		t.Binary = p.shown
		timings = append(timings, t)
		if is != nil && !saidBefore[p.bin+"\x00"+is.Message] {
			saidBefore[p.bin+"\x00"+is.Message] = is.Severity == doctor.Note
			msg := shown.Replace(is.Message)
			if p.where != "" {
				msg += "; wired at " + p.where
			}
			findings = append(findings, doctor.Finding{Severity: is.Severity, Scope: "probe",
				File: p.shown + " " + strings.Join(p.args, " "), Message: msg})
		}
	}
	return timings, findings, nil
}

// binariesOf lists the binaries of probes, sorted.
func binariesOf(probes []probe) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range probes {
		if !seen[p.bin] {
			seen[p.bin] = true
			out = append(out, p.bin)
		}
	}
	sort.Strings(out)
	return out
}

// checkBinary runs bin version: a binary that cannot run, or does not
// answer as massgen-hook does, is a problem, and runs is false (its hooks
// are not probed); one that reports another version than exe is stale.
func (d *doctorRun) checkBinary(exe, bin, dir string, env []string, probes []probe) (is *doctor.Issue, runs bool) {
	var where []string
	for _, p := range probes {
		if p.bin == bin && !containsStr(where, p.where) {
			where = append(where, p.where)
		}
	}
	wired := "; it is wired at " + strings.Join(where, ", ")
	fix := "run massgen-hook init in the project (or massgen-hook doctor --fix) to copy this binary there"
	if !isProjectBinary(d.project, bin) {
		fix = "put a working massgen-hook there, or run init --scope user with the one you mean"
	}
	if sameFile(bin, exe) {
		return nil, true
	}
	ctx, cancel := context.WithTimeout(context.Background(), maxProbeTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "version")
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	problem := func(format string, args ...any) (*doctor.Issue, bool) {
		return &doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(format, args...) + wired}, false
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return problem("did not answer `version` within %s; %s", maxProbeTime, fix)
	case err != nil && !errors.As(err, &exit):
		return problem("cannot be run (%v): every hook that runs it fails; %s", unwrapErr(err), fix)
	case err != nil:
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return problem("exits %d when asked its version (%s), so it is no working massgen-hook; %s", exit.ExitCode(), first, fix)
	}
	// The first line names the version; a revision line may follow.
	got, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), "\n")
	want := "massgen-hook " + versionLine()
	if !strings.HasPrefix(got, "massgen-hook ") {
		return problem("answers `version` with %q, not as massgen-hook does; %s", got, fix)
	}
	if got != want {
		is, _ := problem("is stale: it is %s, this binary is %s; %s", got, want, fix)
		return is, true
	}
	if !sameBytes(bin, exe) {
		return &doctor.Issue{Severity: doctor.Note, Message: "reports this binary's version but is another build of it; " + fix + wired}, true
	}
	return nil, true
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isProjectBinary reports whether bin is where init copies the binary.
func isProjectBinary(project, bin string) bool {
	return sameFile(bin, filepath.Join(project, projectBinary))
}

// sameBytes reports whether files a and b hold the same bytes.
func sameBytes(a, b string) bool {
	x, errA := hookfs.ReadFile(a, maxBinaryBytes)
	y, errB := hookfs.ReadFile(b, maxBinaryBytes)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// throwawayProject copies the project's config into tmp (with the file
// inbox and no audit copy: probeConfig), links each rule handler named
// relative to the project at the same place in tmp, and returns the
// environment the children run in, and the config's path as doctor shows
// it. Nothing the probes write lands in the project, and they reach no
// broker. A *noProbes error says the probes must not run.
func (d *doctorRun) throwawayProject(tmp string) ([]string, string, error) {
	var env []string
	for _, kv := range d.environ() {
		if name, _, _ := strings.Cut(kv, "="); probeEnvDropped.Get()[name] {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "CLAUDE_PROJECT_DIR="+tmp, "MASSGEN_AGENT_ID="+probeAgent)
	path, required := config.Locate(d.configPath, d.getenv("MASSGEN_HOOK_CONFIG"), d.project)
	data, err := hookfs.ReadFile(path, config.MaxFileBytes)
	if err == nil {
		if data, err = probeConfig(path, data); err != nil {
			return nil, d.rel(path), &noProbes{why: err}
		}
	}
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
	for _, h := range d.ruleHandlers {
		if strings.Contains(h, "/") && !filepath.IsAbs(h) {
			link := filepath.Join(tmp, h)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err == nil {
				_ = os.Symlink(filepath.Join(d.project, h), link)
			}
		}
	}
	return env, d.rel(path), nil
}

// noProbes says why the probes cannot run without touching the user's
// data.
type noProbes struct{ why error }

func (e *noProbes) Error() string { return e.why.Error() }

// runSample runs one probe and judges the run.
func runSample(p probe, dir string, env []string, sample string) (doctorTiming, *doctor.Issue) {
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, p.args...)
	cmd.Args[0] = doctor.ProgramName
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(sample)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // a detached child keeping the pipes open must not hold doctor
	start := time.Now()
	err := cmd.Run()
	t := doctorTiming{Subcommand: strings.Join(p.args, " "), Event: p.event, Ms: float64(time.Since(start).Microseconds()) / 1000}
	if cmd.ProcessState != nil {
		t.Exit = cmd.ProcessState.ExitCode()
	}
	problem := func(format string, args ...any) (doctorTiming, *doctor.Issue) {
		return t, &doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case ctx.Err() != nil:
		return problem("did not answer a probe %s event within %s; the CLI would give up on it", p.event, p.timeout)
	case err != nil && t.Exit <= 0:
		return problem("could not be run on a probe %s event: %v", p.event, unwrapErr(err))
	case t.Exit != 0:
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return problem("exits %d on a probe %s event: %s", t.Exit, p.event, first)
	case stderr.Len() > 0 && failsWithExitZero(p):
		// A failure there looks like a warning: both exit 0 with a line.
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return t, &doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
			"says on stderr, exit 0: %s (%s takes a failure that lets the call proceed as exit 0 with such a line)", first, cliNames.Get()[p.dialect])}
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if len(out) == 0 {
		return t, nil
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		return problem("prints output that is not one JSON object on a probe %s event (%v); the CLI would ignore it", p.event, err)
	}
	if name := gjson.GetBytes(out, "hookSpecificOutput.hookEventName"); p.dialect == "claude" && name.Exists() && name.String() != p.claude {
		return problem("answers a probe %s event with hookEventName %q; Claude Code rejects the answer", p.event, name.String())
	}
	if (p.claude == "PreToolUse" || p.claude == "PermissionRequest") && blocks(out) {
		return problem("blocks a probe %s event that asks nothing risky (%s); it would block every such call", p.event, out)
	}
	return t, nil
}

// failsWithExitZero reports whether p's CLI takes exit 0 for a failure
// that lets the call proceed (Copilot CLI denies on any other): there,
// only stderr tells a failure.
func failsWithExitZero(p probe) bool {
	dl, err := dialect.Named(p.dialect)
	return err == nil && dl.Exit(protocol.ExitError, p.claude) == protocol.ExitOK
}

// blocks reports whether an answer, in any CLI's shape, denies the call.
func blocks(out []byte) bool {
	for _, path := range []string{"hookSpecificOutput.permissionDecision", "hookSpecificOutput.decision.behavior",
		"decision", "permission", "permissionDecision"} {
		switch gjson.GetBytes(out, path).String() {
		case "deny", "block":
			return true
		}
	}
	return false
}
