package natsclient_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

func stream(t *testing.T, c *natsclient.Conn, cfg natsclient.StreamConfig) {
	t.Helper()
	if cfg.Storage == "" {
		cfg.Storage, cfg.Retention, cfg.Discard, cfg.Replicas = "file", "limits", "new", 1
	}
	if _, err := c.AddStream(cfg, soon()); err != nil {
		t.Fatalf("AddStream: %v", err)
	}
}

func TestJetStreamPublishDedupeFetchAck(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	if !c.JetStream() {
		t.Fatal("server says no JetStream")
	}
	if _, err := c.StreamInfo("T", soon()); !natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound) {
		t.Fatalf("missing stream: want not found, got %v", err)
	}
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}, Duplicates: time.Minute})
	for i := range 3 {
		ack, err := c.PublishJS("t.a", []byte(fmt.Sprint(i)), natsclient.PublishOptions{MsgID: fmt.Sprint("id", i)}, soon())
		if err != nil || ack.Duplicate {
			t.Fatalf("publish %d: %v %+v", i, err, ack)
		}
	}
	ack, err := c.PublishJS("t.a", []byte("0 again"), natsclient.PublishOptions{MsgID: "id0"}, soon())
	if err != nil || !ack.Duplicate || ack.Sequence != 1 {
		t.Fatalf("a retried id: want duplicate of seq 1, got %v %+v", err, ack)
	}
	if _, err := c.AddConsumer("T", natsclient.ConsumerConfig{Durable: "d", DeliverPolicy: "all", AckPolicy: "explicit",
		AckWait: time.Second, MaxDeliver: -1, FilterSubjects: []string{"t.a"}, ReplayPolicy: "instant"}, soon()); err != nil {
		t.Fatal(err)
	}
	got, err := c.Fetch("T", "d", 2, 0, soon())
	if err != nil || len(got) != 2 || string(got[0].Data) != "0" || string(got[1].Data) != "1" {
		t.Fatalf("fetch 2: %v %d", err, len(got))
	}
	meta, err := got[1].Meta()
	if err != nil || meta.StreamSeq != 2 || meta.Delivered != 1 || meta.Stream != "T" || meta.Consumer != "d" {
		t.Fatalf("meta %+v %v", meta, err)
	}
	if err := c.Ack(got[:1], soon()); err != nil {
		t.Fatal(err)
	}
	if err := c.Nak(got[1:], soon()); err != nil {
		t.Fatal(err)
	}
	got, err = c.Fetch("T", "d", 10, 0, soon())
	if err != nil || len(got) != 2 || string(got[0].Data) != "1" || string(got[1].Data) != "2" {
		t.Fatalf("after ack and nak: %v %d", err, len(got))
	}
	if meta, _ := got[0].Meta(); meta.Delivered != 2 {
		t.Fatalf("a nak'd message should count a second delivery, got %+v", meta)
	}
	if err := c.Ack(got, soon()); err != nil {
		t.Fatal(err)
	}
	got, err = c.Fetch("T", "d", 10, 0, soon())
	if err != nil || len(got) != 0 {
		t.Fatalf("all acked: want nothing, got %v %d", err, len(got))
	}
	ci, err := c.ConsumerInfo("T", "d", soon())
	if err != nil || ci.NumPending != 0 || ci.NumAckPending != 0 || ci.AckFloor.Stream != 3 {
		t.Fatalf("consumer info %+v %v", ci, err)
	}
}

func TestJetStreamUnackedIsRedeliveredAfterAckWait(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}})
	if _, err := c.PublishJS("t.a", []byte("x"), natsclient.PublishOptions{}, soon()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddConsumer("T", natsclient.ConsumerConfig{Durable: "d", DeliverPolicy: "all", AckPolicy: "explicit",
		AckWait: 200 * time.Millisecond, MaxDeliver: -1, ReplayPolicy: "instant"}, soon()); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Fetch("T", "d", 1, 0, soon()); len(got) != 1 {
		t.Fatal("first fetch")
	}
	// Not acknowledged: the server gives it out again once ack_wait passed
	// (a pull that waits is answered then; nothing here sleeps).
	got, err := c.Fetch("T", "d", 1, 3*time.Second, soon())
	if err != nil || len(got) != 1 {
		t.Fatalf("redelivery: %v %d", err, len(got))
	}
	if meta, _ := got[0].Meta(); meta.Delivered != 2 {
		t.Fatalf("want second delivery, got %+v", meta)
	}
}

