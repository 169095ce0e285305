package natsinbox

import "github.com/massgen/massgen-hook/natsclient"

// Connect is the broker's connection, for tests.
func Connect(b *Broker) (*natsclient.Conn, error) { return b.connect(b.deadline()) }
