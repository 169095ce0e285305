package natsinbox

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// StreamState is the broker's side of the inbox, for `massgen-hook inbox`.
type StreamState struct {
	Server    string          `json:"server"`
	Stream    string          `json:"stream"`
	Subjects  []string        `json:"subjects"`
	Messages  uint64          `json:"messages"`
	Bytes     uint64          `json:"bytes"`
	MaxBytes  int64           `json:"max_bytes"`
	Consumers []ConsumerState `json:"consumers"`
}

// ConsumerState is one agent's consumer.
type ConsumerState struct {
	Name string `json:"name"`
	// Agent is the agent it serves, from its description.
	Agent string `json:"agent,omitempty"`
	// Waiting counts messages not yet fetched; InFlight fetched by a hook
	// and not yet acknowledged; Redelivered given out more than once.
	Waiting     uint64 `json:"waiting"`
	InFlight    int    `json:"in_flight"`
	Redelivered int    `json:"redelivered"`
}

// listTimeout bounds `massgen-hook inbox` reading the stream: a person
// waits for it, not an agent.
const listTimeout = 10 * time.Second

// List reads the stream: its state, each agent's consumer, and every
// message with where it stands for its recipients, from the delivery
// records the hooks publish. A message is pending for a recipient with no
// record until it expires, then undelivered (it is handed over at that
// agent's next turn boundary).
func (b *Broker) List() (*StreamState, []inbox.Status, error) {
	b.Timeout = max(b.Timeout, listTimeout)
	deadline := b.deadline()
	c, err := b.connect(deadline)
	if err != nil {
		return nil, nil, err
	}
	si, err := c.StreamInfo(b.Stream, deadline)
	if natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) {
		return &StreamState{Server: c.Server(), Stream: b.Stream}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	st := &StreamState{Server: c.Server(), Stream: b.Stream, Subjects: si.Config.Subjects, Messages: si.State.Msgs,
		Bytes: si.State.Bytes, MaxBytes: si.Config.MaxBytes}
	consumers, err := c.Consumers(b.Stream, deadline)
	if err != nil {
		return nil, nil, err
	}
	for _, ci := range consumers {
		if !strings.HasPrefix(ci.Name, "to-") {
			continue
		}
		st.Consumers = append(st.Consumers, ConsumerState{Name: ci.Name,
			Agent:   strings.TrimPrefix(ci.Config.Description, "massgen-hook inbox of "),
			Waiting: ci.NumPending, InFlight: ci.NumAckPending, Redelivered: ci.NumRedelivered})
	}
	sort.Slice(st.Consumers, func(i, j int) bool { return st.Consumers[i].Name < st.Consumers[j].Name })
	msgs, err := b.readAll(c, deadline)
	if err != nil {
		return nil, nil, err
	}
	waiting, err := b.SpooledRecords()
	if err != nil {
		return nil, nil, fmt.Errorf("reading this machine's spooled delivery records: %w", err)
	}
	return st, b.statuses(msgs, waiting), nil
}

// readAll reads every message of the stream through a consumer of its
// own that acknowledges nothing and goes away when idle.
func (b *Broker) readAll(c *natsclient.Conn, deadline time.Time) ([]*natsclient.Msg, error) {
	name := "list-" + strings.ReplaceAll(inboxID(b.clock()), ".", "_")
	if _, err := c.AddConsumer(b.Stream, natsclient.ConsumerConfig{Name: name, DeliverPolicy: "all", AckPolicy: "none",
		ReplayPolicy: "instant", FilterSubjects: []string{b.Subject + ".>"}, InactiveThreshold: 10 * time.Second,
		MemoryStorage: true}, deadline); err != nil {
		return nil, err
	}
	defer c.DeleteConsumer(b.Stream, name, deadline)
	var all []*natsclient.Msg
	for {
		msgs, err := c.Fetch(b.Stream, name, 1024, 0, deadline)
		all = append(all, msgs...)
		if err != nil {
			return nil, err
		}
		if len(msgs) < 1024 {
			return all, nil
		}
	}
}

func inboxID(t time.Time) string { return t.UTC().Format("150405.000000000") }

// statuses turns the stream's messages and delivery records, and the
// records waiting in this machine's spool, into where each message
// stands.
func (b *Broker) statuses(msgs []*natsclient.Msg, waiting []inbox.Delivery) []inbox.Status {
	byID := map[string]*inbox.Message{}
	delivered := map[string]map[string]inbox.Delivery{}
	record := func(d inbox.Delivery) {
		if delivered[d.ID] == nil {
			delivered[d.ID] = map[string]inbox.Delivery{}
		}
		// A confirmed delivery outranks a claim, in whatever order the
		// two records came, and a published record one still waiting.
		if old, ok := delivered[d.ID][d.To]; !ok || old.Claimed && !d.Claimed || old.Unpublished && !d.Unpublished && old.Claimed == d.Claimed {
			delivered[d.ID][d.To] = d
		}
	}
	receiptPrefix := b.Subject + ".receipt."
	for _, nm := range msgs {
		if strings.HasPrefix(nm.Subject, receiptPrefix) {
			var d inbox.Delivery
			if json.Unmarshal(nm.Data, &d) == nil && inbox.ValidID(d.ID) {
				d.Unpublished = false // it is published
				record(d)
			}
			continue
		}
		var m inbox.Message
		if json.Unmarshal(nm.Data, &m) != nil || inbox.CheckForeign(&m) != nil {
			continue
		}
		byID[m.ID] = &m
	}
	for _, d := range waiting {
		d.Unpublished = true
		record(d)
	}
	out := make([]inbox.Status, 0, len(byID))
	for id, m := range byID {
		s := inbox.Status{Message: *m}
		got := delivered[id]
		for _, d := range got {
			if d.Claimed {
				s.Claimed = append(s.Claimed, d.Record)
			} else {
				s.Delivered = append(s.Delivered, d.Record)
			}
		}
		sort.Slice(s.Delivered, func(i, j int) bool { return s.Delivered[i].To < s.Delivered[j].To })
		sort.Slice(s.Claimed, func(i, j int) bool { return s.Claimed[i].To < s.Claimed[j].To })
		expired := m.Expired(b.Now)
		switch {
		case m.Broadcast() && !expired:
			s.PendingFor = []string{"*"}
		case m.Broadcast() && len(got) == 0:
			s.UndeliveredFor = []string{"*"}
		case !m.Broadcast():
			for _, to := range m.To {
				if _, ok := got[to]; ok {
					continue
				}
				if expired {
					s.UndeliveredFor = append(s.UndeliveredFor, to)
				} else {
					s.PendingFor = append(s.PendingFor, to)
				}
			}
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
