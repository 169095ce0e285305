// Package redact masks secrets in tool-call inputs before they reach the audit
// trail. massgen-hook writes an audit line for every hook decision, and each
// line carries the tool call's input: a Bash command, the contents of a file
// being written, an MCP call's arguments. These routinely hold tokens,
// passwords and keys. The audit file lives on disk long after the session and
// may be shared, so a secret must be masked before the line is written.
//
// Redaction runs on every hook call, so it stays cheap. Its regular
// expressions are compiled on first use, never at package init, and one byte
// scan lets text that cannot match any rule skip them entirely. When it cannot
// tell, it masks: an audit line with too much redacted is a nuisance, but a
// leaked credential is an incident.
//
// Known gaps, where a rule would mask too much ordinary text: `curl -u
// user:pass` (indistinguishable from `docker -u 1000:1000`), names ending in
// _KEY or _PWD outside the list (MYSQL_PWD), a bare token as a URL's user
// name, all-lowercase bearer values, YAML block values (`password: |`), and a
// password flag split across the elements of a JSON argument list
// (["sshpass", "-p", "x"]), where the program is not seen with the flag.
package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Mask replaces every secret. Its brackets end any name or token next to it,
// and "REDACTED" spells none of the words the rules look for, so redacting
// masked text again leaves it as it is.
const Mask = "[REDACTED]"

// unparseable stands in for input that is not JSON. Such input cannot be
// walked key by key, so none of it can be shown to be safe.
const unparseable = `"[unparseable input redacted]"`

// JSON returns a copy of the JSON value raw with its secrets masked: the whole
// value of any object key whose name denotes a secret, the element after a
// secret-naming flag in an array (["--token", "x"]), and every secret inside
// any string (see String). Object keys themselves are kept: they say what was
// masked.
//
// A name denotes a secret if, lowercased and with '-' and '_' removed, it is
// or ends in password, passwd, passphrase, secret, token, apikey, accesskey,
// privatekey, credential(s), authorization, cookie or sessionid: GITHUB_TOKEN,
// x-api-key and client_secret are secrets, max_tokens and tokenizer are not.
//
// Numbers keep their exact text. Object keys may come back sorted. Input that
// is not valid JSON yields a JSON string saying so, since a partial redaction
// of it could leak.
func JSON(raw []byte) json.RawMessage {
	if canSkipJSON(raw) {
		var buf bytes.Buffer
		buf.Grow(len(raw))
		if json.Compact(&buf, raw) == nil {
			return buf.Bytes()
		}
		return json.RawMessage(unparseable)
	}
	return redactJSON(raw)
}

// redactJSON is the long way: decode, mask, re-encode.
func redactJSON(raw []byte) json.RawMessage {
	// Valid rejects trailing data, which a single Decode would ignore.
	if !json.Valid(raw) {
		return json.RawMessage(unparseable)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	// Without UseNumber a number would pass through float64: 1e400 fails
	// and 12345678901234567890 loses digits.
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return json.RawMessage(unparseable)
	}
	out, err := encode(redactValue(v))
	if err != nil {
		return json.RawMessage(unparseable)
	}
	return out
}

// canSkipJSON reports that raw cannot hold a secret, so that the common case
// (a command with nothing sensitive in it) is copied rather than decoded and
// re-encoded. It is only sound on the raw bytes when no escape sequence could
// spell a trigger the scan would miss: \u can encode any character and \/
// hides the slashes of "://". Invalid UTF-8 goes the long way too, so that
// both paths repair it alike.
func canSkipJSON(raw []byte) bool {
	return hints(raw) == 0 &&
		!bytes.Contains(raw, []byte(`\u`)) &&
		!bytes.Contains(raw, []byte(`\/`)) &&
		utf8.Valid(raw)
}

func redactValue(v any) any {
	switch v := v.(type) {
	case string:
		return String(v)
	case []any:
		// An argument list splits "--token x" across two elements, where
		// String cannot see the pair: ["--api-key", "k1"] in an MCP
		// server's args.
		for i, e := range v {
			if i > 0 && secretFlag(v[i-1]) && !isFlag(e) {
				v[i] = Mask
				continue
			}
			v[i] = redactValue(e)
		}
		return v
	case map[string]any:
		for k, e := range v {
			if secretName(k) {
				// The whole value goes, whatever its type: an object under
				// "credentials" is all secret, not just its strings.
				v[k] = Mask
			} else {
				v[k] = redactValue(e)
			}
		}
		return v
	}
	return v // json.Number, bool, nil
}

