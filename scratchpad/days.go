package scratchpad

import (
	"strings"
	"time"
)

// DayLayout is the date format of scratchpad file names.
const DayLayout = "2006-01-02"

// FileName is the scratchpad file name for day ("YYYY-MM-DD").
func FileName(day string) string { return day + ".md" }

// Today is the local calendar date of now, as a file-name day.
func Today(now time.Time) string { return now.Local().Format(DayLayout) }

// DayOf returns the day a scratchpad file is for, if name is a valid
// YYYY-MM-DD.md name. Other files in a scratchpad directory are ignored by
// every rule.
func DayOf(name string) (string, bool) {
	day, ok := strings.CutSuffix(name, ".md")
	if !ok || len(day) != len(DayLayout) {
		return "", false
	}
	if _, err := time.Parse(DayLayout, day); err != nil {
		return "", false
	}
	return day, true
}