func TestJetStreamExclusiveCreateAndLastMsg(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}, AllowDirect: true})
	if m, err := c.LastMsg("T", "t.claim.x", soon()); err != nil || m != nil {
		t.Fatalf("nothing yet: %v %v", m, err)
	}
	if _, err := c.PublishJS("t.claim.x", []byte("first"), natsclient.PublishOptions{ExpectNoSubject: true}, soon()); err != nil {
		t.Fatal(err)
	}
	_, err := c.PublishJS("t.claim.x", []byte("second"), natsclient.PublishOptions{ExpectNoSubject: true}, soon())
	if !natsclient.IsAPIError(err, natsclient.ErrCodeWrongLastSeq) {
		t.Fatalf("a second exclusive create: want wrong last sequence, got %v", err)
	}
	m, err := c.LastMsg("T", "t.claim.x", soon())
	if err != nil || m == nil || string(m.Data) != "first" {
		t.Fatalf("last msg: %v %v", m, err)
	}
}

func TestJetStreamFullStreamRefusesNew(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}, MaxBytes: 4096})
	var err error
	for i := 0; i < 100 && err == nil; i++ {
		_, err = c.PublishJS("t.a", make([]byte, 500), natsclient.PublishOptions{}, soon())
	}
	if !natsclient.IsAPIError(err, natsclient.ErrCodeMaxBytes, natsclient.ErrCodeStoreFull) {
		t.Fatalf("want the stream full, got %v", err)
	}
	si, _ := c.StreamInfo("T", soon())
	if si.State.FirstSeq != 1 {
		t.Fatalf("discard new must keep the oldest message, first seq %d", si.State.FirstSeq)
	}
}

func TestJetStreamSurvivesRestart(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}})
	if _, err := c.PublishJS("t.a", []byte("kept"), natsclient.PublishOptions{MsgID: "k"}, soon()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	s.Restart()
	c = dial(t, natsclient.Options{URLs: []string{s.URL()}})
	si, err := c.StreamInfo("T", soon())
	if err != nil || si.State.Msgs != 1 {
		t.Fatalf("after restart: %v %+v", err, si)
	}
}

// Anyone who sees a pull request (it names its reply subject) may publish
// to that subject: what arrives there without the ack subject of this
// pull's consumer is not one of its messages, and acknowledging it would
// publish +ACK wherever its sender chose.
func TestFetchTakesOnlyItsConsumersMessages(t *testing.T) {
	s := natstest.Start(t, natstest.Options{})
	c := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	other := dial(t, natsclient.Options{URLs: []string{s.URL()}})
	stream(t, c, natsclient.StreamConfig{Name: "T", Subjects: []string{"t.>"}})
	if _, err := c.AddConsumer("T", natsclient.ConsumerConfig{Durable: "d", DeliverPolicy: "all", AckPolicy: "explicit",
		ReplayPolicy: "instant"}, soon()); err != nil {
		t.Fatal(err)
	}
	// (The server refuses a client's publish with a $JS.ACK reply.)
	for _, reply := range []string{"", "elsewhere.d.1.1.1.1.0"} {
		if err := other.Publish(natsclient.ReplyPrefix(c)+".pull.1", reply, nil, []byte("forged")); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.Flush(soon()); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(soon()); err != nil { // the forged messages are read
		t.Fatal(err)
	}
	got, err := c.Fetch("T", "d", 10, 0, soon())
	if err != nil || len(got) != 0 {
		t.Fatalf("want nothing from an empty consumer, got %d (%v)", len(got), err)
	}
}
