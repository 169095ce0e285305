package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// brokerCheckTime bounds doctor's look at a broker: a person waits for
// it, not an agent, so it is not held to the hooks' timeout.
const brokerCheckTime = 5 * time.Second

// probedWithoutBroker ends what doctor says of a broker: the probes never
// reach it, so this look is all doctor does there.
const probedWithoutBroker = "checked read-only (the probes ran with the file inbox and no audit copy)"

// checkBrokers looks, read-only, at each NATS broker the config uses: it
// connects and asks about the stream, and changes nothing there (no
// consumer, no message, no stream made). The probes use no broker at all
// (probeConfig), so this is how doctor sees whether messages travel.
// A broker that cannot be reached is a problem: the hooks answer without
// it, but messages do not travel until it is back.
func (d *doctorRun) checkBrokers() {
	cfg := d.cfg
	if cfg == nil {
		return
	}
	base := d.project
	if cfg.Path != "" {
		base = filepath.Dir(cfg.Path)
	}
	if cfg.Inbox.UsesNATS() {
		d.checkBroker("inbox.url", "the inbox's", cfg.InboxNATS(d.getenv), base, cfg.InboxStream(),
			"the first send or hook creates it", "messages wait on it, or in this machine's spool, until it is back")
	}
	if cfg.Audit.Sink == config.BackendNATS {
		d.checkBroker("audit.url", "the audit copy's", cfg.AuditNATS(d.getenv), base, cfg.AuditStream(),
			"the first hook's audit line creates it", "hooks keep their lines in this machine's spool until it is back (the local trail has them all)")
	}
}

func (d *doctorRun) checkBroker(field, whose string, n config.NATS, base, stream, creates, down string) {
	s := d.cfgScope
	problem := func(format string, args ...any) {
		d.add(s, 0, field, doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(format, args...)})
	}
	opts, err := n.DialOptions(base, "massgen-hook doctor")
	if err != nil {
		problem("%s NATS broker cannot be tried: %s; %s", whose, scrubURLs(err.Error(), n.URLs()), down)
		return
	}
	wait := max(time.Duration(n.Timeout), brokerCheckTime)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	c, err := natsclient.Dial(ctx, opts)
	cancel()
	if err != nil {
		problem("%s NATS broker at %s cannot be reached (%s): %s", whose, redactedURLs(n.URLs()), scrubURLs(err.Error(), n.URLs()), down)
		return
	}
	defer c.Close()
	var state string
	si, err := c.StreamInfo(stream, time.Now().Add(wait))
	switch {
	case natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound):
		state = fmt.Sprintf("stream %s is not created yet (%s)", stream, creates)
	case err != nil:
		problem("%s NATS broker at %s answers, but not about stream %s (%s): JetStream may be off there, or this user may not read the stream, and the hooks need both",
			whose, c.Server(), stream, scrubURLs(err.Error(), n.URLs()))
		return
	default:
		state = fmt.Sprintf("stream %s: %d stored", stream, si.State.Msgs)
	}
	d.add(s, 0, field, doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf("%s NATS broker at %s is reachable; %s; %s",
		whose, c.Server(), state, probedWithoutBroker)})
}
