package config

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
)

// Inbox backends.
const (
	BackendFile = "file"
	BackendNATS = "nats"
)

// Defaults of the NATS settings.
const (
	DefaultInboxStream  = "MASSGEN_INBOX"
	DefaultInboxSubject = "massgen.inbox"
	DefaultAuditStream  = "MASSGEN_AUDIT"
	DefaultAuditSubject = "massgen.audit"
	// DefaultNATSTimeout bounds what a hook spends on the broker: a hook
	// runs on every tool call, and a broker that is down or slow must not
	// hold the agent up.
	DefaultNATSTimeout = 500 * time.Millisecond
	// NATSURLEnv, when set, is the server URL, so a URL with a password
	// need not be written into a config file that is committed.
	NATSURLEnv = "MASSGEN_HOOK_NATS_URL"
)

// Inbox chooses where `send` queues messages and where hooks find them:
// files in the project (the default), or a NATS JetStream stream that
// agents on several machines share.
type Inbox struct {
	// Backend is file (the default) or nats.
	Backend string `yaml:"backend"`
	NATS    `yaml:",inline"`
	// Stream is the JetStream stream (default MASSGEN_INBOX), created with
	// its subjects if it does not exist.
	Stream string `yaml:"stream"`
	// Subject is the subjects' prefix (default massgen.inbox).
	Subject string `yaml:"subject"`
	// MaxBytes bounds the stream massgen-hook creates (0: the server's
	// limits). A full stream refuses new messages; it never drops old ones.
	MaxBytes int64 `yaml:"max_bytes"`
	// AckWait is how long a message a hook fetched waits for that hook to
	// confirm it before the broker gives it out again (default 30s).
	AckWait Duration `yaml:"ack_wait"`
}

// DefaultAckWait is how long the broker waits for a hook to confirm.
const DefaultAckWait = 30 * time.Second

// Audit configures copies of the audit trail.
type Audit struct {
	// Sink is "" (the local file only) or nats: every line is also
	// published to a JetStream subject.
	Sink string `yaml:"sink"`
	// The server; unset fields are the inbox's.
	NATS `yaml:",inline"`
	// Stream is the stream that keeps the lines (default MASSGEN_AUDIT).
	Stream string `yaml:"stream"`
	// Subject is where lines are published (default massgen.audit).
	Subject string `yaml:"subject"`
}

// NATS says how to reach a NATS server.
type NATS struct {
	// URL is one server, or several separated by commas, tried in order:
	// nats://host:4222. $MASSGEN_HOOK_NATS_URL, when set, replaces it.
	URL string `yaml:"url"`
	// Creds is a .creds file (a user JWT and nkey seed); Nkey an nkey
	// seed file. Relative paths are from the config file's folder.
	Creds string `yaml:"creds"`
	Nkey  string `yaml:"nkey"`
	// Timeout bounds each hook's time on the broker (default 500ms).
	Timeout Duration `yaml:"timeout"`
	// Domain is the JetStream domain of the broker, when the server named
	// by URL is a local leaf node that forwards to it.
	Domain string `yaml:"domain"`
}

// UsesNATS reports whether the inbox is on NATS.
func (i *Inbox) UsesNATS() bool { return i.Backend == BackendNATS }

// InboxNATS is the inbox's server settings with defaults filled in.
func (c *Config) InboxNATS(env func(string) string) NATS {
	n := c.Inbox.NATS
	n.fill(env)
	return n
}

// AuditNATS is the audit sink's server settings: its own, else the
// inbox's, with defaults filled in.
func (c *Config) AuditNATS(env func(string) string) NATS {
	n := c.Audit.NATS
	in := c.Inbox.NATS
	if n.URL == "" {
		n.URL = in.URL
	}
	if n.Creds == "" && n.Nkey == "" {
		n.Creds, n.Nkey = in.Creds, in.Nkey
	}
	if n.Timeout == 0 {
		n.Timeout = in.Timeout
	}
	if n.Domain == "" {
		n.Domain = in.Domain
	}
	n.fill(env)
	return n
}

func (n *NATS) fill(env func(string) string) {
	if env != nil {
		if u := env(NATSURLEnv); u != "" {
			n.URL = u
		}
	}
	if n.Timeout == 0 {
		n.Timeout = Duration(DefaultNATSTimeout)
	}
}

// URLs is URL split at commas.
func (n *NATS) URLs() []string {
	var out []string
	for _, u := range strings.Split(n.URL, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// InboxStream and InboxSubject are the inbox's stream and subject prefix.
func (c *Config) InboxStream() string  { return or(c.Inbox.Stream, DefaultInboxStream) }
func (c *Config) InboxSubject() string { return or(c.Inbox.Subject, DefaultInboxSubject) }

// AuditStream and AuditSubject are the audit sink's stream and subject.
func (c *Config) AuditStream() string  { return or(c.Audit.Stream, DefaultAuditStream) }
func (c *Config) AuditSubject() string { return or(c.Audit.Subject, DefaultAuditSubject) }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// natsName is a stream name: letters, digits, - and _. Compiled on first
// use, as every pattern: few hooks read a config that has one.
var natsName = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
}}

// natsSubject is a subject without wildcards: dot-separated words.
var natsSubject = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)
}}