// secretFlag reports an argument that is a whole flag naming a secret,
// such as "--password"; "--password=x" is String's business.
func secretFlag(e any) bool {
	s, ok := e.(string)
	if !ok || !isFlag(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return secretName(s)
}

// isFlag tells a flag from a value, as the flag form of rule 2 does:
// ["--token", "--verbose"] has no value to mask.
func isFlag(e any) bool {
	s, ok := e.(string)
	return ok && len(s) > 1 && s[0] == '-'
}

// encode marshals without HTML escaping, so that a command such as
// "make 2>&1" stays readable in the audit file instead of turning into
// \u003e\u0026.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// Truncate bounds an audit entry: raw unchanged if it is at most max bytes,
// otherwise a JSON string holding its first bytes and how many were dropped.
// Apply it after JSON, so that what is kept has already been redacted. The
// cut backs off to a rune boundary so the kept text is never a broken
// character. The result is a string rather than cut JSON because cut JSON is
// invalid and would spoil the whole audit line.
func Truncate(raw json.RawMessage, max int) json.RawMessage {
	if len(raw) <= max {
		return raw
	}
	cut := max
	if cut < 0 {
		cut = 0
	}
	// raw[cut] is the first byte dropped; a continuation byte there means a
	// rune straddles the cut. Stepping back at most UTFMax-1 bytes keeps
	// invalid input from eating the whole prefix.
	for cut > 0 && !utf8.RuneStart(raw[cut]) && max-cut < utf8.UTFMax-1 {
		cut--
	}
	s := string(raw[:cut]) + "…(" + strconv.Itoa(len(raw)-cut) + " bytes truncated)"
	out, err := encode(s)
	if err != nil { // unreachable: a string always encodes
		return json.RawMessage(unparseable)
	}
	return out
}

// String masks secrets in free text: shell commands, file contents, URLs.
// Rules, in order:
//
//  1. private key blocks, BEGIN line to END line (or to the end of the text
//     if the END line is missing);
//  2. the value of an assignment, header, option or flag whose name denotes a
//     secret (see JSON for the names), e.g. GITHUB_TOKEN=…, password: …,
//     --token …, "Authorization: Bearer …";
//  3. the credential after an HTTP auth scheme: Bearer, Basic, token;
//  4. well-known token shapes (GitHub, GitLab, npm, PyPI, OpenAI and
//     Anthropic, Stripe, Slack, AWS access key ids, Google API keys, JWTs)
//     wherever they appear, and the secret part of Slack and Discord webhook
//     URLs;
//  5. the password in a URL's user:password@ part;
//  6. the password that redis-cli -a and --pass, sshpass -p, docker (and
//     podman, nerdctl, buildah) login -p, and mysql -pSECRET take.
//
// Names and schemes are kept so the audit still shows what was done.
func String(s string) string {
	h := hints(s)
	if h == 0 {
		return s
	}
	// One pass can leave a secret behind that only shows once its
	// neighbour is masked: a mask ends in ']', so a token glued to the end
	// of another ("AKIA…ghp_…") starts a new word only after the first is
	// masked. Repeating until nothing changes catches it and makes String
	// idempotent by construction. A repeat only happens when something was
	// masked, and it re-runs only the rules whose hints survive.
	for range 4 {
		t := once(s, h)
		if t == s {
			break
		}
		s = t
		if h = hints(s); h == 0 {
			break
		}
	}
	return s
}

// once is one pass of the rules that h allows. Their order barely matters,
// since String repeats until nothing changes; key blocks go first so that
// the other rules do not scan kilobytes of base64.
func once(s string, h uint8) string {
	if h&hintName != 0 {
		if strings.Contains(s, "PRIVATE KEY") {
			s = privateKeyRe.Get().ReplaceAllLiteralString(s, Mask)
		}
		s = maskAssignments(s)
	}
	if h&hintScheme != 0 {
		s = maskSchemes(s)
	}
	if h&hintShape != 0 {
		s = tokenRe.Get().ReplaceAllLiteralString(s, Mask)
	}
	if h&hintHook != 0 {
		s = webhookRe.Get().ReplaceAllString(s, "${1}${2}"+Mask)
	}
	if h&hintURL != 0 {
		s = urlCredRe.Get().ReplaceAllString(s, "${1}:"+Mask+"@")
	}
	if h&hintProg != 0 {
		s = maskPasswordFlags(s, 0)
	}
	return s
}

// Regular expressions are compiled on first use: most hook calls never need
// them, and a process that only answers one hook should not pay for all.
var (
	// The label between BEGIN and PRIVATE KEY varies (RSA, EC, OPENSSH,
	// ENCRYPTED, PGP … BLOCK). A block cut short by truncation upstream
	// is masked to the end of the text rather than left readable.
	privateKeyRe = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|$)`)
	}}
	// Scheme names are case-insensitive in HTTP, but spelt out in ASCII
	// here: (?i) would also fold in 'ſ' and the Kelvin sign, which the
	// fast path does not look for. The credential must start with a
	// letter or digit so that "Basic /usr/share" and the mask itself are
	// not taken for one.
	schemeRe = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc]|[Tt][Oo][Kk][Ee][Nn])[ \t]+([A-Za-z0-9][A-Za-z0-9._~+/=-]{7,})`)
	}}
	// \b keeps "task-…" and "disk-…" from reading as sk- keys and
	// "weighs_…" as a ghs_ token.
	tokenRe = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:` +
			`gh[pousr]_[A-Za-z0-9]{20,}` +
			`|github_pat_[A-Za-z0-9_]{20,}` +
			`|sk-[A-Za-z0-9_-]{16,}` +
			`|xox[abposr]-[A-Za-z0-9-]{10,}` +
			`|glpat-[A-Za-z0-9_-]{20,}` +
			`|npm_[A-Za-z0-9]{36}\b` +
			`|pypi-AgE[A-Za-z0-9_-]{50,}` +
			`|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}` +
			`|A(?:KIA|SIA)[0-9A-Z]{16}` +
			`|AIza[0-9A-Za-z_-]{35}` +
			`|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}` +
			`)`)
	}}
	// A webhook URL is its own secret: the host and kind stay, to show
	// what was called.
	webhookRe = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/-]{8,}` +
			`|(discord(?:app)?\.com/api/webhooks/)[0-9]+/[A-Za-z0-9_-]{16,}`)
	}}
	// The password part runs to the last '@' before the host, so an
	// unencoded '@' inside a password is masked too.
	urlCredRe = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*):([^\s/?#]+)@`)
	}}
)

