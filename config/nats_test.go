package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseNATS(t *testing.T) {
	cfg, err := Parse(file, []byte("inbox:\n  backend: nats\n  url: nats://a:4222, nats://b:4222\n  stream: TEAM_INBOX\n  subject: team.inbox\n  creds: agent.creds\n  timeout: 300ms\n  ack_wait: 10s\n  domain: hub\naudit:\n  sink: nats\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Inbox.UsesNATS() || cfg.InboxStream() != "TEAM_INBOX" || cfg.InboxSubject() != "team.inbox" {
		t.Fatalf("inbox: %+v", cfg.Inbox)
	}
	n := cfg.InboxNATS(func(string) string { return "" })
	if got := n.URLs(); len(got) != 2 || got[1] != "nats://b:4222" || time.Duration(n.Timeout) != 300*time.Millisecond {
		t.Fatalf("urls %q timeout %s", got, time.Duration(n.Timeout))
	}
	a := cfg.AuditNATS(func(k string) string {
		if k == NATSURLEnv {
			return "nats://env:4222"
		}
		return ""
	})
	if a.URL != "nats://env:4222" || a.Creds != "agent.creds" || a.Domain != "hub" || cfg.AuditSubject() != DefaultAuditSubject {
		t.Fatalf("audit falls back to the inbox's server, the env wins the URL: %+v", a)
	}
	def := Default()
	if def.Inbox.UsesNATS() || time.Duration(def.InboxNATS(nil).Timeout) != DefaultNATSTimeout {
		t.Fatal("the file backend is the default, 500ms the default timeout")
	}
}

func TestParseNATSValidation(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"backend typo", "inbox:\n  backend: natss\n", `cfg.yaml:2: inbox.backend: must be file or nats, got "natss"`},
		{"tls url", "inbox:\n  backend: nats\n  url: tls://u:secret@h:4222\n", "leaf node"},
		{"other scheme", "inbox:\n  url: http://h\n", "a server URL starts nats://, got http://"},
		{"bad stream", "inbox:\n  stream: my.stream\n", `inbox.stream: "my.stream": a stream name is letters, digits, - and _`},
		{"wildcard subject", "inbox:\n  subject: a.*\n", "(no wildcards)"},
		{"timeout", "inbox:\n  timeout: 11s\n", "inbox.timeout: must be from 0 (the default, 500ms) to 10s, got 11s"},
		{"ack_wait", "inbox:\n  ack_wait: 1ms\n", "inbox.ack_wait: must be from 100ms to 1h"},
		{"creds and nkey", "inbox:\n  creds: a\n  nkey: b\n", "give creds or nkey, not both"},
		{"audit sink typo", "audit:\n  sink: file\n", `audit.sink: must be nats (or left out for the local file only), got "file"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want %q, got %v", tt.want, err)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("a password reached the error: %v", err)
			}
		})
	}
}

func TestMissingNATSURL(t *testing.T) {
	cfg, err := Parse(file, []byte("inbox:\n  backend: nats\naudit:\n  sink: nats\n"))
	if err != nil {
		t.Fatalf("a URL may come from the environment: %v", err)
	}
	none := func(string) string { return "" }
	if got := cfg.MissingNATSURL(none); len(got) != 2 {
		t.Fatalf("no URL anywhere: %q", got)
	}
	env := func(k string) string {
		if k == NATSURLEnv {
			return "nats://h:4222"
		}
		return ""
	}
	if got := cfg.MissingNATSURL(env); len(got) != 0 {
		t.Fatalf("the URL from the environment: %q", got)
	}
	if _, err := cfg.InboxNATS(none).DialOptions(".", "x"); err == nil || !strings.Contains(err.Error(), NATSURLEnv) {
		t.Fatalf("dialing with no URL: %v", err)
	}
}

// A password or token holding / # or ? (base64 holds /) is taken whole,
// as the client takes it: validation does not call such a URL unparsable.
func TestNATSURLWithReservedCharactersInItsSecretIsValid(t *testing.T) {
	for _, u := range []string{"nats://bob:se/cr#et?@h:4222", "nats://t0k/en+x==@h:4222", "bob:a/b@h"} {
		if _, err := Parse(file, []byte("inbox:\n  backend: nats\n  url: "+u+"\n")); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}
