package natsaudit

import (
	"context"
	"errors"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// Tail reads the audit stream: the last n lines on filter (a subject,
// wildcards allowed), oldest first, each handed to emit; with follow it
// then waits for new ones until ctx ends. wait bounds each request to the
// broker. It reads through an ephemeral consumer that acknowledges nothing
// and that the broker removes once it is idle.
func Tail(ctx context.Context, c *natsclient.Conn, stream, filter string, n int, follow bool, wait time.Duration, emit func(*natsclient.Msg) error) error {
	si, err := c.StreamInfo(stream, time.Now().Add(wait))
	if err != nil {
		return err
	}
	start, err := startOfLast(c, stream, filter, n, si.State, wait)
	if err != nil {
		return err
	}
	name := "tail-" + newID()[:16]
	if start == 0 {
		start = si.State.LastSeq + 1 // -n 0: only what comes next
	}
	_, err = c.AddConsumer(stream, consumer(name, filter, start), time.Now().Add(wait))
	if err != nil {
		return err
	}
	defer c.DeleteConsumer(stream, name, time.Now().Add(wait))
	for ctx.Err() == nil {
		pull := time.Duration(0)
		if follow {
			pull = min(wait, time.Second)
		}
		msgs, err := c.Fetch(stream, name, 256, pull, time.Now().Add(pull+wait))
		for _, m := range msgs {
			if err := emit(m); err != nil {
				return err
			}
		}
		if err != nil && !errors.Is(err, natsclient.ErrTimeout) {
			return err
		}
		if !follow && len(msgs) == 0 {
			return nil
		}
	}
	return nil
}

// consumer is an ephemeral consumer on filter from sequence start.
func consumer(name, filter string, start uint64) natsclient.ConsumerConfig {
	cfg := natsclient.ConsumerConfig{Name: name, DeliverPolicy: "by_start_sequence", OptStartSeq: max(start, 1),
		AckPolicy: "none", ReplayPolicy: "instant", InactiveThreshold: time.Minute, MemoryStorage: true}
	if filter != "" {
		cfg.FilterSubjects = []string{filter}
	}
	return cfg
}

// startOfLast is the sequence from which the last n messages on filter
// begin: the greatest sequence with at least n of them at or after it
// (the stream's first when it holds fewer), found by asking the broker
// how many a consumer starting there would get. 0 means n is 0.
func startOfLast(c *natsclient.Conn, stream, filter string, n int, st natsclient.StreamState, wait time.Duration) (uint64, error) {
	if n <= 0 {
		return 0, nil
	}
	first := max(st.FirstSeq, 1)
	lo, hi := first, st.LastSeq+1 // pending(lo) >= n is known or lo is first; pending(hi) = 0 < n
	if st.LastSeq < first {
		return first, nil
	}
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		p, err := pending(c, stream, filter, mid, wait)
		if err != nil {
			return 0, err
		}
		if p >= uint64(n) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// pending is how many messages on filter are at or after seq.
func pending(c *natsclient.Conn, stream, filter string, seq uint64, wait time.Duration) (uint64, error) {
	name := "count-" + newID()[:16]
	ci, err := c.AddConsumer(stream, consumer(name, filter, seq), time.Now().Add(wait))
	if err != nil {
		return 0, err
	}
	_ = c.DeleteConsumer(stream, name, time.Now().Add(wait))
	return ci.NumPending, nil
}
