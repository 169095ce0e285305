package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/corpus"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// recordEnv names the variable that switches recording on for one run,
// whatever the config says: MASSGEN_HOOK_RECORD=DIR (absolute, or relative
// to the project).
const recordEnv = "MASSGEN_HOOK_RECORD"

// record adds this hook run to the corpus when recording is on (the
// config's record: key, or $MASSGEN_HOOK_RECORD): the event as the hook
// saw it, redacted, the agent and a summary of the answer. It runs after
// the answer is written and can change nothing about it: a failure is one
// stderr line. With recording off it costs one map lookup and no syscall.
// A replay never records.
func (a *app) record(env *hookenv.Env, ev *protocol.Event, out protocol.Output, hookErr error, failClosed bool) {
	rc := &env.Config.Record
	dir := a.getenv(recordEnv)
	if dir == "" && !rc.On || a.sandbox != "" || ev == nil || !rc.Wants(ev.HookEventName) {
		return
	}
	if err := a.writeRecording(env, ev, dir, out, hookErr, failClosed); err != nil {
		fmt.Fprintf(a.stderr, "massgen-hook: recording the %s event: %v (the hook's answer stands)\n", ev.HookEventName, err)
	}
}

func (a *app) writeRecording(env *hookenv.Env, ev *protocol.Event, dir string, out protocol.Output, hookErr error, failClosed bool) error {
	project := env.Layout.Project
	if dir == "" {
		dir = env.Config.Record.Dir
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(project, dir)
	}
	dir = filepath.Clean(dir)
	if err := a.ensureCorpus(env.State, dir); err != nil {
		return err
	}
	v := corpus.Summarize(out, protocol.ExitOK, "")
	if hookErr != nil {
		v = corpus.Summarize(protocol.Output{}, protocol.ExitCode(hookErr, ev.HookEventName, failClosed), hookErr.Error())
	}
	data, err := corpus.New(env.Now, ev.Raw, env.Agent, v).Encode()
	if err != nil {
		return err
	}
	_, err = corpus.Write(dir, a.now(), ev.HookEventName, data)
	return err
}

// ensureCorpus creates the corpus folder, owner-only. Inside the runtime
// directory it goes through st, which keeps the directory's .gitignore, so
// recordings are never committed by accident; elsewhere in the project
// committing them is the point.
func (a *app) ensureCorpus(st *state.Dir, dir string) error {
	if rel, err := filepath.Rel(st.Path, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		_, err := st.Ensure(filepath.ToSlash(rel))
		return err
	}
	return os.MkdirAll(dir, 0o700)
}
