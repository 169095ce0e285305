//go:build !race

package testrace

// Enabled: built without -race.
const Enabled = false
