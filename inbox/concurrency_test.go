package inbox

import (
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentTakeSend: 8 consumers, each its own *Inbox on one runtime
// directory (as separate hook processes), Take and Settle(true) for one
// recipient while 4 senders queue targeted messages and broadcasts: every
// message reaches the recipient exactly once, and the inbox then lists
// each as delivered to it, pending for nobody.
func TestConcurrentTakeSend(t *testing.T) {
	t.Parallel()
	const senders, perSender, consumers = 4, 60, 8
	total := senders * perSender
	e := newEnv(t)
	var sendersDone atomic.Bool
	var swg, cwg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	var calls atomic.Int64
	start := time.Now()
	now := func() time.Time { return t0.Add(time.Since(start)) } // monotonic: ids sort by send
	re := regexp.MustCompile(`msg-\d{4}`)
	for s := range senders {
		swg.Add(1)
		go func() {
			defer swg.Done()
			ib := e.other()
			for i := range perSender {
				n := s*perSender + i
				d := Draft{To: []string{"agent_x"}, Text: fmt.Sprintf("msg-%04d", n)}
				if n%5 == 0 {
					d = Draft{From: "agent_y", Text: fmt.Sprintf("msg-%04d", n)} // a broadcast
				}
				if _, err := ib.Send(d, now()); err != nil {
					t.Errorf("send %d: %v", n, err)
					return
				}
			}
		}()
	}
	for range consumers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			ib := e.other()
			for {
				done := sendersDone.Load()
				b, err := ib.Take("agent_x", "Bash", now(), 8000, Via{Event: "PostToolUse", Tool: "Bash"})
				calls.Add(1)
				if err != nil {
					t.Errorf("Take: %v", err)
					return
				}
				if b.Empty() {
					if done {
						return
					}
					time.Sleep(time.Millisecond)
					continue
				}
				var found []string
				for _, p := range b.Parts() {
					found = append(found, re.FindAllString(p.Text, -1)...)
				}
				b.Settle(true)
				mu.Lock()
				for _, f := range found {
					counts[f]++
				}
				mu.Unlock()
			}
		}()
	}
	swg.Wait()
	sendersDone.Store(true)
	cwg.Wait()

	for n := range total {
		if c := counts[fmt.Sprintf("msg-%04d", n)]; c != 1 {
			t.Errorf("msg-%04d delivered %d times", n, c)
		}
	}
	list := e.list(now())
	if len(list) != total {
		t.Errorf("the inbox lists %d messages, want %d", len(list), total)
	}
	for _, s := range list {
		if !sameStrings(recipients(s.Delivered), []string{"agent_x"}) || len(s.Claimed)+len(s.UndeliveredFor) != 0 ||
			len(s.PendingFor) != 0 && !(s.Broadcast() && sameStrings(s.PendingFor, []string{"*"})) {
			t.Errorf("%s: %+v", s.Text, s)
		}
	}
	if n := e.notes.String(); n != "" {
		t.Errorf("notes: %s", n)
	}
	t.Logf("%d messages, %d senders, %d consumers: %d Take calls, %v", total, senders, consumers, calls.Load(), time.Since(start))
}
