package watchdog

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told; its alarms go off as it
// passes them.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	alarms []*fakeAlarm
}

type fakeAlarm struct {
	at      time.Time
	f       func()
	stopped bool
}

func (a *fakeAlarm) Stop() bool { was := !a.stopped; a.stopped = true; return was }

func useFakeClock(t *testing.T) *fakeClock {
	c := &fakeClock{t: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)}
	now = func() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
	afterFunc = func(d time.Duration, f func()) alarm {
		c.mu.Lock()
		defer c.mu.Unlock()
		a := &fakeAlarm{at: c.t.Add(d), f: f}
		c.alarms = append(c.alarms, a)
		return a
	}
	t.Cleanup(func() {
		now = time.Now
		afterFunc = func(d time.Duration, f func()) alarm { return time.AfterFunc(d, f) }
	})
	return c
}

// advance moves the clock by d, ringing the alarms it passes, in turn.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var due *fakeAlarm
		for _, a := range c.alarms {
			if !a.stopped && !a.at.After(c.t) {
				due = a
				break
			}
		}
		if due != nil {
			due.stopped = true
		}
		c.mu.Unlock()
		if due == nil {
			return
		}
		due.f()
	}
}

// counter counts the calls of fire.
type counter struct{ n int }

func (c *counter) fire() { c.n++ }

// firesAfter moves the clock to just before d from now, where fired must
// not have fired, then to d, where it must have fired once.
func (c *fakeClock) firesAfter(t *testing.T, fired *counter, d time.Duration) {
	t.Helper()
	c.advance(d - time.Nanosecond)
	if fired.n != 0 {
		t.Fatalf("fired %d times before the budget was spent", fired.n)
	}
	c.advance(time.Nanosecond)
	if fired.n != 1 {
		t.Fatalf("fired %d times once the budget was spent, want once", fired.n)
	}
}

func TestFiresOnceWhenTheBudgetIsSpent(t *testing.T) {
	c := useFakeClock(t)
	var fired counter
	_, w := Start(context.Background(), 5*time.Second, fired.fire)
	c.firesAfter(t, &fired, 5*time.Second)
	c.advance(time.Hour)
	if fired.n != 1 {
		t.Fatalf("fired %d times, want once", fired.n)
	}
	if w.Stop() {
		t.Error("Stop after firing reports true: the caller would answer as well")
	}
}

func TestStoppedNeverFires(t *testing.T) {
	c := useFakeClock(t)
	var fired counter
	ctx, w := Start(context.Background(), 5*time.Second, fired.fire)
	c.advance(time.Second)
	if !w.Stop() {
		t.Fatal("Stop before the budget reports false")
	}
	back := Away(ctx) // a spell after Stop arms nothing
	back()
	c.advance(time.Hour)
	if fired.n != 0 {
		t.Errorf("fired %d times after Stop", fired.n)
	}
}

// Time waiting for a user's handler does not count: the budget is the
// guards' own time.
func TestTimeAwayIsNotCounted(t *testing.T) {
	c := useFakeClock(t)
	var fired counter
	ctx, _ := Start(context.Background(), 5*time.Second, fired.fire)
	c.advance(2 * time.Second)
	back := Away(ctx)
	c.advance(10 * time.Second)
	if fired.n != 0 {
		t.Fatal("fired while away")
	}
	back()
	back() // a second call of the same back is nothing
	c.firesAfter(t, &fired, 3*time.Second)
}

// Spells away may overlap (handlers run side by side): the time counts
// again only when the last has ended.
func TestOverlappingSpellsAway(t *testing.T) {
	c := useFakeClock(t)
	var fired counter
	ctx, _ := Start(context.Background(), 5*time.Second, fired.fire)
	back1 := Away(ctx)
	c.advance(time.Second)
	back2 := Away(ctx)
	back1()
	c.advance(10 * time.Second)
	if fired.n != 0 {
		t.Fatal("fired while one spell was still away")
	}
	back2()
	c.firesAfter(t, &fired, 5*time.Second)
}

// A spell that ends past what was left fires at once: the budget was
// spent before it began.
func TestBackPastTheBudgetFires(t *testing.T) {
	c := useFakeClock(t)
	var fired counter
	ctx, _ := Start(context.Background(), time.Second, fired.fire)
	c.now(func() { c.t = c.t.Add(2 * time.Second) }) // spent without an alarm ringing
	back := Away(ctx)
	c.advance(time.Minute)
	back()
	c.advance(0)
	if fired.n != 1 {
		t.Fatalf("fired %d times, want once", fired.n)
	}
}

func (c *fakeClock) now(f func()) { c.mu.Lock(); defer c.mu.Unlock(); f() }

func TestAwayWithoutAWatchdog(t *testing.T) {
	back := Away(context.Background())
	back()
}

// With the real clock: fire runs on a goroutine of its own while the
// caller is still busy.
func TestFiresWhileTheCallerIsBusy(t *testing.T) {
	fired := make(chan struct{})
	_, w := Start(context.Background(), time.Millisecond, func() { close(fired) })
	<-fired // the caller could be stuck in a loop; the watchdog does not wait for it
	if w.Stop() {
		t.Error("Stop after firing reports true")
	}
}
