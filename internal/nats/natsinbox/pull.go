package natsinbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// fetchBatch is how many messages one pull asks for; a hook pulls again
// while batches come back full and its time lasts.
const fetchBatch = 256

// Pull is what one hook fetched for its agent. Settle it once the hook's
// answer is written (or could not be).
type Pull struct {
	b *Broker
	// fetched are acknowledged after the answer: imported ones, and ones
	// that can never be delivered here (noted).
	fetched  []*natsclient.Msg
	receipts []inbox.Delivery
	// Imported counts the messages newly queued here.
	Imported int
	// Warning is for the user: an outage (once per outage) or its end.
	Warning string
}

// Pull fetches recipient's messages from its durable consumer into the
// local inbox, within the broker's timeout, after forwarding what this
// machine spooled. The broker down, slow or refusing is told (once per
// outage) and costs the call nothing else: what was queued here before is
// still delivered, and the rest waits on the broker for a later call.
//
// With tell false (a turn boundary, whose output has no place for it) an
// outage is recorded but not counted as told: the next tool call tells it.
func (b *Broker) Pull(recipient string, tell bool) *Pull {
	p := &Pull{b: b}
	if b.backingOff() {
		return p
	}
	deadline := b.deadline() // connecting, forwarding and pulling share it
	c, err := b.connect(deadline)
	if err != nil {
		p.Warning = b.outage(err, tell)
		return p
	}
	forwarded, ferr := b.forward(c, deadline)
	if ferr != nil {
		b.note("spooled messages not forwarded yet: %s", natsclient.RedactText(ferr.Error()))
	}
	if err := b.fetch(c, recipient, deadline, p); err != nil {
		if len(p.fetched) == 0 {
			p.Warning = b.outage(err, tell)
			return p
		}
		b.note("pulling messages for %s stopped early: %s; the rest arrive at a later call", recipient, natsclient.RedactText(err.Error()))
	}
	if ferr == nil && tell {
		p.Warning = b.recovered(forwarded)
	}
	if p.Warning == "" && tell {
		p.Warning = b.recordsWarning()
	}
	return p
}

// fetch pulls batches until one comes back short or time runs out. The
// consumer is made the first time (a mark in the runtime directory says it
// was): a pull from a consumer that does not exist gets no answer at all
// through a leaf node, only a timeout, so it is not the way to find out. A
// pull that times out with nothing clears the mark, so the next call makes
// the consumer again if it was removed.
func (b *Broker) fetch(c *natsclient.Conn, recipient string, deadline time.Time, p *Pull) error {
	consumer := consumerName(recipient)
	if !b.made(consumer) {
		if err := b.ensureConsumer(c, recipient, deadline); err != nil {
			return err
		}
		b.mark(consumer, true)
	}
	for {
		msgs, err := c.Fetch(b.Stream, consumer, fetchBatch, 0, deadline)
		if len(msgs) > 0 {
			if ierr := b.take(c, recipient, msgs, deadline, p); ierr != nil {
				return ierr
			}
		}
		var se *natsclient.StatusError
		if err != nil && len(msgs) == 0 && (errors.Is(err, natsclient.ErrTimeout) || errors.As(err, &se) && se.Code == 503) {
			b.mark(consumer, false)
		}
		if err != nil {
			return err
		}
		if len(msgs) < fetchBatch || !b.clock().Before(deadline) {
			return nil
		}
	}
}

// consumersRecord lists the consumers made from here, by stream (and, as
// "stream:", the stream itself).
const consumersRecord = "nats/consumers.json"

func (b *Broker) made(name string) bool {
	var made map[string]bool
	ok, err := b.State.ReadJSON(consumersRecord, &made)
	return err == nil && ok && made[b.Stream+"/"+name]
}

func (b *Broker) mark(name string, made bool) {
	var rec map[string]bool
	_ = b.State.UpdateJSON(consumersRecord, &rec, func() (bool, error) {
		if rec == nil {
			rec = map[string]bool{}
		}
		if rec[b.Stream+"/"+name] == made {
			return false, nil
		}
		if made {
			rec[b.Stream+"/"+name] = true
		} else {
			delete(rec, b.Stream+"/"+name)
		}
		return true, nil
	})
}

// ensureConsumer creates the stream if needed and recipient's durable
// consumer: its own copies and the broadcasts, from the stream's start
// (a message sent before the agent first ran is still for it), each
// given to one hook at a time until acknowledged.
func (b *Broker) ensureConsumer(c *natsclient.Conn, recipient string, deadline time.Time) error {
	if err := b.ensureStream(c, deadline); err != nil {
		return err
	}
	_, err := c.AddConsumer(b.Stream, natsclient.ConsumerConfig{
		Durable: consumerName(recipient), Description: "massgen-hook inbox of " + recipient,
		DeliverPolicy: "all", AckPolicy: "explicit", AckWait: b.AckWait, MaxDeliver: -1,
		FilterSubjects: []string{b.toSubject(recipient), b.allSubject()}, ReplayPolicy: "instant",
		MaxAckPending: 10000, InactiveThreshold: 7 * 24 * time.Hour,
	}, deadline)
	return err
}

