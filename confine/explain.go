package confine

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Stop is a path the sandbox kept a command from: masked (a protected
// file, unreadable) or read-only (outside the writable places, or one of
// the guards' own files).
type Stop struct {
	Path   string
	Masked bool
	// Guard is true for the guards' own files, which no setting makes
	// writable.
	Guard bool
}

// refusals are the error texts of a write or read the sandbox refused, in
// the forms the usual programs print them (bash, coreutils, git, Go,
// Python): EROFS, EACCES, EPERM.
var refusals = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)read-only file system|permission denied|operation not permitted|errno 30|errno 13`)
}}

// pathWords are the words of an error line that may name a path: quoted,
// or between colons and spaces.
var pathWords = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`'([^']+)'|"([^"]+)"|‘([^’]+)’|([^\s:'"‘’()\[\],]+)`)
}}

// programPrefix is the program's name an error line starts with
// ("/bin/bash: line 1: ", "cat: "): not a path the command touched.
var programPrefix = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^[^\s:]+: (line \d+: )?`) }}

// Stops reads a command's output for refusals and says which of the paths
// they name the sandbox stopped, judged against the plan: cwd resolves
// relative paths. Each path is said once.
func (pl Plan) Stops(output, cwd string) []Stop {
	var out []Stop
	seen := map[string]bool{}
	for _, line := range strings.Split(output, "\n") {
		if !refusals.Get().MatchString(line) {
			continue
		}
		line = programPrefix.Get().ReplaceAllString(line, "")
		for _, m := range pathWords.Get().FindAllStringSubmatch(line, -1) {
			word := firstNonEmpty(m[1:])
			if !strings.ContainsRune(word, '/') && !strings.HasPrefix(word, ".") {
				continue
			}
			p := word
			if !filepath.IsAbs(p) {
				p = filepath.Join(cwd, p)
			}
			p = filepath.Clean(p)
			if seen[p] {
				continue
			}
			if s, ok := pl.stopAt(p); ok {
				seen[p] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// stopAt says whether the plan stops an access to p.
func (pl Plan) stopAt(p string) (Stop, bool) {
	under := func(list []string) bool {
		return slices.ContainsFunc(list, func(d string) bool { return within(d, p) })
	}
	switch {
	case slices.Contains(pl.MaskFiles, p) || under(pl.MaskDirs):
		return Stop{Path: p, Masked: true}, true
	case under(pl.ReadOnly):
		return Stop{Path: p, Guard: true}, true
	case !under(pl.Writable) && p != "/dev/null":
		return Stop{Path: p}, true
	}
	return Stop{}, false
}

func firstNonEmpty(s []string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// Explain is what the agent is told of the stops: which path, and why,
// and that the user can widen confine.writable where that is the way. It
// never says how to get around the sandbox.
func Explain(stops []Stop, configFile string) string {
	if len(stops) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("massgen-hook: the sandbox this command ran in stopped it (this is not a bug in the command):")
	widen := false
	for _, s := range stops {
		switch {
		case s.Masked:
			fmt.Fprintf(&b, "\n- %s is a protected file (a secret): it cannot be read or changed by any command here.", s.Path)
		case s.Guard:
			fmt.Fprintf(&b, "\n- %s belongs to the hooks' own files, which are read-only.", s.Path)
		default:
			widen = true
			fmt.Fprintf(&b, "\n- %s is read-only here: commands write only in the project, the temporary folders and the build caches.", s.Path)
		}
	}
	if widen {
		fmt.Fprintf(&b, "\nIf the task needs to write there, ask the user to add that folder to confine.writable in %s.", configFile)
	}
	return b.String()
}