// maskSchemes applies rule 3. A scheme word alone is not enough: "token
// validation" and "Basic authentication" are prose. Real credentials are
// random, so a value must look random (see credentialLike).
func maskSchemes(s string) string {
	ms := schemeRe.Get().FindAllStringSubmatchIndex(s, -1)
	var b []byte
	copied := 0
	for _, m := range ms {
		vs, ve := m[2], m[3]
		if !credentialLike(s[vs:ve]) {
			continue
		}
		b = append(b, s[copied:vs]...)
		b = append(b, Mask...)
		copied = ve
	}
	if b == nil {
		return s
	}
	return string(append(b, s[copied:]...))
}

// credentialLike tells a random credential from an English word or a
// snake_case name: it has a digit, a capital after the first letter, or
// base64's '+' or '='. A random 8-character base64 string fails this about
// once in 500; longer ones practically never.
func credentialLike(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9', c == '+', c == '=':
			return true
		case i > 0 && c >= 'A' && c <= 'Z':
			return true
		}
	}
	return false
}

// secretSuffixes are matched against the end of a normalised name, so that
// prefixes (GITHUB_, client_, x-api-) need no listing. Plurals are left out
// on purpose: "max_tokens" and "input_tokens" are counts, not secrets.
var secretSuffixes = [...]string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"accesskey", "privatekey", "credential", "credentials",
	"authorization", "cookie", "sessionid",
	"sshpass", "rediscliauth", // the environment forms of sshpass -p and redis-cli -a
}

