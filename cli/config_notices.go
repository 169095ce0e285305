package cli

import (
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// A config's notices (a MassGen Python hook skipped, a key neither
// massgen-hook nor MassGen knows) do not stop it from being used, so a hook
// says them once per session, where the CLI shows warnings, and on stderr
// that time; `config validate` lists them every time.

// noteConfigNotices adds cfg's notices to out the first time this session
// meets them.
func (a *app) noteConfigNotices(env *hookenv.Env, ev *protocol.Event, d *dialect.Dialect, out protocol.Output, cfg *config.Config) protocol.Output {
	if len(cfg.Notices) == 0 || env.DryRun {
		return out
	}
	msg := configNoticesMessage(env.Layout.Project, cfg.Notices)
	if !a.firstTimeThisSession(env.State, ev, msg) {
		return out
	}
	fmt.Fprintln(a.stderr, msg)
	if d.ShowsWarnings() {
		out.SystemMessage = protocol.Paragraphs(out.SystemMessage, msg)
	}
	return out
}

// configNoticesMessage is the notices for the user, the first few in full.
func configNoticesMessage(project string, notices []*config.Error) string {
	var b strings.Builder
	b.WriteString("massgen-hook: notes on the config (it is used):")
	for i, n := range notices {
		if i == maxConfigErrorLines {
			fmt.Fprintf(&b, "\n  ... and %d more (massgen-hook config validate lists them)", len(notices)-i)
			break
		}
		b.WriteString("\n  " + relativeTo(project, n.Error()))
	}
	return b.String()
}
