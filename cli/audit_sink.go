package cli

import (
	"path/filepath"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
	"github.com/massgen/massgen-hook/state"
)

// attachAuditSink gives d the NATS copy of the audit trail when cfg asks
// for one (audit.sink: nats). Nothing of it is built otherwise, and replay
// (a sandbox) publishes nothing: its decisions are not the project's.
func (a *app) attachAuditSink(d *state.Dir, project string, cfg *config.Config) {
	if cfg.Audit.Sink != config.BackendNATS || a.sandbox != "" || d.ReadOnly {
		return
	}
	if a.auditSink == nil {
		n := cfg.AuditNATS(a.getenv)
		base := project
		if cfg.Path != "" {
			base = filepath.Dir(cfg.Path)
		}
		opts, err := n.DialOptions(base, "massgen-hook audit")
		opts.URLs = n.URLs() // kept when a credentials file is missing, to redact them from errors
		prefix := cfg.AuditSubject()
		a.auditSink = &natsaudit.Sink{
			Dir: d, Dial: opts, Setup: err,
			Stream: cfg.AuditStream(), Prefix: prefix, Subject: natsaudit.Subject(prefix, project),
			Timeout: time.Duration(n.Timeout), Now: a.sinkNow, Notes: a.stderr,
		}
	}
	d.AuditSink = a.auditSink
}

// sinkNow is the hooks' clock for the sink's backoff ($MASSGEN_HOOK_NOW
// when set).
func (a *app) sinkNow() time.Time {
	if t, err := a.clock(); err == nil {
		return t
	}
	return a.now()
}

// closeAuditSink ends the sink's connection, if one was opened.
func (a *app) closeAuditSink() {
	if a.auditSink != nil {
		a.auditSink.Close()
	}
}
