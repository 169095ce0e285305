package protocol

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// AsTheAgentReads returns a tool input (JSON) written so that the checks,
// which read with gjson, read what the agent's runtime reads: each lone
// surrogate escape as \ufffd (see loneSurrogatesFixed) and each repeated
// key once, holding its last value (see LastWins). ParseEvent does this to
// the event; a rule's rewrite of the input goes through it too. Text that
// is not JSON comes back as it is.
func AsTheAgentReads(raw []byte) []byte {
	if !gjson.ValidBytes(raw) {
		return raw
	}
	fixed, _ := loneSurrogatesFixed(raw)
	return LastWins(fixed)
}

// loneSurrogatesFixed returns body, valid JSON, with every \u escape of a
// lone UTF-16 surrogate (a high one not followed by an escaped low one, or
// a low one on its own) written as \ufffd, and reports whether it changed
// anything.
//
// The agent reads a lone surrogate as one character of its own: Claude
// Code's JavaScript keeps it, and turns it into U+FFFD when it hands the
// string to the shell or the file system as UTF-8, so "x\ud800\u003b rm"
// runs `x<U+FFFD>; rm`. gjson, which the checks read events with, takes
// any surrogate as the first half of a pair and swallows the escape after
// it: it read that command as `x<U+FFFD> rm`, one command, and the guard
// let the rm through. Written as \ufffd, the text says what the agent
// runs, and gjson reads it so (as encoding/json does either way).
func loneSurrogatesFixed(body []byte) ([]byte, bool) {
	if !bytes.Contains(body, []byte(`\u`)) {
		return body, false
	}
	i := bytes.IndexByte(body, '\\') // escapes pair up from the first backslash
	var out []byte                   // a copy, made at the first lone surrogate
	last := 0                        // body[last:i] is not yet in out
	// In valid JSON a backslash only starts an escape inside a string, so
	// the escapes can be walked without following the strings.
	for i < len(body) {
		if body[i] != '\\' {
			i++
			continue
		}
		if body[i+1] != 'u' {
			i += 2 // \" \\ \/ \b \f \n \r \t
			continue
		}
		r := hex4(body[i+2 : i+6])
		switch {
		case r >= 0xD800 && r <= 0xDBFF && i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' &&
			isLowSurrogate(hex4(body[i+8:i+12])):
			i += 12 // a pair
		case r >= 0xD800 && r <= 0xDFFF:
			out = append(append(out, body[last:i]...), `\ufffd`...)
			i += 6
			last = i
		default:
			i += 6
		}
	}
	if out == nil {
		return body, false
	}
	return append(out, body[last:]...), true
}

func isLowSurrogate(r rune) bool { return r >= 0xDC00 && r <= 0xDFFF }

// hex4 reads four hex digits (valid JSON has them after \u).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
