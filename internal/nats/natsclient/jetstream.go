package natsclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// APIError is an error the JetStream API returned.
type APIError struct {
	Code        int    `json:"code"`
	ErrCode     int    `json:"err_code"`
	Description string `json:"description"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("jetstream: %s (%d/%d)", e.Description, e.Code, e.ErrCode)
}

// JetStream error codes massgen-hook tells apart.
const (
	ErrCodeStreamNotFound   = 10059
	ErrCodeConsumerNotFound = 10014
	ErrCodeNoMessage        = 10037
	ErrCodeStoreFull        = 10047 // insufficient resources
	ErrCodeMaxBytes         = 10077 // the stream's maximum bytes (or messages)
	ErrCodeWrongLastSeq     = 10071
)

// IsAPIError reports whether err is a JetStream API error with one of codes.
func IsAPIError(err error, codes ...int) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, c := range codes {
		if ae.ErrCode == c {
			return true
		}
	}
	return false
}

// apiPrefix is where the JetStream API listens: $JS.API, or, for the
// JetStream of a domain (a hub reached through a leaf node), $JS.<domain>.API.
func (c *Conn) apiPrefix() string {
	if c.domain != "" {
		return "$JS." + c.domain + ".API."
	}
	return "$JS.API."
}

// api sends a JetStream API request and decodes its answer into out.
func (c *Conn) api(subject string, req any, out any, deadline time.Time) error {
	var data []byte
	if req != nil {
		var err error
		if data, err = json.Marshal(req); err != nil {
			return err
		}
	}
	m, err := c.Request(subject, nil, data, deadline)
	if err != nil {
		var se *StatusError
		if errors.As(err, &se) && se.Code == 503 {
			return errors.New("jetstream is not enabled on the server (or not for this account)")
		}
		return err
	}
	return decodeAPI(m.Data, out)
}

func decodeAPI(data []byte, out any) error {
	var e struct {
		Error *APIError `json:"error"`
	}
	if err := json.Unmarshal(data, &e); err != nil {
		return fmt.Errorf("jetstream: answer does not parse: %w", err)
	}
	if e.Error != nil {
		return e.Error
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// StreamConfig is the part of a stream's configuration massgen-hook sets.
type StreamConfig struct {
	Name              string        `json:"name"`
	Subjects          []string      `json:"subjects"`
	Retention         string        `json:"retention"`
	MaxAge            time.Duration `json:"max_age"`
	MaxBytes          int64         `json:"max_bytes"`
	MaxMsgs           int64         `json:"max_msgs"`
	MaxMsgSize        int32         `json:"max_msg_size,omitempty"`
	Storage           string        `json:"storage"`
	Discard           string        `json:"discard"`
	Duplicates        time.Duration `json:"duplicate_window,omitempty"`
	Replicas          int           `json:"num_replicas"`
	AllowDirect       bool          `json:"allow_direct,omitempty"`
	DenyDelete        bool          `json:"deny_delete,omitempty"`
	MaxMsgsPerSubject int64         `json:"max_msgs_per_subject,omitempty"`
}

// StreamState is a stream's contents.
type StreamState struct {
	Msgs      uint64    `json:"messages"`
	Bytes     uint64    `json:"bytes"`
	FirstSeq  uint64    `json:"first_seq"`
	FirstTime time.Time `json:"first_ts"`
	LastSeq   uint64    `json:"last_seq"`
	LastTime  time.Time `json:"last_ts"`
	Consumers int       `json:"consumer_count"`
}

// StreamInfo is a stream's configuration and state.
type StreamInfo struct {
	Config StreamConfig `json:"config"`
	State  StreamState  `json:"state"`
}

// StreamInfo returns stream name's info.
func (c *Conn) StreamInfo(name string, deadline time.Time) (*StreamInfo, error) {
	var si StreamInfo
	if err := c.api(c.apiPrefix()+"STREAM.INFO."+name, nil, &si, deadline); err != nil {
		return nil, err
	}
	return &si, nil
}

// AddStream creates a stream; one that exists with this configuration is
// fine.
func (c *Conn) AddStream(cfg StreamConfig, deadline time.Time) (*StreamInfo, error) {
	var si StreamInfo
	if err := c.api(c.apiPrefix()+"STREAM.CREATE."+cfg.Name, cfg, &si, deadline); err != nil {
		return nil, err
	}
	return &si, nil
}

// ConsumerConfig is the part of a consumer's configuration massgen-hook
// sets.
type ConsumerConfig struct {
	Durable           string        `json:"durable_name,omitempty"`
	Name              string        `json:"name,omitempty"`
	Description       string        `json:"description,omitempty"`
	DeliverPolicy     string        `json:"deliver_policy"`
	OptStartSeq       uint64        `json:"opt_start_seq,omitempty"`
	AckPolicy         string        `json:"ack_policy"`
	AckWait           time.Duration `json:"ack_wait,omitempty"`
	MaxDeliver        int           `json:"max_deliver,omitempty"`
	FilterSubjects    []string      `json:"filter_subjects,omitempty"`
	ReplayPolicy      string        `json:"replay_policy"`
	MaxAckPending     int           `json:"max_ack_pending,omitempty"`
	InactiveThreshold time.Duration `json:"inactive_threshold,omitempty"`
	HeadersOnly       bool          `json:"headers_only,omitempty"`
	MemoryStorage     bool          `json:"mem_storage,omitempty"`
}

// SequenceInfo is a consumer's position.
type SequenceInfo struct {
	Consumer uint64 `json:"consumer_seq"`
	Stream   uint64 `json:"stream_seq"`
}

// ConsumerInfo is a consumer's configuration and state.
type ConsumerInfo struct {
	Name           string         `json:"name"`
	Config         ConsumerConfig `json:"config"`
	Delivered      SequenceInfo   `json:"delivered"`
	AckFloor       SequenceInfo   `json:"ack_floor"`
	NumAckPending  int            `json:"num_ack_pending"`
	NumRedelivered int            `json:"num_redelivered"`
	NumPending     uint64         `json:"num_pending"`
}

// AddConsumer creates (or updates) a consumer on stream.
func (c *Conn) AddConsumer(stream string, cfg ConsumerConfig, deadline time.Time) (*ConsumerInfo, error) {
	req := struct {
		Stream string         `json:"stream_name"`
		Config ConsumerConfig `json:"config"`
	}{stream, cfg}
	subject := c.apiPrefix() + "CONSUMER.CREATE." + stream
	if name := cfg.Durable + cfg.Name; name != "" {
		subject += "." + name
	}
	var ci ConsumerInfo
	if err := c.api(subject, req, &ci, deadline); err != nil {
		return nil, err
	}
	return &ci, nil
}

// ConsumerInfo returns a consumer's info.
func (c *Conn) ConsumerInfo(stream, name string, deadline time.Time) (*ConsumerInfo, error) {
	var ci ConsumerInfo
	if err := c.api(c.apiPrefix()+"CONSUMER.INFO."+stream+"."+name, nil, &ci, deadline); err != nil {
		return nil, err
	}
	return &ci, nil
}

// Consumers lists a stream's consumers (the first 256).
func (c *Conn) Consumers(stream string, deadline time.Time) ([]ConsumerInfo, error) {
	var out struct {
		Consumers []ConsumerInfo `json:"consumers"`
	}
	if err := c.api(c.apiPrefix()+"CONSUMER.LIST."+stream, map[string]int{"offset": 0}, &out, deadline); err != nil {
		return nil, err
	}
	return out.Consumers, nil
}

// DeleteConsumer removes a consumer.
func (c *Conn) DeleteConsumer(stream, name string, deadline time.Time) error {
	return c.api(c.apiPrefix()+"CONSUMER.DELETE."+stream+"."+name, nil, nil, deadline)
}

// PubAck is the stream's answer to a publish.
type PubAck struct {
	Stream    string `json:"stream"`
	Sequence  uint64 `json:"seq"`
	Duplicate bool   `json:"duplicate,omitempty"`
}

// PublishOptions are a JetStream publish's expectations.
type PublishOptions struct {
	// MsgID de-duplicates: the stream stores one message per id in its
	// duplicate window.
	MsgID string
	// ExpectLastSubjectSeq, when set, stores the message only if the last
	// message on its subject has this sequence; ExpectNoSubject only if
	// there is none (an exclusive create).
	ExpectLastSubjectSeq uint64
	ExpectNoSubject      bool
}

// PublishJS publishes to a stream and waits, until deadline, for it to
// be stored.
func (c *Conn) PublishJS(subject string, data []byte, o PublishOptions, deadline time.Time) (*PubAck, error) {
	acks, err := c.PublishJSAll([]Pub{{subject, data, o}}, deadline)
	if err != nil {
		return nil, err
	}
	return acks[0], nil
}

// Pub is one message of PublishJSAll.
type Pub struct {
	Subject string
	Data    []byte
	Options PublishOptions
}

// PublishJSAll publishes messages to streams and waits, until deadline,
// for each to be stored: all are sent first, then their confirmations
// awaited, so n messages cost one round trip, not n. The first failure is
// returned; the acks before it are kept (a retry republishes with the same
// ids, which the stream stores once).
func (c *Conn) PublishJSAll(pubs []Pub, deadline time.Time) ([]*PubAck, error) {
	replies := make([]string, len(pubs))
	for i, p := range pubs {
		h := Header{}
		if p.Options.MsgID != "" {
			h["Nats-Msg-Id"] = []string{p.Options.MsgID}
		}
		switch {
		case p.Options.ExpectNoSubject:
			h["Nats-Expected-Last-Subject-Sequence"] = []string{"0"}
		case p.Options.ExpectLastSubjectSeq > 0:
			h["Nats-Expected-Last-Subject-Sequence"] = []string{strconv.FormatUint(p.Options.ExpectLastSubjectSeq, 10)}
		}
		replies[i] = c.NewReply()
		if err := c.Publish(p.Subject, replies[i], h, p.Data); err != nil {
			return nil, err
		}
	}
	acks := make([]*PubAck, len(pubs))
	for i, r := range replies {
		m, err := c.NextReply(r, deadline)
		if err != nil {
			return acks[:i], err
		}
		if m.Status == 503 {
			return acks[:i], fmt.Errorf("no stream takes subject %s", pubs[i].Subject)
		}
		var ack PubAck
		if err := decodeAPI(m.Data, &ack); err != nil {
			return acks[:i], err
		}
		acks[i] = &ack
	}
	return acks, nil
}

// StoredMsg is a message read from a stream by sequence or subject.
type StoredMsg struct {
	Subject  string
	Sequence uint64
	Header   Header
	Data     []byte
	Time     time.Time
}

// LastMsg returns the last message on subject, or nil when there is none.
func (c *Conn) LastMsg(stream, subject string, deadline time.Time) (*StoredMsg, error) {
	var out struct {
		Message struct {
			Subject string    `json:"subject"`
			Seq     uint64    `json:"seq"`
			Hdrs    []byte    `json:"hdrs"`
			Data    []byte    `json:"data"`
			Time    time.Time `json:"time"`
		} `json:"message"`
	}
	err := c.api(c.apiPrefix()+"STREAM.MSG.GET."+stream, map[string]string{"last_by_subj": subject}, &out, deadline)
	if IsAPIError(err, ErrCodeNoMessage) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sm := &StoredMsg{Subject: out.Message.Subject, Sequence: out.Message.Seq, Data: out.Message.Data, Time: out.Message.Time}
	if len(out.Message.Hdrs) > 0 {
		sm.Header, _, _ = decodeHeader(out.Message.Hdrs)
	}
	return sm, nil
}

// pullSID is the subscription of every pull's replies.
const pullSID = 2

// Fetch pulls up to batch messages from a pull consumer: those available
// now, without waiting for more (wait 0), or waiting up to wait for the
// first. It stops at deadline.
func (c *Conn) Fetch(stream, consumer string, batch int, wait time.Duration, deadline time.Time) ([]*Msg, error) {
	req := map[string]any{"batch": batch}
	if wait <= 0 {
		req["no_wait"] = true
	} else {
		req["expires"] = wait
	}
	data, _ := json.Marshal(req)
	defer c.writeBy(deadline)()
	// The messages arrive with their own subjects under the connection's
	// pull subscription (made at connect, so a leaf node has passed its
	// interest on); the end of this pull is a status sent to its own
	// reply subject, so a late status of an earlier pull does not end it.
	c.next++
	reply := c.inbox + ".pull." + strconv.Itoa(c.next)
	if err := c.Publish(c.apiPrefix()+"CONSUMER.MSG.NEXT."+stream+"."+consumer, reply, nil, data); err != nil {
		return nil, err
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	var out []*Msg
	for len(out) < batch {
		m, err := c.NextMsg(pullSID, deadline)
		if errors.Is(err, ErrTimeout) && len(out) > 0 {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch {
		case m.Status == 0:
			// Anyone who sees a pull request may publish to its reply
			// subject: only a message of this consumer is taken.
			if meta, err := m.Meta(); err == nil && meta.Stream == stream && meta.Consumer == consumer {
				out = append(out, m)
			}
		case m.Subject != reply:
			// a status of an earlier pull
		case m.Status == 404 || m.Status == 408:
			return out, nil // no more now / the request expired
		case m.Status == 409 && strings.Contains(strings.ToLower(m.Description), "consumer deleted"):
			return out, &APIError{Code: 409, ErrCode: ErrCodeConsumerNotFound, Description: m.Description}
		case m.Status == 503:
			return out, &StatusError{Code: 503, Description: "no consumer " + consumer + " on stream " + stream + " (or no JetStream)"}
		default:
			return out, &StatusError{Code: m.Status, Description: m.Description}
		}
	}
	return out, nil
}

// Meta is what a JetStream message's ack subject says about it.
type Meta struct {
	Stream, Consumer string
	// Delivered counts deliveries of this message: above 1 it is a
	// redelivery.
	Delivered   uint64
	StreamSeq   uint64
	ConsumerSeq uint64
	Pending     uint64
	Timestamp   time.Time
}

// Meta reads m's ack subject ($JS.ACK.<stream>.<consumer>.<delivered>.
// <stream seq>.<consumer seq>.<ns>.<pending>, or the newer form with a
// domain and account before the stream).
func (m *Msg) Meta() (Meta, error) {
	t := strings.Split(m.Reply, ".")
	if len(t) < 9 || t[0] != "$JS" || t[1] != "ACK" {
		return Meta{}, fmt.Errorf("not a JetStream message (reply %q)", m.Reply)
	}
	if len(t) >= 11 {
		t = append(t[:2], t[4:]...) // drop domain and account hash
	}
	n := func(i int) uint64 { v, _ := strconv.ParseUint(t[i], 10, 64); return v }
	return Meta{Stream: t[2], Consumer: t[3], Delivered: n(4), StreamSeq: n(5), ConsumerSeq: n(6),
		Timestamp: time.Unix(0, int64(n(7))), Pending: n(8)}, nil
}

// Ack acknowledges messages and waits, until deadline, for the server to
// confirm each (a double ack): an acknowledged message is never
// redelivered. Acks are sent together and their confirmations awaited
// together.
func (c *Conn) Ack(msgs []*Msg, deadline time.Time) error {
	return c.reply(msgs, "+ACK", deadline)
}

// Nak gives messages back for redelivery at once.
func (c *Conn) Nak(msgs []*Msg, deadline time.Time) error {
	return c.reply(msgs, "-NAK", deadline)
}

func (c *Conn) reply(msgs []*Msg, what string, deadline time.Time) error {
	defer c.writeBy(deadline)()
	replies := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Reply == "" {
			continue
		}
		r := c.NewReply()
		if err := c.Publish(m.Reply, r, nil, []byte(what)); err != nil {
			return err
		}
		replies = append(replies, r)
	}
	if err := c.w.Flush(); err != nil {
		return err
	}
	for _, r := range replies {
		if _, err := c.NextReply(r, deadline); err != nil {
			return fmt.Errorf("waiting for the server to confirm %s: %w", what, err)
		}
	}
	return nil
}