// validateNATS checks inbox: and audit:.
func (c *Config) validateNATS(bad func(key, format string, args ...any)) {
	in := &c.Inbox
	switch in.Backend {
	case "", BackendFile:
	case BackendNATS:
		// The URL may come from $MASSGEN_HOOK_NATS_URL, which a file
		// cannot be judged by: MissingNATSURL says, with the environment.
	default:
		bad("inbox.backend", "must be file or nats, got %q", in.Backend)
	}
	switch c.Audit.Sink {
	case "":
	case BackendNATS:
	default:
		bad("audit.sink", "must be nats (or left out for the local file only), got %q", c.Audit.Sink)
	}
	for _, n := range []struct {
		key string
		s   *NATS
	}{{"inbox", &in.NATS}, {"audit", &c.Audit.NATS}} {
		for _, u := range n.s.URLs() {
			if msg := checkNATSURL(u); msg != "" {
				bad(n.key+".url", "%s", msg)
			}
		}
		if t := time.Duration(n.s.Timeout); t < 0 || t > 10*time.Second {
			bad(n.key+".timeout", "must be from 0 (the default, %s) to 10s, got %s", DefaultNATSTimeout, t)
		}
		if n.s.Creds != "" && n.s.Nkey != "" {
			bad(n.key+".nkey", "give creds or nkey, not both")
		}
	}
	for key, v := range map[string]string{"inbox.stream": in.Stream, "audit.stream": c.Audit.Stream,
		"inbox.domain": in.Domain, "audit.domain": c.Audit.Domain} {
		if v != "" && !natsName.Get().MatchString(v) {
			bad(key, "%q: a stream name is letters, digits, - and _", v)
		}
	}
	for key, v := range map[string]string{"inbox.subject": in.Subject, "audit.subject": c.Audit.Subject} {
		if v != "" && !natsSubject.Get().MatchString(v) {
			bad(key, "%q: a subject is dot-separated words of letters, digits, - and _ (no wildcards)", v)
		}
	}
	if t := time.Duration(in.AckWait); t < 0 || (t > 0 && t < 100*time.Millisecond) || t > time.Hour {
		bad("inbox.ack_wait", "must be from 100ms to 1h (default %s), got %s", DefaultAckWait, t)
	}
	if in.MaxBytes < 0 {
		bad("inbox.max_bytes", "cannot be negative")
	}
}

// MissingNATSURL says which of inbox: and audit: use NATS with no server
// URL in the file or in the environment ($MASSGEN_HOOK_NATS_URL).
func (c *Config) MissingNATSURL(getenv func(string) string) []string {
	var out []string
	if c.Inbox.UsesNATS() && c.InboxNATS(getenv).URL == "" {
		out = append(out, fmt.Sprintf("inbox.url: the nats backend needs a server URL (or $%s)", NATSURLEnv))
	}
	if c.Audit.Sink == BackendNATS && c.AuditNATS(getenv).URL == "" {
		out = append(out, fmt.Sprintf("audit.url: the nats sink needs a server URL (here, under inbox:, or $%s)", NATSURLEnv))
	}
	return out
}

// checkNATSURL says what is wrong with a server URL, never repeating a
// password it holds.
func checkNATSURL(raw string) string {
	s := raw
	if !strings.Contains(s, "://") {
		s = "nats://" + s
	}
	// The credentials end at the last @, as the client reads them: a
	// password holding / # or ? would otherwise end the host early.
	if scheme, rest, _ := strings.Cut(s, "://"); strings.Contains(rest, "@") {
		s = scheme + "://" + rest[strings.LastIndex(rest, "@")+1:]
	}
	u, err := url.Parse(s)
	if err != nil {
		return "a server URL does not parse (it is not shown: it may hold a password)"
	}
	if u.Scheme == "tls" {
		return "massgen-hook does not speak TLS itself (it would slow every hook's start): give the nats:// URL of a local nats-server leaf node that connects to the broker over TLS (docs/across-machines.md)"
	}
	if u.Scheme != "nats" {
		return "a server URL starts nats://, got " + u.Scheme + "://"
	}
	if u.Hostname() == "" {
		return "a server URL has no host"
	}
	return ""
}

// DialOptions is how natsclient reaches the server: files named relative
// to base (the config file's folder) resolved, and checked to be there, so
// a missing credentials file is said as such, not as a refused login.
func (n NATS) DialOptions(base, name string) (natsclient.Options, error) {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		if strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				return filepath.Join(home, p[2:])
			}
		}
		return filepath.Join(base, p)
	}
	o := natsclient.Options{URLs: n.URLs(), Creds: abs(n.Creds), Nkey: abs(n.Nkey), Name: name, Domain: n.Domain}
	if len(o.URLs) == 0 {
		return natsclient.Options{}, fmt.Errorf("no NATS server URL: set url: in the config, or $%s", NATSURLEnv)
	}
	for _, f := range []string{o.Creds, o.Nkey} {
		if f == "" {
			continue
		}
		if _, err := os.Stat(f); err != nil {
			return natsclient.Options{}, fmt.Errorf("the NATS credentials file: %w", err)
		}
	}
	return o, nil
}
