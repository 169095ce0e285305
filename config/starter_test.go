package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The starter config init writes must load, and say exactly the defaults:
// a starter that drifted from them would change behaviour just by existing.
func TestStarterIsTheDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "massgen-hook.yaml")
	if err := os.WriteFile(path, []byte(Starter), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	got.Path = ""
	if want := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("starter config:\n%+v\ndefaults:\n%+v", got, want)
	}
}
