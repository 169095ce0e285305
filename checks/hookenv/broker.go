package hookenv

import (
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/nats/natsinbox"
	"github.com/massgen/massgen-hook/state"
)

// Broker is the inbox's NATS broker when the config puts the inbox there
// (inbox.backend: nats), else nil. A dry run (explain) and a replay never
// reach it: fetching changes what the broker hands out. A server setting
// that cannot be used (a TLS file missing) is noted, and the hook goes on
// with the local inbox: its own answer matters as much.
func (env *Env) Broker() *natsinbox.Broker {
	if !env.Config.Inbox.UsesNATS() || env.State == nil || env.DryRun || env.Replay {
		return nil
	}
	return OpenBroker(env.Config, env.getenv, env.State, env.Now, env.Notes, "massgen-hook "+env.Recipient, env.Note)
}

// getenv looks name up in the environment the hook was given.
func (env *Env) getenv(name string) string {
	for _, kv := range env.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// configDir is the folder a config file's relative paths start from.
func configDir(path string) string {
	if path == "" {
		return "."
	}
	return filepath.Dir(path)
}

// OpenBroker makes the inbox's broker from cfg (inbox.backend: nats), or
// returns nil, noting why, when its settings cannot be used. `send` and
// `inbox` use it as the hooks do.
func OpenBroker(cfg config.Config, getenv func(string) string, st *state.Dir, now time.Time, notes io.Writer, client string, note func(string, ...any)) *natsinbox.Broker {
	n := cfg.InboxNATS(getenv)
	opts, err := n.DialOptions(configDir(cfg.Path), client)
	if err != nil {
		note("inbox: the NATS broker's settings cannot be used (%v); only messages already on this machine are delivered", err)
		return nil
	}
	b := natsinbox.New(natsinbox.Settings{Dial: opts, Stream: cfg.InboxStream(), Subject: cfg.InboxSubject(),
		MaxBytes: cfg.Inbox.MaxBytes, Timeout: time.Duration(n.Timeout), AckWait: time.Duration(cfg.Inbox.AckWait)}, st, now)
	b.Notes = notes
	return b
}
