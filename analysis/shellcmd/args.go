package shellcmd

import (
	"strings"
)

// nameOnly says whether program is one that handles the names it is given without
// reading what is in the files: printing a name, listing, testing, moving
// the shell around, declaring variables. Every other program that this
// package does not know may read any file it names (see argumentReads).
//
// source and . run a file in the shell without printing it; what the
// script then prints is not seen here.
func nameOnly(program string) bool {
	switch program {
	case "echo", "printf", "ls", "stat", "test", "[",
		"basename", "dirname", "realpath", "readlink", "which",
		"type", "command", "hash", "du", "true", "false",
		"cd", "pushd", "popd", "exit", "return",
		"source", ".", "set", "shopt", "unset",
		"export", "declare", "local", "readonly", "typeset",
		"alias", "unalias", "sleep", "wait", "kill",
		"mktemp", "date", "pwd", "whoami", "id", "env":
		return true
	}
	return false
}

// argumentReads lists what a program this package does not know may read:
// every argument that is not an option, and the paths hidden in the forms
// programs take file names in: --opt=PATH, @PATH (curl-style "read this
// file"), REV:PATH (git show HEAD:.env) and KEY=PATH (dd-style). Whether a
// candidate names a protected file is the guard's business; most name
// nothing at all.
func argumentReads(args []Word) []Effect {
	var out []Effect
	add := func(a Word, s string) {
		if s != "" {
			out = append(out, Effect{Op: Read, Path: part(a, s)})
		}
	}
	for _, a := range args {
		v := a.Value
		if !a.Known {
			out = append(out, Effect{Op: Read, Path: a})
			continue
		}
		if strings.HasPrefix(v, "-") {
			if _, val, ok := strings.Cut(v, "="); ok {
				add(a, strings.TrimPrefix(val, "@"))
			}
			continue
		}
		add(a, v)
		if rest, ok := strings.CutPrefix(v, "@"); ok {
			add(a, rest)
		}
		if _, rest, ok := strings.Cut(v, ":"); ok && !strings.Contains(v, "://") {
			add(a, rest)
			if len(rest) > 2 && rest[0] >= '0' && rest[0] <= '3' && rest[1] == ':' && v[0] == ':' {
				add(a, rest[2:]) // git's :N:path, the index's stage N of path
			}
		}
		if _, rest, ok := strings.Cut(v, "="); ok {
			add(a, strings.TrimPrefix(rest, "@"))
		}
	}
	return out
}
