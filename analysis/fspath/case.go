package fspath

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// CaseInsensitive reports whether dir matches names regardless of case,
// as macOS's and Windows' usual filesystems, FAT and exFAT, and Linux
// casefold folders do: there .ENV names the file .env. It asks each folder
// once per process (a lookup or two), and answers false for a folder it
// cannot read.
func CaseInsensitive(dir string) bool { return caseInsensitive(dir, "") }

// caseInsensitive is CaseInsensitive, told a name known to be in dir
// ("" if none), which spares the probe a read of the folder.
func caseInsensitive(dir, known string) bool {
	caseMu.Lock()
	probe, gen := caseProbe, caseGen
	v, ok := caseCache[dir]
	caseMu.Unlock()
	if ok {
		return v
	}
	v = probe(dir, known)
	caseMu.Lock()
	if gen == caseGen {
		if caseCache == nil {
			caseCache = map[string]bool{}
		}
		caseCache[dir] = v
	}
	caseMu.Unlock()
	return v
}

var (
	caseMu    sync.Mutex
	caseProbe = probeCase
	caseCache map[string]bool // made on the first answer: no init code
	caseGen   int             // counts SetCaseProbe calls: an answer from an older probe is not kept
)

// SetCaseProbe replaces how CaseInsensitive decides, and forgets what it
// knew, so that a test on a case-sensitive system can take the
// case-insensitive path; the returned function puts the real probe back.
func SetCaseProbe(probe func(dir string) bool) (restore func()) {
	set := func(p func(dir, known string) bool) {
		caseMu.Lock()
		defer caseMu.Unlock()
		caseProbe, caseCache = p, nil
		caseGen++
	}
	set(func(dir, _ string) bool { return probe(dir) })
	return func() { set(probeCase) }
}

// probeCase looks a name up in dir with its case flipped: not found is
// case-sensitive; the same file is case-insensitive. A different file is
// either a real twin (Name and NAME side by side, so case-sensitive) or a
// filesystem that numbers one file differently under each spelling (FUSE
// exFAT does): the folder's listing tells them apart. A folder with no name
// in it to flip is asked through its own name, in its parent.
func probeCase(dir, known string) bool {
	if !hasCase(known) {
		known = flippableEntry(dir)
	}
	if name := known; name != "" {
		return sameUnderFlip(dir, name)
	}
	for d := dir; ; d = filepath.Dir(d) {
		parent, base := filepath.Dir(d), filepath.Base(d)
		if parent == d {
			return false
		}
		if hasCase(base) {
			return sameUnderFlip(parent, base)
		}
	}
}

// flippableEntry is a name in dir whose case can flip, "" if the first
// flipScan have none.
func flippableEntry(dir string) string { return firstEntry(dir, flipScan, hasCase) }

// flipScan is how many of a folder's names flippableEntry looks at.
const flipScan = 16

// sameUnderFlip reports whether name, found in dir, is found again with
// its case flipped, as the same entry.
func sameUnderFlip(dir, name string) bool {
	flipped := flipCase(name)
	other, err := os.Lstat(filepath.Join(dir, flipped))
	if err != nil {
		return false
	}
	orig, err := os.Lstat(filepath.Join(dir, name))
	if err != nil {
		return false
	}
	if os.SameFile(orig, other) {
		return true
	}
	// Two different files, or one numbered twice: twins are both listed.
	return !listsBoth(dir, name, flipped)
}

// listsBoth reports whether dir's listing has both names, spelled exactly.
func listsBoth(dir, a, b string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return true // cannot tell: say case-sensitive, as for an unreadable folder
	}
	defer f.Close()
	seenA, seenB := false, false
	for {
		names, err := f.Readdirnames(256)
		for _, n := range names {
			seenA, seenB = seenA || n == a, seenB || n == b
		}
		if seenA && seenB {
			return true
		}
		if err != nil || len(names) == 0 {
			return false
		}
	}
}

// hasCase reports whether s has a letter whose case can flip.
func hasCase(s string) bool { return flipCase(s) != s }

// flipCase swaps the case of every letter of s. Bytes that are not UTF-8
// stay as they are: a name holding one is still that name with its
// letters flipped, and one with no letter has no case to flip (as
// strings.Map would have it, "\xff" became "\ufffd", a name that
// differs, and a probe of it found nothing on a folder that ignores
// case).
func flipCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteByte(s[i])
		case unicode.IsUpper(r):
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLower(r):
			b.WriteRune(unicode.ToUpper(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
