package doctor

import (
	"encoding/json"
	"fmt"
	"math"
)

// CheckTimeout checks a handler's "timeout", given as its JSON text.
// Claude Code's timeouts are in seconds.
func CheckTimeout(raw string) []Issue {
	var v float64
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return []Issue{problem(fmt.Sprintf("must be a number of seconds, got %s; write a number like 10", raw))}
	}
	switch {
	case v <= 0:
		return []Issue{problem(fmt.Sprintf("must be more than 0 seconds, got %s; write a number like 10, or leave it out for the default (600)", raw))}
	case v >= 1000:
		secs := math.Max(1, math.Round(v/1000))
		return []Issue{problem(fmt.Sprintf("looks like milliseconds: %s s is %s; Claude Code's timeout is in seconds: write %g", raw, duration(v), secs))}
	}
	return nil
}

// duration says v seconds in minutes or hours.
func duration(v float64) string {
	if m := v / 60; m < 120 {
		return fmt.Sprintf("%.0f min", m)
	}
	return fmt.Sprintf("%.0f h", v/3600)
}
