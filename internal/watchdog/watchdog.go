// Package watchdog bounds the time a hook spends judging one event.
//
// The guards are written to judge in time that grows with the input, but
// the agent writes the input, and a shape they missed (a glob matched on
// disk through many folder levels, aliases that call aliases) can keep the
// hook busy past the CLI's timeout. A CLI whose hook timed out lets the
// call go ahead, unjudged. The watchdog turns that into a decision: once
// the judgement has run for its budget, it calls fire from a goroutine of
// its own, while the judgement is still running, and fire answers for the
// hook (it blocks the call and exits).
//
// Time spent waiting for the user's own command handlers is not counted:
// each has a timeout of its own, which the user chose (see Away).
package watchdog

import (
	"context"
	"sync"
	"time"
)

// Watchdog is one judgement's budget. Make it with Start; Stop it before
// answering.
type Watchdog struct {
	mu     sync.Mutex
	budget time.Duration
	start  time.Time
	fire   func()
	alarm  alarm
	// gen numbers the alarms, so that one set before a re-arm rings
	// for nothing.
	gen int
	// away is the time spent away (Away) in spells that have ended;
	// awayN counts the spells going on, since awaySince.
	away      time.Duration
	awayN     int
	awaySince time.Time
	stopped   bool
	fired     bool
}

// alarm is a pending call of a function after a while (*time.Timer).
type alarm interface{ Stop() bool }

// now and afterFunc are the clock (a test's own, in tests).
var (
	now       = time.Now
	afterFunc = func(d time.Duration, f func()) alarm { return time.AfterFunc(d, f) }
)

type key struct{}

// Start starts the budget of a judgement: after budget, less the time
// spent away, fire is called once unless Stop came first. The context
// returned carries the watchdog to Away.
func Start(ctx context.Context, budget time.Duration, fire func()) (context.Context, *Watchdog) {
	w := &Watchdog{budget: budget, start: now(), fire: fire}
	w.mu.Lock()
	w.arm(budget)
	w.mu.Unlock()
	return context.WithValue(ctx, key{}, w), w
}

// arm sets a new alarm after d; the caller holds mu.
func (w *Watchdog) arm(d time.Duration) {
	w.gen++
	gen := w.gen
	w.alarm = afterFunc(max(d, 0), func() { w.ring(gen) })
}

// ring is an alarm going off: it fires once the budget is spent, and
// otherwise sets the alarm again for what is left (time was spent away).
func (w *Watchdog) ring(gen int) {
	w.mu.Lock()
	if gen != w.gen || w.stopped || w.fired || w.awayN > 0 {
		w.mu.Unlock()
		return
	}
	if left := w.left(); left > 0 {
		w.arm(left)
		w.mu.Unlock()
		return
	}
	w.fired = true
	w.mu.Unlock()
	w.fire()
}

// left is what is left of the budget; the caller holds mu, away from no
// spell.
func (w *Watchdog) left() time.Duration {
	return w.budget - (now().Sub(w.start) - w.away)
}

// Away marks the time until back is called as spent away from the
// judgement: waiting for a user's command handler, which has a timeout
// of its own. Spells may overlap. Without a watchdog in ctx it does
// nothing.
func Away(ctx context.Context) (back func()) {
	w, _ := ctx.Value(key{}).(*Watchdog)
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	if w.awayN == 0 {
		w.awaySince = now()
		w.alarm.Stop()
	}
	w.awayN++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.awayN--
			if w.awayN == 0 {
				w.away += now().Sub(w.awaySince)
				if !w.stopped && !w.fired {
					w.arm(w.left())
				}
			}
		})
	}
}

// Stop ends the budget before an answer is written. It reports false when
// the watchdog has fired already: fire is answering, and the caller must
// not.
func (w *Watchdog) Stop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired {
		return false
	}
	w.stopped = true
	w.alarm.Stop()
	return true
}