// secretName reports whether a key, variable, header or flag name denotes a
// secret. Case and '-'/'_' are ignored because the same name is spelt
// API_KEY, api-key and apiKey depending on where it appears.
func secretName(name string) bool {
	var buf [len("authorization")]byte // the longest suffix
	n := 0
	for i := len(name) - 1; i >= 0 && n < len(buf); i-- {
		c := name[i]
		if c == '-' || c == '_' {
			continue
		}
		n++
		buf[len(buf)-n] = lower(c)
	}
	tail := buf[len(buf)-n:]
	for _, suf := range secretSuffixes {
		if len(suf) <= n && string(tail[n-len(suf):]) == suf {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Hints say which rules could match; a rule whose hint is absent cannot.
const (
	hintName   = 1 << iota // a word that every secret name contains: rules 1, 2
	hintScheme             // bearer, basic or token: rule 3
	hintShape              // the fixed prefix of a well-known token: rule 4
	hintURL                // "://" with an '@' somewhere after it: rule 5
	hintHook               // a Slack or Discord webhook's host and path: rule 4
	hintProg               // a program that takes a password by a flag: rule 6
)

// hints is the fast path: one pass over the bytes, no allocation. Every
// secret suffix contains one of pass, secret, token, key, credential, auth,
// cookie or session, and the scan matches them the way secretName normalises
// (any case, '-' and '_' skipped), so a name it misses cannot be secret. It
// works on raw JSON too, where it covers the keys as well.
func hints[T string | []byte](s T) (h uint8) {
	urlSettled := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !triggers[c] {
			continue
		}
		switch c {
		// Each look-up below first compares one byte next to c, which
		// rules out nearly every candidate at these common letters.
		case 'g':
			if i+3 < len(s) && s[i+1] == 'h' && isOneOf(s[i+2], "pousr") && s[i+3] == '_' ||
				i+1 < len(s) && s[i+1] == 'i' && hasAt(s, i, "github_pat_") ||
				i+1 < len(s) && s[i+1] == 'l' && hasAt(s, i, "glpat-") {
				h |= hintShape
			}
			if i >= 2 && s[i-1] == 'o' && hasAt(s, i-2, "login") {
				h |= hintProg
			}
		case 's':
			if i+1 < len(s) && s[i+1] == 'k' && hasAt(s, i, "sk-") {
				h |= hintShape
			}
		case 'q':
			if i >= 3 && hasAt(s, i-3, "mysql") {
				h |= hintProg
			}
		case 'p':
			if i >= 1 && s[i-1] == 'n' && hasAt(s, i-1, "npm_") || i+1 < len(s) && s[i+1] == 'y' && hasAt(s, i, "pypi-") {
				h |= hintShape
			}
			if i >= 3 && s[i-1] == 'h' && hasAt(s, i-3, "sshpass") {
				h |= hintProg
			}
		case 'k':
			if i+1 < len(s) && s[i+1] == '_' && i >= 1 && (s[i-1] == 's' || s[i-1] == 'r') &&
				(hasAt(s, i, "k_live_") || hasAt(s, i, "k_test_")) {
				h |= hintShape
			}
			if i >= 3 && s[i-1] == 'o' && (hasAt(s, i-3, "hooks.slack.com/") || i >= 6 && hasAt(s, i-6, "webhooks/")) {
				h |= hintHook
			}
		case 'c':
			if i >= 6 && s[i-1] == '-' && hasAt(s, i-6, "redis-cli") {
				h |= hintProg
			}
		case 'b':
			if i >= 6 && s[i-1] == 'd' && hasAt(s, i-6, "mariadb") {
				h |= hintProg
			}
		case 'x':
			if hasAt(s, i, "xox") {
				h |= hintShape
			}
		case 'A':
			if hasAt(s, i, "AKIA") || hasAt(s, i, "ASIA") || hasAt(s, i, "AIza") {
				h |= hintShape
			}
		case 'e':
			if hasAt(s, i, "eyJ") {
				h |= hintShape
			}
		case ':':
			// One look for '@' settles it: if none follows this "://",
			// none follows a later one. Looking again would be quadratic.
			if !urlSettled && hasAt(s, i, "://") {
				urlSettled = true
				if indexByte(s, i+3, '@') {
					h |= hintURL
				}
			}
		}
		// The keywords. Their first two letters (separators skipped) rule
		// out nearly every candidate before wordAt walks the rest.
		j := i + 1
		for j < len(s) && (s[j] == '-' || s[j] == '_') {
			j++
		}
		if j == len(s) {
			continue
		}
		switch uint16(lower(c))<<8 | uint16(lower(s[j])) {
		case 'p'<<8 | 'a':
			if wordAt(s, i, "pass") {
				h |= hintName
			}
		case 's'<<8 | 'e':
			if wordAt(s, i, "secret") || wordAt(s, i, "session") {
				h |= hintName
			}
		case 't'<<8 | 'o':
			if wordAt(s, i, "token") {
				h |= hintName
				if schemeAt(s, i, "token") {
					h |= hintScheme
				}
			}
		case 'k'<<8 | 'e':
			if wordAt(s, i, "key") {
				h |= hintName
			}
		case 'c'<<8 | 'r', 'c'<<8 | 'o':
			if wordAt(s, i, "credential") || wordAt(s, i, "cookie") {
				h |= hintName
			}
		case 'a'<<8 | 'u':
			if wordAt(s, i, "auth") {
				h |= hintName
			}
		case 'b'<<8 | 'e', 'b'<<8 | 'a':
			if schemeAt(s, i, "bearer") || schemeAt(s, i, "basic") {
				h |= hintScheme
			}
		}
	}
	return h
}

// triggers marks the bytes that can start something hints looks for; most
// bytes of a command are not among them and cost one load.
var triggers = [256]bool{
	'g': true, 'x': true, 'e': true, ':': true, 'q': true, // token shapes, "://", mysql
	'A': true, 'a': true, 'B': true, 'b': true, 'C': true, 'c': true,
	'K': true, 'k': true, 'P': true, 'p': true, 'S': true, 's': true,
	'T': true, 't': true,
}

func hasAt[T string | []byte](s T, i int, p string) bool {
	if len(s)-i < len(p) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if s[i+k] != p[k] {
			return false
		}
	}
	return true
}

// wordAt matches w (lowercase) at i in any case, skipping '-' and '_' after
// its first letter, as secretName's normalisation does.
func wordAt[T string | []byte](s T, i int, w string) bool {
	for k := 0; k < len(w); k++ {
		if k > 0 {
			for i < len(s) && (s[i] == '-' || s[i] == '_') {
				i++
			}
		}
		if i >= len(s) || lower(s[i]) != w[k] {
			return false
		}
		i++
	}
	return true
}

// schemeAt matches what schemeRe needs before the credential: the scheme
// word on its own, then a blank. "GITHUB_TOKEN" names a secret but is no
// scheme, and running the scheme rule for it would double its cost.
func schemeAt[T string | []byte](s T, i int, w string) bool {
	if i > 0 && isWord(s[i-1]) || len(s)-i <= len(w) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if lower(s[i+k]) != w[k] {
			return false
		}
	}
	return isBlank(s[i+len(w)])
}

