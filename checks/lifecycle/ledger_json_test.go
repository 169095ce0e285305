package lifecycle

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/massgen/massgen-hook/scratchpad"
)

func sampleLedgers() []ledger {
	full := &subagent{Type: "spec-writer", Dir: "spec-writer", Day: "2026-11-20",
		Start:       &scratchpad.Stamp{Exists: true, Size: 120, ModTime: 1763632800123456789, Hash: "ab12"},
		Coordinator: scratchpad.Stamp{Exists: true, Size: -1, ModTime: -5},
		Exempt:      true, Outcome: outcomeReleased, Skipped: "the <Unresolved> section & \"more\"", Logged: true}
	return []ledger{
		{},
		{Agents: map[string]*subagent{}},
		{Agents: map[string]*subagent{"a1": {}}},
		{Agents: map[string]*subagent{"a1": full, "a0": {Type: "x\n\ty", Coordinator: scratchpad.Stamp{Hash: "é\u2028"}}, "é/\"q\"": {Day: "\xff"}}},
		{Agents: map[string]*subagent{"nil": nil}},
	}
}

// TestLedgerJSONIsEncodingJSONs: MarshalJSON writes what json.Marshal
// writes of the plain type, and what it writes reads back, by the fast
// path when the text needs no escapes.
func TestLedgerJSONIsEncodingJSONs(t *testing.T) {
	for i, l := range sampleLedgers() {
		want, err := json.Marshal(plainLedger(l))
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.MarshalJSON()
		if err != nil || string(got) != string(want) {
			t.Errorf("ledger %d: MarshalJSON\n%s (%v)\nwant\n%s", i, got, err, want)
		}
		checkLedgerRead(t, got)
	}
	plain, _ := sampleLedgers()[3].Agents["a1"], 0
	data, _ := json.Marshal(ledger{Agents: map[string]*subagent{"a1": {Type: plain.Type, Start: plain.Start, Outcome: "done", Logged: true}}})
	if _, ok := readLedgerFast(data); !ok {
		t.Errorf("the fast path refused the plain form it writes: %s", data)
	}
	spaced := []byte(" {\n \"agents\" : { \"a1\" : { \"logged\" : true , \"type\":\"t\", \"start\":{\"size\": 0, \"exists\":false}}}} ")
	if _, ok := readLedgerFast(spaced); !ok {
		t.Errorf("the fast path refused a spaced-out plain form: %s", spaced)
	}
}

// TestLedgerReadIsEncodingJSONs: UnmarshalJSON reads what json.Unmarshal
// reads of the plain type, and fails where it fails, on forms the fast
// path must leave to it.
func TestLedgerReadIsEncodingJSONs(t *testing.T) {
	for _, s := range ledgerReadSeeds {
		checkLedgerRead(t, []byte(s))
	}
}

var ledgerReadSeeds = []string{
	`{}`, `null`, `[]`, `""`, `{"agents":null}`, `{"agents":{}}`, `{"agents":{"a":null}}`,
	`{"Agents":{"a":{"Type":"x"}}}`, `{"agents":{"a":{"type":"x"}},"agents":{"b":{"dir":"y"}}}`,
	`{"agents":{"a":{"type":"x"},"a":{"dir":"y"}}}`, `{"agents":{"a":{"start":{"size":1},"start":{"hash":"h"}}}}`,
	`{"agents":{"a":{"type":"x","type":"y"}}}`, `{"agents":{"a":{"type":"\u00e9\n"}}}`, `{"agents":{"\u0061":{}}}`,
	`{"agents":{"a":{"start":{"size":1.0}}}}`, `{"agents":{"a":{"start":{"size":1e3}}}}`,
	`{"agents":{"a":{"start":{"size":99999999999999999999}}}}`, `{"agents":{"a":{"start":{"size":-0}}}}`,
	`{"agents":{"a":{"exempt":"true"}}}`, `{"agents":{"a":{"type":5}}}`, `{"agents":{"a":{"start":null}}}`,
	`{"agents":{"a":{"extra":[1,2],"type":"t"}},"other":1}`, `{"agents":{"a":{"type":"t"}}`, `{"agents":{"a":{"type":"t"}}} x`,
	"{\"agents\":{\"a\":{\"type\":\"\xff\"}}}", `{"agents":{"a":{"coordinator":{"exists":true,"mtime_ns":-12,"hash":"h"},"outcome":"done","logged":false}}}`,
}

func FuzzLedgerRead(f *testing.F) {
	for _, s := range ledgerReadSeeds {
		f.Add(s)
	}
	for _, l := range sampleLedgers() {
		b, _ := l.MarshalJSON()
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) { checkLedgerRead(t, []byte(s)) })
}

func checkLedgerRead(t *testing.T, data []byte) {
	t.Helper()
	var want plainLedger
	wantErr := json.Unmarshal(data, &want)
	var got ledger
	gotErr := json.Unmarshal(data, &got)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(ledger(want), got) {
		t.Fatalf("%q: read %+v, want %+v", data, got, want)
	}
}
