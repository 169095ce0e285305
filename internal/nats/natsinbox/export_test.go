package natsinbox

import (
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// Connect is the broker's connection, for tests.
func Connect(b *Broker) (*natsclient.Conn, error) { return b.connect(b.deadline()) }

// SetClock replaces the clock that bounds b's waits on the network.
func SetClock(b *Broker, clock func() time.Time) { b.clock = clock }
