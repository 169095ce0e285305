package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// disableEnv is the escape hatch: set where the agent CLI is started, it
// makes hooks no-ops without touching any settings file. "1" (or true,
// all) is every hook; a comma list names hooks by subcommand
// (pre-tool-use) or event (PreToolUse). The agent cannot set it for the
// hooks: they get the CLI's environment, not the agent's shell's.
const disableEnv = "MASSGEN_HOOK_DISABLE"

// disabled reports whether disableEnv switches hook s off. A name that is
// no hook switches nothing off, and says so: a typo must not disable more.
func (a *app) disabled(s hookSpec) bool {
	v := strings.TrimSpace(a.getenv(disableEnv))
	switch strings.ToLower(v) {
	case "", "0", "false", "no", "off":
		return false
	case "1", "true", "yes", "on", "all":
		return true
	}
	off := false
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == s.use || strings.EqualFold(name, s.event):
			off = true
		case !isHookName(name):
			fmt.Fprintf(a.stderr, "massgen-hook: %s names %q, which is no hook; it is ignored\n", disableEnv, name)
		}
	}
	return off
}

// isHookName reports whether name is a hook subcommand or its event.
func isHookName(name string) bool {
	for _, sc := range subcommands() {
		if sc.name == name {
			return true
		}
	}
	for _, e := range config.RecordEvents { // every event massgen-hook has a hook for
		if strings.EqualFold(name, e) {
			return true
		}
	}
	return false
}

// disabledRecord is the audit line of a hook run that did nothing.
type disabledRecord struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Session string `json:"session_id,omitempty"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
}

// skipDisabled answers as a hook with no opinion, and writes one audit line
// saying the hook was switched off, so the trail shows the gap. It never
// fails the hook: an event it cannot read, or a trail it cannot write, is
// noted on stderr.
func (a *app) skipDisabled(s hookSpec, d *dialect.Dialect) error {
	raw, err := io.ReadAll(a.stdin)
	if err != nil {
		fmt.Fprintf(a.stderr, "massgen-hook: %s is switched off by %s; reading its event: %v\n", s.use, disableEnv, err)
		return nil
	}
	if d == nil {
		d = dialect.Detect(raw)
	}
	ev, native, _ := readEvent(d, raw, s.event)
	cwd, session := "", ""
	if ev != nil {
		cwd, session = ev.Cwd, ev.SessionID
	}
	if project, err := a.resolveProject(cwd, d.ProjectEnv); err == nil {
		now, err := a.clock()
		if err != nil {
			now = a.now()
		}
		rec := disabledRecord{Time: now.UTC().Format(time.RFC3339), Event: s.event, Session: session,
			Outcome: "disabled", Reason: disableEnv + "=" + a.getenv(disableEnv)}
		st := a.stateDir(project)
		defer st.Close()
		// A config that does not load only loses the copy: the local
		// line is what matters here.
		if cfg, _, err := a.loadRules(project, false); err == nil {
			a.attachAuditSink(st, project, &cfg)
		}
		if err := st.Audit(rec); err != nil {
			fmt.Fprintf(a.stderr, "massgen-hook: %s is switched off by %s; could not record it: %v\n", s.use, disableEnv, err)
		}
	}
	if ev == nil {
		return nil
	}
	_, err = d.Answer(a.stdout, a.stderr, native, s.event, protocol.Output{})
	return err
}