func isWord(c byte) bool { return isIdent(c) && c != '-' }

func indexByte[T string | []byte](s T, from int, c byte) bool {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func isOneOf(c byte, set string) bool { return strings.IndexByte(set, c) >= 0 }

// isIdent reports a byte of a name: variables, keys, headers and flags all
// fit [A-Za-z0-9_-].
func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// colonBoundary lists what may precede a bare "name:" for it to count as a
// key or header. Without it, "~/.token:/root/.token" in a docker -v would
// mask a path.
func colonBoundary(c byte) bool { return isOneOf(c, " \t\n\r{,(;") }

// shellWordEnd ends an unquoted value after '=' or a flag: the characters
// that end a word in a shell command or a parameter in a URL query.
func shellWordEnd(c byte) bool { return isOneOf(c, " \t\n\r\v\f;&|<>\"'`)") }

// maskAssignments applies rule 2. It is a hand-written scanner rather than a
// regular expression because where a value ends depends on how it was
// introduced: a shell word after '=', the rest of the line after a YAML or
// header colon, the enclosing quotes in -H "Authorization: Bearer x".
func maskAssignments(s string) string {
	var b []byte
	copied := 0
	for i := 0; i < len(s); {
		if !isIdent(s[i]) || i > 0 && isIdent(s[i-1]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isIdent(s[j]) {
			j++
		}
		vs, ve, next, ok := assignment(s, i, j)
		if !ok {
			i = j
			continue
		}
		if vs < ve && s[vs:ve] != Mask {
			b = append(b, s[copied:vs]...)
			b = append(b, Mask...)
			copied = ve
		}
		i = next
	}
	if b == nil {
		return s
	}
	return string(append(b, s[copied:]...))
}

// assignment looks at the name s[i:j] and reports, if it introduces a secret,
// the span of its value [vs, ve) and where scanning resumes.
func assignment(s string, i, j int) (vs, ve, next int, ok bool) {
	name := s[i:j]
	// A quote just before the name either opens a quoted key ("password":)
	// or a string that holds the whole assignment ("API_KEY=a b").
	var open byte
	if i > 0 && isQuote(s[i-1]) {
		open = s[i-1]
	}
	k := j
	quotedKey := false
	switch {
	case k+1 < len(s) && s[k] == '\\' && isQuote(s[k+1]): // {\"password\": …} inside a shell string
		k += 2
		quotedKey = true
	case k < len(s) && isQuote(s[k]):
		k++
		quotedKey = true
	}
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	var form byte
	switch {
	case k+1 < len(s) && s[k] == ':' && s[k+1] == '=': // Go's :=
		form = '='
		k += 2
	case k < len(s) && s[k] == '=':
		if k+1 < len(s) && s[k+1] == '=' { // a comparison, not an assignment
			return 0, 0, 0, false
		}
		form = '='
		k++
	case k < len(s) && s[k] == ':':
		if !quotedKey && open == 0 && i > 0 && !colonBoundary(s[i-1]) {
			return 0, 0, 0, false
		}
		form = ':'
		k++
	default:
		// A flag: --token x. Only a dashed name followed by blanks, at the
		// start of a word, so "the token count" is left alone.
		if quotedKey || name[0] != '-' || k == j || i > 0 && open == 0 && !isOneOf(s[i-1], " \t\n\r") {
			return 0, 0, 0, false
		}
		form = 'f'
	}
	if !secretName(name) {
		return 0, 0, 0, false
	}
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	if k >= len(s) {
		return k, k, k, true
	}
	if open != 0 && !quotedKey && s[k] == open { // "Authorization:" with nothing after it
		return k, k, k, true
	}
	if form == 'f' && s[k] == '-' { // --token --verbose: the flag took no value
		return 0, 0, 0, false
	}
	vs, ve, next = value(s, k, form, open, quotedKey)
	return vs, ve, next, true
}

// value finds the value that starts at p. A quoted value is masked inside its
// quotes, up to the closing quote or, if there is none, to the end of the
// text, since an unterminated quote most likely means truncated input.
func value(s string, p int, form, open byte, quotedKey bool) (vs, ve, next int) {
	if q := s[p]; isQuote(q) || q == '\\' && p+1 < len(s) && isQuote(s[p+1]) {
		if q == '\\' { // \"…\" inside a shell string closes at the next \"
			delim := s[p : p+2]
			vs = p + 2
			if e := strings.Index(s[vs:], delim); e >= 0 {
				return vs, vs + e, vs + e + 2
			}
			return vs, len(s), len(s)
		}
		vs = p + 1
		for e := vs; e < len(s); e++ {
			if s[e] == '\\' && q == '"' {
				e++
				continue
			}
			if s[e] == q {
				return vs, e, e + 1
			}
		}
		return vs, len(s), len(s)
	}
	e := p
	switch {
	case open != 0 && !quotedKey:
		// The assignment sits inside a quoted string: -H "Authorization:
		// Bearer x" or -e "PASSWORD=a b". The value is the rest of it.
		for e < len(s) && s[e] != open && s[e] != '\n' && s[e] != '\r' {
			e++
		}
		if e < len(s) && e > p && s[e-1] == '\\' {
			e--
		}
	case form == ':' && quotedKey:
		// "password": 12345, in JSON or a Python dict.
		for e < len(s) && !isOneOf(s[e], ",}]\n\r") {
			e++
		}
	case form == ':':
		// YAML and HTTP headers: the value is the rest of the line, spaces
		// and all ("Authorization: Bearer x", "password: correct horse").
		for e < len(s) && s[e] != '\n' && s[e] != '\r' {
			e++
		}
	default:
		for e < len(s) && !shellWordEnd(s[e]) {
			e++
		}
	}
	// A mask from an earlier pass holds ']', which ends some of the values
	// above; cutting it open would grow "[REDACTED" into a new mask.
	if m := p + len(Mask); e < m && strings.HasPrefix(s[p:], Mask) {
		e = m
	}
	next = e
	for e > p && isBlank(s[e-1]) {
		e--
	}
	return p, e, next
}
