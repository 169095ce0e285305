//go:build race

package testrace

// Enabled: built with -race.
const Enabled = true
