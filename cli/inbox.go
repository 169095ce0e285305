package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/inbox"
)

// inboxRetention is how long a message nothing waits for any more is kept
// for `inbox` to show; send prunes older ones.
const inboxRetention = 7 * 24 * time.Hour

func (a *app) sendCommand() *cobra.Command {
	var d inbox.Draft
	cmd := &cobra.Command{
		Use:   "send [TEXT | -]",
		Short: "Queue a message for agents' next tool call (peer answer, human input, result)",
		Long: `Queues a message in the project's inbox and prints its id. The recipient gets
it in its context after its next tool call that the matcher allows (the
post-tool-use hook), exactly once. With no --to it goes to every agent but
the sender, for one hour unless --ttl says otherwise. The main thread is
"coordinator"; a subagent is its agent type; an orchestrated agent its
$MASSGEN_AGENT_ID.

A message that expires before a tool call takes it is not dropped: it is
handed over at the recipient's next stop, subagent stop, or session or
subagent start, and "massgen-hook inbox" lists it meanwhile.

The text is the argument, or stdin with "-" or no argument; at most 6000
characters, so it is always delivered whole. A peer answer (--source peer
--from AGENT --workspace DIR) carries a snapshot of the sender's workspace:
each recipient gets its own copy, the answer's paths point there, and agent
ids are replaced by anonymous ones (agent1, agent2...), the same for each
recipient every time.`,
		Example: `  massgen-hook send --to coordinator "Use PostgreSQL, not SQLite."
  massgen-hook send --source peer --from agent_a --workspace .massgen/workspaces/agent_a - < answer.md
  massgen-hook send --to reviewer --source background --from test-run --matcher 'Bash|Read' --ttl 10m "tests passed"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &usageError{err: fmt.Errorf("send takes one message (quote it), got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			text, err := a.messageText(args)
			if err != nil {
				return &usageError{err: err}
			}
			d.Text = text
			return a.runSend(d)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&d.To, "to", nil, "recipient (repeat for several; none: every agent)")
	f.StringVar(&d.From, "from", "", "sender: the agent a peer answer comes from, or a job's name")
	f.StringVar(&d.Source, "source", inbox.Human, "human, peer, subagent, background or system (how it is shown)")
	f.StringVar(&d.Strategy, "strategy", "", "tool_result or user_message (default: user_message for human and system, else tool_result)")
	f.StringVar(&d.Matcher, "matcher", "", "deliver only after tools this glob matches (e.g. 'Bash|Read', 'mcp__*')")
	f.DurationVar(&d.TTL, "ttl", 0, "deliverable at a tool call for this long (e.g. 10m); then handed over at the next turn boundary (default: none, 1h for broadcasts)")
	f.StringVar(&d.Workspace, "workspace", "", "the sender's workspace folder, snapshotted for each recipient (needs --from)")
	return cmd
}

// messageText is send's text: its argument, or stdin for "-" or none.
func (a *app) messageText(args []string) (string, error) {
	if len(args) == 1 && args[0] != "-" {
		return args[0], nil
	}
	if isTerminal(a.stdin) {
		return "", errors.New("send needs the message as an argument, or on stdin (with -)")
	}
	data, err := io.ReadAll(io.LimitReader(a.stdin, 1<<20))
	if err != nil {
		return "", fmt.Errorf("reading the message from stdin: %w", err)
	}
	// The newline that ends a file or an echo is not part of the message
	// (delivery would drop it anyway), so it does not count toward the
	// limit.
	return strings.TrimRight(string(data), "\r\n"), nil
}

func (a *app) runSend(d inbox.Draft) error {
	st, now, err := a.commandState()
	if err != nil {
		return err
	}
	defer st.Close()
	b, err := a.inboxBroker(st, now)
	if err != nil {
		return err
	}
	if b != nil {
		return a.sendViaBroker(b, d)
	}
	ib := inbox.Open(st)
	m, err := ib.Send(d, now)
	var draft *inbox.DraftError
	if errors.As(err, &draft) {
		return &usageError{err: err}
	}
	if err != nil {
		return fmt.Errorf("sending: %w", err)
	}
	if err := ib.Prune(now.Add(-inboxRetention), now); err != nil {
		fmt.Fprintf(a.stderr, "massgen-hook: inbox: could not prune old messages: %v\n", err)
	}
	_, err = fmt.Fprintln(a.stdout, m.ID)
	return err
}

func (a *app) inboxCommand() *cobra.Command {
	var format *formatFlag
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "List the inbox: pending, delivered (to whom, when) and undelivered messages",
		Long: `Lists every message in the project's inbox, with where it stands for each
recipient: pending (waiting for a tool call), delivered (when, by which hook
and tool, and whether late, at a turn boundary), undelivered (it expired
before a tool call took it; the recipient's next stop or start hands it
over; "*" is a broadcast nobody received, for whichever agent comes first),
or claimed but unconfirmed (a hook was killed between claiming and
answering: it may not have arrived). Changes nothing.

--format json prints one array of messages with their recipients' status.`,
		Example: `  massgen-hook inbox
  massgen-hook inbox --format json | jq '.[] | select(.undelivered_for)'`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			return a.runInbox(f == "json")
		},
	}
	format = addFormatFlag(cmd, true, "text", "json")
	return cmd
}

