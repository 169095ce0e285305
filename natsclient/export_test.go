package natsclient

// SignWithCreds is signWithCreds, for tests.
var SignWithCreds = signWithCreds

// QueuedBytes is what c holds of messages read while waiting for others.
func QueuedBytes(c *Conn) int {
	n := 0
	for _, m := range c.queued {
		n += len(m.Data)
	}
	return n
}
