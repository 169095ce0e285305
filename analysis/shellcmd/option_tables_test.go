package shellcmd

import "testing"

// Each list of option tables names each table once (a map literal could
// not say a key twice; a list can), and get finds every one of them, and
// nothing else.
func TestOptionTablesNameEachOnce(t *testing.T) {
	for name, ts := range map[string]optionTables{"git": gitOptions, "readers": readerOptions,
		"wrappers": wrapperOptions, "copiers": copyOptions, "package runners": packageRunnerOptions} {
		seen := map[string]bool{}
		for _, n := range ts {
			if seen[n.name] {
				t.Errorf("%s: %q is listed twice", name, n.name)
			}
			seen[n.name] = true
			if n.table == nil || ts.get(n.name) != n.table {
				t.Errorf("%s: get(%q) is not its table", name, n.name)
			}
		}
		if ts.get("no-such-command") != nil {
			t.Errorf("%s: get of an unknown name is not nil", name)
		}
	}
}