// take queues fetched messages in the local inbox. One that cannot be
// read or is not for recipient is noted and acknowledged (it stays in the
// stream, where `massgen-hook inbox` shows it); an expired broadcast some
// agent already received is not queued again. When queueing fails nothing
// of this batch is acknowledged, so the broker gives it out again.
func (b *Broker) take(c *natsclient.Conn, recipient string, msgs []*natsclient.Msg, deadline time.Time, p *Pull) error {
	var queue []*inbox.Message
	var done, queued []*natsclient.Msg
	for _, nm := range msgs {
		m, err := b.decode(nm, recipient)
		if err != nil {
			meta, _ := nm.Meta()
			b.note("message %d of stream %s is not delivered: %v", meta.StreamSeq, b.Stream, err)
			done = append(done, nm)
			continue
		}
		if m.Broadcast() && m.Expired(b.Now) && !b.Local.Has(m.ID) && b.receivedElsewhere(c, m.ID, deadline) {
			done = append(done, nm)
			continue
		}
		if d, ok := b.Local.DeliveryOf(m.ID, recipient); ok {
			// Delivered (or claimed) here before and given out again (a
			// hook stopped before it acknowledged): not queued, and its
			// record published again, since that hook's may not have gone
			// out.
			p.Report([]inbox.Delivery{d})
		}
		queue = append(queue, m)
		queued = append(queued, nm)
	}
	p.fetched = append(p.fetched, done...)
	before := 0
	for _, m := range queue {
		if b.Local.Has(m.ID) {
			before++
		}
	}
	if err := b.Local.Import(queue, recipient); err != nil {
		return err
	}
	p.Imported += len(queue) - before
	p.fetched = append(p.fetched, queued...)
	return nil
}

// receivedElsewhere reports whether some agent's delivery of message id is
// on record: an expired broadcast then needs no late hand-over here.
func (b *Broker) receivedElsewhere(c *natsclient.Conn, id string, deadline time.Time) bool {
	m, err := c.LastMsg(b.Stream, b.receiptSubject(id), deadline)
	return err == nil && m != nil
}

// decode reads a fetched message and checks it as any message from
// elsewhere, and that its subject is the one send gives it: a broadcast
// queued here reaches every agent of this machine, so one on an agent's
// own subject (which a client may be allowed to publish to alone) is not
// taken for one.
func (b *Broker) decode(nm *natsclient.Msg, recipient string) (*inbox.Message, error) {
	var m inbox.Message
	if err := json.Unmarshal(nm.Data, &m); err != nil {
		return nil, err
	}
	if err := inbox.CheckForeign(&m); err != nil {
		return nil, err
	}
	if !m.For(recipient) {
		return nil, errors.New("it is not addressed to " + recipient)
	}
	want := b.toSubject(recipient)
	if m.Broadcast() {
		want = b.allSubject()
	}
	if nm.Subject != want {
		return nil, fmt.Errorf("it came on %s, not on %s", nm.Subject, want)
	}
	return &m, nil
}

// Report records deliveries to publish once the answer is written, so
// `massgen-hook inbox` on any machine shows who has what.
func (p *Pull) Report(d []inbox.Delivery) { p.receipts = append(p.receipts, d...) }

// Settle acknowledges what was fetched once the answer was written, and
// publishes the deliveries' records. Unanswered, nothing is acknowledged:
// the broker gives the messages out again after its ack wait, and the
// local inbox, which has them, recognises them by id.
//
// The records are kept in this machine's spool first, whether the broker
// is reachable or not, and published from there, oldest first, together
// with any that earlier hooks left there: a record the broker does not
// take stays, and the user is told (recordsWarning) at the next tool call.
func (p *Pull) Settle(answered bool) {
	b := p.b
	defer b.Close()
	if !answered {
		return
	}
	kept := true
	if len(p.receipts) > 0 {
		if err := b.keepRecords(p.receipts); err != nil {
			kept = false
			b.note("the delivery records of %d message(s) could not be kept on this machine (%v); they are published now or not at all", len(p.receipts), err)
		}
	}
	if b.conn == nil {
		if !kept {
			b.note("the delivery records of %d message(s) are lost: the broker was not reached; other machines show those messages as pending", len(p.receipts))
		}
		return // Pull tells the outage; the records wait in the spool
	}
	deadline := b.deadline()
	b.conn.SetWriteDeadline(deadline)
	if len(p.fetched) > 0 {
		if err := b.conn.Ack(p.fetched, deadline); err != nil {
			b.note("could not confirm %d fetched message(s) to the broker (%s); it gives them out again, and they are recognised here and not delivered twice", len(p.fetched), natsclient.RedactText(err.Error()))
		}
	}
	if !kept {
		b.publishUnkept(p.receipts, deadline)
	}
	b.settleRecords(b.conn, deadline)
}

// publishUnkept publishes records the spool could not keep, straight
// away; what the broker does not take of them is said, since nothing
// keeps it.
func (b *Broker) publishUnkept(ds []inbox.Delivery, deadline time.Time) {
	pubs := make([]natsclient.Pub, 0, len(ds))
	for _, d := range ds {
		data, _ := json.Marshal(d)
		pubs = append(pubs, natsclient.Pub{Subject: b.receiptSubject(d.ID), Data: data,
			Options: natsclient.PublishOptions{MsgID: recordMsgID(d)}})
	}
	if acks, err := b.conn.PublishJSAll(pubs, deadline); err != nil {
		b.note("the delivery records of %d message(s) are lost: the broker did not take them (%s); other machines show those messages as pending",
			len(ds)-len(acks), natsclient.RedactText(err.Error()))
	}
}
