// Package natsaudit copies the audit trail to a NATS JetStream stream, so a
// team running agents on several machines sees one trail, and reads that
// stream back for `massgen-hook audit tail --from nats`.
//
// The local trail (state.Dir.Audit) stays the record: every line is written
// there first and then handed to the Sink, which publishes the same bytes.
// A line the broker does not take goes to a spool in the runtime directory
// and is forwarded, in order and once, by the next hook that reaches the
// broker.
package natsaudit

import (
	"encoding/hex"
	"hash/fnv"
	"path/filepath"
	"strings"
)

// ProjectKey is the subject token that tells projects apart on the shared
// stream: the project folder's base name, made subject-safe and cut to 32
// characters, a dash, and 8 hex digits of an FNV-1a hash of the project's
// absolute path, so two checkouts named alike stay apart and the key of a
// project does not change from one hook to the next.
func ProjectKey(project string) string {
	abs := filepath.Clean(project)
	if a, err := filepath.Abs(abs); err == nil {
		abs = a
	}
	h := fnv.New32a()
	h.Write([]byte(abs))
	return subjectSafe(filepath.Base(abs)) + "-" + hex.EncodeToString(h.Sum(nil))
}

// subjectSafe keeps letters, digits, - and _ (the characters a subject
// token may hold everywhere) and turns anything else into _.
func subjectSafe(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "project"
	}
	return b.String()
}

// Subject is where the lines of project are published: prefix.<key>.
func Subject(prefix, project string) string { return prefix + "." + ProjectKey(project) }
