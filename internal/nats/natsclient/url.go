package natsclient

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// serverURL is one parsed server address.
type serverURL struct {
	hostport, host string
	user, password string
	hasPassword    bool
}

// parseURL reads nats://[user[:pass]@]host[:port] or host[:port]; the
// port defaults to 4222.
func parseURL(raw string) (serverURL, error) {
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		s = "nats://" + s
	}
	// The credentials are everything before the last @, split off before
	// url.Parse sees them: a password or token holding / # or ? (base64
	// holds /) would end its authority early, and its error would quote
	// the secret's first part as a port or host.
	var out serverURL
	scheme, rest, _ := strings.Cut(s, "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		out.user, out.password, out.hasPassword = unescape(user), unescape(pass), hasPass
		s = scheme + "://" + rest[at+1:]
	}
	u, err := url.Parse(s)
	if err != nil {
		return serverURL{}, fmt.Errorf("nats: server URL %s: %v", Redact(raw), redactErr(err, raw))
	}
	switch u.Scheme {
	case "nats":
	case "tls":
		return serverURL{}, fmt.Errorf("nats: server URL %s: %w", Redact(raw), errNoTLS)
	default:
		return serverURL{}, fmt.Errorf("nats: server URL %s: the scheme must be nats://", Redact(raw))
	}
	if u.Hostname() == "" {
		return serverURL{}, fmt.Errorf("nats: server URL %s has no host", Redact(raw))
	}
	out.host = u.Hostname()
	port := u.Port()
	if port == "" {
		port = "4222"
	}
	out.hostport = net.JoinHostPort(out.host, port)
	return out, nil
}

// unescape is a URL's user or password percent-decoded, or as written when
// it is not valid percent-encoding (then it was meant literally).
func unescape(s string) string {
	if v, err := url.PathUnescape(s); err == nil {
		return v
	}
	return s
}

func (u serverURL) redacted() string {
	scheme := "nats://"
	if u.user != "" {
		return scheme + "***@" + u.hostport
	}
	return scheme + u.hostport
}

// Redact is a server URL as it may be shown: any user, password or token
// replaced by ***. What cannot be parsed is not shown at all.
func Redact(raw string) string {
	s := strings.TrimSpace(raw)
	at := strings.LastIndex(s, "@")
	if at < 0 {
		if strings.ContainsAny(s, " \t\r\n") {
			return "(a server URL that does not parse)"
		}
		return s
	}
	scheme := ""
	if i := strings.Index(s, "://"); i >= 0 && i < at {
		scheme = s[:i+3]
	}
	return scheme + "***@" + s[at+1:]
}

// redactErr is a URL parse error without the URL in it (url.Error
// quotes the whole URL, password included).
func redactErr(err error, raw string) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), raw, Redact(raw)))
}

// RedactText is text (an error) with the credentials of any URL in it
// hidden: each scheme://user:password@ becomes scheme://***@.
func RedactText(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexAny(s, " \t\r\n/\"'")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndex(s[:end], "@"); at >= 0 {
			b.WriteString("***")
			s = s[at:]
		}
	}
}
