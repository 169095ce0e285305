package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natsinbox"
	"github.com/massgen/massgen-hook/state"
)

// inboxBroker is the inbox's NATS broker when the project's config puts
// the inbox there, else nil (the file inbox). A config that cannot be read
// is an error here, unlike in a hook: queueing a message where its
// recipients do not look would lose it in silence.
func (a *app) inboxBroker(st *state.Dir, now time.Time) (*natsinbox.Broker, error) {
	project, err := a.resolveProject("")
	if err != nil {
		return nil, &usageError{err: err}
	}
	cfg, _, err := a.loadRules(project, false)
	if err != nil {
		return nil, fmt.Errorf("the config cannot be read, so where the inbox is (inbox.backend) is unknown; fix it first (massgen-hook config validate):\n%w", err)
	}
	if !cfg.Inbox.UsesNATS() {
		return nil, nil
	}
	var bad error
	b := hookenv.OpenBroker(cfg, a.getenv, st, now, a.stderr, "massgen-hook cli", func(format string, args ...any) {
		bad = fmt.Errorf(format, args...)
	})
	if b == nil {
		return nil, bad
	}
	return b, nil
}

// sendViaBroker sends d over NATS. A message the broker did not confirm is
// spooled here, which is still queued (exit 0), and said on stderr.
func (a *app) sendViaBroker(b *natsinbox.Broker, d inbox.Draft) error {
	defer b.Close()
	res, err := b.Send(d)
	var draft *inbox.DraftError
	if errors.As(err, &draft) {
		return &usageError{err: err}
	}
	if err != nil {
		return fmt.Errorf("sending: %w", err)
	}
	if res.Spooled {
		fmt.Fprintf(a.stderr, "massgen-hook: send: message %s is spooled on this machine, not yet on the NATS broker at %s (%s); the next send or hook here that reaches the broker forwards it. `massgen-hook inbox` lists the spool.\n",
			res.Message.ID, b.Server(), res.Reason)
	} else if res.Forwarded > 0 {
		fmt.Fprintf(a.stderr, "massgen-hook: send: %d message(s) an earlier send left in the spool were forwarded first.\n", res.Forwarded)
	}
	_, err = fmt.Fprintln(a.stdout, res.Message.ID)
	return err
}

// brokerListing is `inbox --format json` with the NATS backend.
type brokerListing struct {
	Backend string                 `json:"backend"`
	Stream  *natsinbox.StreamState `json:"stream"`
	Spooled []*inbox.Message       `json:"spooled"`
	// SpooledRecords are delivery records made here that the broker has
	// not stored yet.
	SpooledRecords []inbox.Delivery `json:"spooled_records"`
	Messages       []inbox.Status   `json:"messages"`
}

// listBroker lists the inbox as the stream holds it, and what waits in
// this machine's spool. A broker that cannot be reached is exit 1, after
// the spool is listed.
func (a *app) listBroker(b *natsinbox.Broker, asJSON bool) error {
	defer b.Close()
	spooled, serr := b.Spooled()
	if serr != nil {
		return fmt.Errorf("reading the spool: %w", serr)
	}
	records, serr := b.SpooledRecords()
	if serr != nil {
		return fmt.Errorf("reading the spooled delivery records: %w", serr)
	}
	st, list, err := b.List()
	if asJSON {
		out := brokerListing{Backend: "nats", Stream: st, Spooled: spooled, SpooledRecords: records, Messages: list}
		if out.Spooled == nil {
			out.Spooled = []*inbox.Message{}
		}
		if out.SpooledRecords == nil {
			out.SpooledRecords = []inbox.Delivery{}
		}
		if out.Messages == nil {
			out.Messages = []inbox.Status{}
		}
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if eerr := enc.Encode(out); eerr != nil {
			return eerr
		}
	} else {
		a.printBroker(b, st, spooled, records)
		if err == nil {
			if perr := printInbox(a.stdout, list, b.Now); perr != nil {
				return perr
			}
		}
	}
	if err != nil {
		return fmt.Errorf("reading the NATS stream at %s: %s", b.Server(), natsclient.RedactText(err.Error()))
	}
	return nil
}

func (a *app) printBroker(b *natsinbox.Broker, st *natsinbox.StreamState, spooled []*inbox.Message, records []inbox.Delivery) {
	var w strings.Builder
	if st != nil {
		if st.Subjects == nil {
			fmt.Fprintf(&w, "NATS stream %s at %s: not created yet (the first send creates it)\n", st.Stream, st.Server)
		} else {
			limit := "no limit but the server's"
			if st.MaxBytes > 0 {
				limit = fmt.Sprintf("at most %d bytes", st.MaxBytes)
			}
			fmt.Fprintf(&w, "NATS stream %s at %s: %d stored (messages and delivery records), %d bytes, %s\n",
				st.Stream, st.Server, st.Messages, st.Bytes, limit)
		}
		for _, c := range st.Consumers {
			agent := c.Agent
			if agent == "" {
				agent = c.Name
			}
			fmt.Fprintf(&w, "  %s: %d not yet fetched, %d fetched and not yet confirmed, %d given out again\n",
				agent, c.Waiting, c.InFlight, c.Redelivered)
		}
	}
	if len(spooled) > 0 {
		fmt.Fprintf(&w, "SPOOLED HERE, NOT YET ON THE BROKER (%d; forwarded by the next send or hook here that reaches it)\n", len(spooled))
		for _, m := range spooled {
			to := "every agent"
			if !m.Broadcast() {
				to = strings.Join(m.To, ", ")
			}
			fmt.Fprintf(&w, "  %s  %s → %s  %s\n", m.ID, m.Source, to, textPreview(m.Text))
		}
	}
	if len(records) > 0 {
		fmt.Fprintf(&w, "DELIVERY RECORDS SPOOLED HERE, NOT YET ON THE BROKER (%d; published by the next hook here that reaches it; until then other machines show these messages pending)\n", len(records))
		for _, d := range records {
			what := "delivered"
			if d.Claimed {
				what = "claimed"
			}
			fmt.Fprintf(&w, "  %s  %s to %s %s\n", d.ID, what, d.To, receiptText(d.Record))
		}
	}
	fmt.Fprint(a.stdout, w.String())
}
