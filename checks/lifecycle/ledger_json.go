package lifecycle

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/internal/jsonw"
	"github.com/massgen/massgen-hook/scratchpad"
)

// The ledger is read by nearly every lifecycle hook and written by most,
// each a process of its own: encoding/json would build its decoder and
// encoder for the ledger's types by reflection in each (160,000
// instructions, more than the rest of a subagent-stop's own work). The
// ledger reads and writes itself instead, as Marshal and Unmarshal would
// (tests and fuzzing hold them equal).

// plainLedger is ledger without these methods: encoding/json's reading.
type plainLedger ledger

// MarshalJSON writes l as json.Marshal writes plainLedger.
func (l ledger) MarshalJSON() ([]byte, error) {
	if l.Agents == nil {
		return []byte(`{"agents":null}`), nil
	}
	b := make([]byte, 0, 64+256*len(l.Agents))
	b = append(b, `{"agents":{`...)
	for i, id := range slices.Sorted(maps.Keys(l.Agents)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonw.String(b, id), ':')
		s := l.Agents[id]
		if s == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, `{"type":`...)
		b = jsonw.String(b, s.Type)
		b = jsonw.String(append(b, `,"dir":`...), s.Dir)
		b = jsonw.String(append(b, `,"day":`...), s.Day)
		if s.Start != nil {
			b = appendStamp(append(b, `,"start":`...), *s.Start)
		}
		b = appendStamp(append(b, `,"coordinator":`...), s.Coordinator)
		if s.Exempt {
			b = append(b, `,"exempt":true`...)
		}
		if s.Outcome != "" {
			b = jsonw.String(append(b, `,"outcome":`...), s.Outcome)
		}
		if s.Skipped != "" {
			b = jsonw.String(append(b, `,"skipped":`...), s.Skipped)
		}
		if s.Logged {
			b = append(b, `,"logged":true`...)
		}
		b = append(b, '}')
	}
	return append(b, "}}"...), nil
}

func appendStamp(b []byte, s scratchpad.Stamp) []byte {
	b = jsonw.Bool(append(b, `{"exists":`...), s.Exists)
	if s.Size != 0 {
		b = jsonw.Int(append(b, `,"size":`...), s.Size)
	}
	if s.ModTime != 0 {
		b = jsonw.Int(append(b, `,"mtime_ns":`...), s.ModTime)
	}
	if s.Hash != "" {
		b = jsonw.String(append(b, `,"hash":`...), s.Hash)
	}
	return append(b, '}')
}

// UnmarshalJSON reads a ledger in the form MarshalJSON writes (any
// spacing and field order): every key spelt as written, once, every value
// of its field's type, strings without escapes. Anything else goes to
// encoding/json, which decides it as it always has (case-folded keys,
// nulls, escapes, errors), and so does a ledger that holds agents already
// (Unmarshal adds to them).
func (l *ledger) UnmarshalJSON(data []byte) error {
	if fast, ok := readLedgerFast(data); ok && l.Agents == nil {
		*l = fast
		return nil
	}
	return json.Unmarshal(data, (*plainLedger)(l))
}

// readLedgerFast is data as a ledger, when it is in the plain form.
func readLedgerFast(data []byte) (ledger, bool) {
	var l ledger
	if !gjson.ValidBytes(data) {
		return l, false
	}
	root := gjson.ParseBytes(data)
	ok := root.IsObject()
	seenAgents := false
	root.ForEach(func(k, v gjson.Result) bool {
		if k.Raw != `"agents"` || seenAgents || !v.IsObject() {
			ok = false
			return false
		}
		seenAgents = true
		l.Agents = map[string]*subagent{}
		v.ForEach(func(id, a gjson.Result) bool {
			s, fine := readSubagentFast(a)
			if !plainString(id) || !fine {
				ok = false
				return false
			}
			if _, dup := l.Agents[id.Str]; dup {
				ok = false
				return false
			}
			l.Agents[id.Str] = s
			return true
		})
		return ok
	})
	return l, ok
}

// subagentKeys are a subagent's keys as MarshalJSON writes them.
var subagentKeys = [...]string{`"type"`, `"dir"`, `"day"`, `"start"`, `"coordinator"`, `"exempt"`, `"outcome"`, `"skipped"`, `"logged"`}

// stampKeys are a Stamp's keys as appendStamp writes them.
var stampKeys = [...]string{`"exists"`, `"size"`, `"mtime_ns"`, `"hash"`}

func readSubagentFast(v gjson.Result) (*subagent, bool) {
	if !v.IsObject() {
		return nil, false
	}
	s := &subagent{}
	var seen [len(subagentKeys)]bool
	ok := true
	v.ForEach(func(k, f gjson.Result) bool {
		i := slices.Index(subagentKeys[:], k.Raw)
		if i < 0 || seen[i] {
			ok = false
			return false
		}
		seen[i] = true
		name := subagentKeys[i][1 : len(subagentKeys[i])-1]
		switch name {
		case "type":
			ok = readString(f, &s.Type)
		case "dir":
			ok = readString(f, &s.Dir)
		case "day":
			ok = readString(f, &s.Day)
		case "outcome":
			ok = readString(f, &s.Outcome)
		case "skipped":
			ok = readString(f, &s.Skipped)
		case "exempt":
			ok = readBool(f, &s.Exempt)
		case "logged":
			ok = readBool(f, &s.Logged)
		case "start":
			var st scratchpad.Stamp
			if ok = readStampFast(f, &st); ok {
				s.Start = &st
			}
		case "coordinator":
			ok = readStampFast(f, &s.Coordinator)
		}
		return ok
	})
	return s, ok
}

func readStampFast(v gjson.Result, st *scratchpad.Stamp) bool {
	if !v.IsObject() {
		return false
	}
	var seen [len(stampKeys)]bool
	ok := true
	v.ForEach(func(k, f gjson.Result) bool {
		i := slices.Index(stampKeys[:], k.Raw)
		if i < 0 || seen[i] {
			ok = false
			return false
		}
		seen[i] = true
		switch i {
		case 0:
			ok = readBool(f, &st.Exists)
		case 1:
			ok = readInt(f, &st.Size)
		case 2:
			ok = readInt(f, &st.ModTime)
		case 3:
			ok = readString(f, &st.Hash)
		}
		return ok
	})
	return ok
}

// plainString reports whether r is a JSON string with no escapes and
// valid UTF-8: its text is then the bytes between its quotes, as
// encoding/json would read it.
func plainString(r gjson.Result) bool {
	return r.Type == gjson.String && len(r.Raw) >= 2 && r.Raw[0] == '"' &&
		!strings.ContainsRune(r.Raw, '\\') && utf8.ValidString(r.Raw) && r.Str == r.Raw[1:len(r.Raw)-1]
}

func readString(r gjson.Result, s *string) bool {
	if !plainString(r) {
		return false
	}
	*s = r.Str
	return true
}

func readBool(r gjson.Result, b *bool) bool {
	if r.Type != gjson.True && r.Type != gjson.False {
		return false
	}
	*b = r.Type == gjson.True
	return true
}

// readInt reads an integer written without fraction or exponent, in
// range (ParseInt refuses the others, as Unmarshal does into an int64).
func readInt(r gjson.Result, n *int64) bool {
	if r.Type != gjson.Number {
		return false
	}
	v, err := strconv.ParseInt(r.Raw, 10, 64)
	if err != nil {
		return false
	}
	*n = v
	return true
}
