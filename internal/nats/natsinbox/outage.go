package natsinbox

import (
	"fmt"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// statusRecord, in the runtime directory, remembers an outage: hooks are
// separate processes, and the user is told once per outage, not on every
// tool call.
const statusRecord = "nats/status.json"

// backOff is how long hooks leave a broker alone after failing to reach
// it, so a broker that is down costs one timeout every few seconds, not
// one per tool call.
const backOff = 5 * time.Second

type outageRecord struct {
	DownSince time.Time `json:"down_since,omitzero"`
	Error     string    `json:"error,omitempty"`
	RetryAt   time.Time `json:"retry_at,omitzero"`
	Told      bool      `json:"told,omitempty"`
}

// backingOff reports whether a recent failure says to skip the broker on
// this call.
func (b *Broker) backingOff() bool {
	var rec outageRecord
	if ok, err := b.State.ReadJSON(statusRecord, &rec); err != nil || !ok {
		return false
	}
	return !rec.DownSince.IsZero() && b.Now.Before(rec.RetryAt)
}

// outage records that the broker could not be reached and returns the
// warning for the user the first time in an outage ("" after). Unless
// tell, the warning is left for the next caller that can show it.
func (b *Broker) outage(cause error, tell bool) string {
	msg := natsclient.RedactText(cause.Error())
	first := false
	var rec outageRecord
	uerr := b.State.UpdateJSON(statusRecord, &rec, func() (bool, error) {
		if rec.DownSince.IsZero() {
			rec.DownSince = b.Now
		}
		rec.Error, rec.RetryAt = msg, b.Now.Add(backOff)
		first = !rec.Told
		rec.Told = rec.Told || tell
		return true, nil
	})
	b.note("the NATS broker at %s cannot be reached: %s", b.Server(), msg)
	if !tell || (!first && uerr == nil) {
		return ""
	}
	return fmt.Sprintf("massgen-hook: the inbox's NATS broker at %s cannot be reached (%s). Messages for this agent wait on the broker and arrive at a later tool call; messages sent from here, and the records of deliveries made here, wait in .claude/massgen-hook/nats and are published once it is back. Told once per outage; `massgen-hook inbox` shows the state.", b.Server(), msg)
}

// recovered clears an outage and returns what to tell the user about it
// ("" when there was none).
func (b *Broker) recovered(forwarded int) string {
	var rec outageRecord
	if ok, err := b.State.ReadJSON(statusRecord, &rec); err == nil && (!ok || rec.DownSince.IsZero()) {
		return "" // the common case, without taking the record's lock
	}
	was := false
	_ = b.State.UpdateJSON(statusRecord, &rec, func() (bool, error) {
		if rec.DownSince.IsZero() {
			return false, nil
		}
		was = true
		rec = outageRecord{}
		return true, nil
	})
	if !was {
		return ""
	}
	return fmt.Sprintf("massgen-hook: the inbox's NATS broker at %s is reachable again; %d spooled message(s) forwarded.", b.Server(), forwarded)
}
