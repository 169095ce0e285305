// Package deadline is context.WithTimeout that arms no timer until one is
// needed. A hook process gives each check a deadline, but most checks
// never wait on it: they run, compare the clock at most, and return. A
// process's first timer sets up the runtime's poller (an epoll instance,
// an eventfd, another thread woken), which measured 5% of the checks of a
// pre-tool-use on a Bash command. Here the timer is made when Done is
// first asked (a child process to kill, a select on the deadline); until
// then Err compares the clock.
package deadline

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// WithTimeout is context.WithTimeout(parent, d), its timer armed on the
// first call of Done. Cancel it, as context's, when the work is done.
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c := &lazy{parent: parent, deadline: now().Add(d)}
	return c, c.cancel
}

// now is the clock Err compares (a test's own, in tests).
var now = time.Now

// lazy is parent with a deadline, or, once Done or cancel was called, the
// context those armed.
type lazy struct {
	parent   context.Context
	deadline time.Time
	once     sync.Once
	armed    atomic.Pointer[armed]
}

type armed struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func (c *lazy) arm(make func() (context.Context, context.CancelFunc)) *armed {
	c.once.Do(func() {
		ctx, cancel := make()
		c.armed.Store(&armed{ctx, cancel})
	})
	return c.armed.Load()
}

// Done arms the deadline's timer: from now on the context is
// context.WithDeadline's.
func (c *lazy) Done() <-chan struct{} {
	return c.arm(func() (context.Context, context.CancelFunc) {
		return context.WithDeadline(c.parent, c.deadline)
	}).ctx.Done()
}

// cancel ends the context. One never armed is canceled without a timer;
// past its deadline it stays DeadlineExceeded, as WithTimeout's does.
func (c *lazy) cancel() {
	c.arm(func() (context.Context, context.CancelFunc) {
		if !now().Before(c.deadline) {
			return context.WithDeadline(c.parent, c.deadline) // done at once, no timer
		}
		return context.WithCancel(c.parent)
	}).cancel()
}

// Err compares the clock while unarmed. An error, once seen, is kept: the
// context is armed then (done at once, no timer), so that Err says the
// same ever after, as a context must.
func (c *lazy) Err() error {
	if a := c.armed.Load(); a != nil {
		return a.ctx.Err()
	}
	if c.parent.Err() == nil && now().Before(c.deadline) {
		return nil
	}
	c.Done()
	return c.armed.Load().ctx.Err()
}

func (c *lazy) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *lazy) Value(key any) any { return c.parent.Value(key) }
