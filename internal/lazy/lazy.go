// Package lazy holds values built on first use. A hook process runs one
// event and exits, so a table built at start-up is paid on every call, used
// or not: package-level maps and compiled patterns go in a Value instead.
//
// A Value declared as a package-level composite literal is laid out by the
// compiler, so declaring one costs nothing at start-up (sync.OnceValue, by
// contrast, allocates its closure during package initialisation).
package lazy

import "sync"

// Value is a T built by New on the first Get, once, safely for concurrent
// use.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, building it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.load)
	return l.v
}

func (l *Value[T]) load() { l.v = l.New() }