func (a *app) runInbox(asJSON bool) error {
	st, now, err := a.commandState()
	if err != nil {
		return err
	}
	defer st.Close()
	b, err := a.inboxBroker(st, now)
	if err != nil {
		return err
	}
	if b != nil {
		return a.listBroker(b, asJSON)
	}
	st.ReadOnly = true
	list, err := inbox.Open(st).List(now)
	if err != nil {
		return fmt.Errorf("reading the inbox: %w", err)
	}
	if asJSON {
		if list == nil {
			list = []inbox.Status{}
		}
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(list)
	}
	return printInbox(a.stdout, list, now)
}

// printInbox lists the inbox for a person: one line per message and
// recipient, under the state it is in.
func printInbox(w io.Writer, list []inbox.Status, now time.Time) error {
	var pending, undelivered, delivered, claimed []string
	for _, s := range list {
		for _, to := range s.PendingFor {
			line := inboxLine(s, to) + "  " + waitingFor(to, s.Matcher)
			if s.ExpiresAt != nil {
				line += fmt.Sprintf("  expires %s (in %s)", s.ExpiresAt.Format(time.RFC3339), s.ExpiresAt.Sub(now).Round(time.Second))
			}
			pending = append(pending, line+"  "+textPreview(s.Text))
		}
		for _, to := range s.UndeliveredFor {
			line := inboxLine(s, to)
			if s.ExpiresAt != nil {
				line += "  expired " + s.ExpiresAt.Format(time.RFC3339)
			}
			undelivered = append(undelivered, line+"  "+textPreview(s.Text))
		}
		for _, r := range s.Delivered {
			delivered = append(delivered, inboxLine(s, r.To)+"  "+receiptText(r)+"  "+textPreview(s.Text))
		}
		for _, r := range s.Claimed {
			claimed = append(claimed, inboxLine(s, r.To)+"  claimed "+receiptText(r)+"  "+textPreview(s.Text))
		}
	}
	if len(pending)+len(undelivered)+len(delivered)+len(claimed) == 0 {
		_, err := fmt.Fprintln(w, "The inbox is empty.")
		return err
	}
	var b strings.Builder
	for _, sec := range []struct {
		title string
		lines []string
	}{{"PENDING", pending}, {"UNDELIVERED (handed over at the recipient's next stop or start)", undelivered},
		{"CLAIMED, NOT CONFIRMED (the hook stopped before answering; may not have arrived)", claimed}, {"DELIVERED", delivered}} {
		if len(sec.lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s (%d)\n", sec.title, len(sec.lines))
		for _, l := range sec.lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// waitingFor says what a message pending for to waits for: it is
// delivered by a hook, so nothing happens until that agent calls a tool.
func waitingFor(to, matcher string) string {
	who := to + "'s"
	if to == "*" {
		who = "each agent's"
	}
	if matcher != "" {
		return fmt.Sprintf("waiting for %s next tool call after %s", who, matcher)
	}
	return fmt.Sprintf("waiting for %s next tool call", who)
}

func inboxLine(s inbox.Status, to string) string {
	if to == "*" {
		to = "every agent"
	}
	from := s.Source
	if s.From != "" {
		from += " " + s.From
	}
	return fmt.Sprintf("%s  %s → %s", s.ID, from, to)
}

func receiptText(r inbox.Record) string {
	where := r.Event
	if r.Tool != "" {
		where += " " + r.Tool
	}
	if r.Late {
		where += ", late"
	}
	if r.Session != "" {
		where += ", session " + r.Session
	}
	if r.Unpublished {
		where += "; record not yet on the broker, so other machines show it pending"
	}
	return fmt.Sprintf("at %s (%s)", r.At.Format(time.RFC3339), where)
}

// textPreview is a message's text on one line, cut, quoted.
func textPreview(text string) string {
	return fmt.Sprintf("%q", preview(strings.Join(strings.Fields(text), " ")))
}
