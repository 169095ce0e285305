package shellcmd

// Op is what a command does to a path.
type Op uint8

const (
	// Read shows the file's content to whoever runs the command, or sends
	// it on: printed, uploaded (curl -d @f), copied or moved elsewhere.
	Read Op = iota + 1
	// Write creates the file or changes its content.
	Write
	// Delete removes the name: rm, unlink, mv's source. A symlink named
	// without a trailing slash is removed itself, not its target.
	Delete
	// Move takes the name away, the content going on under another name
	// (mv's source): the name is gone as for Delete, but nothing is
	// destroyed.
	Move
	// Meta changes the file's mode, owner or times (chmod, chown, touch).
	Meta
	// Link gives the file another name (ln's source): whatever is later
	// done through the new name is done to it.
	Link
)

func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	case Delete:
		return "delete"
	case Move:
		return "move"
	case Meta:
		return "meta"
	case Link:
		return "link"
	}
	return "?"
}

// Effect is one thing a command does to one path.
type Effect struct {
	Op   Op
	Path Word
	// Tree: the effect reaches everything below Path too (rm -r, chmod -R,
	// cp -r's source, find -delete's starting points).
	Tree bool
	// Select, on a Tree read of a searcher or archiver, says which of the
	// files below Path it reads; nil elsewhere.
	Select *Selection
}

// effects says what one command does to files, given its arguments. Each
// lives in the file named for the command or its family.
type effects func(c *Command) []Effect

// commandEffects maps a program's name to what it does to files: the one
// place to look up how massgen-hook reads a command.
//
//	rm.go:      rm, rmdir, unlink, shred
//	writers.go: tee, touch, mkdir, truncate
//	copy.go:    cp, mv, install, rsync, scp, ln
//	modes.go:   chmod, chown, chgrp
//	edit.go:    sed, gsed, perl, awk (and gawk, mawk, nawk)
//	readers.go: cat, tac, head, tail, less, more, bat, nl, base64, od,
//	            hexdump, strings, diff, xxd
//	search.go:  grep, egrep, fgrep, rg, ag (what each reads below a
//	            folder: selection.go)
//	archive.go: tar, zip
//	rewriters.go: sort -o, uniq, patch, sponge, editors (ex, ed, vi,
//	            vim, nvim, nano, emacs), mkfifo, mknod, gzip and the
//	            other compressors, unzip
//	dd.go:      dd
//	net.go:     curl, wget
//	find.go:    find (its -exec commands are listed as commands of their own)
//	git_effects.go: git rm, mv, checkout, restore, and what the others
//	            may print (the subcommands' tables are in git.go)
//
// A switch rather than a map: compiled into the binary, it costs nothing
// to build in a process that judges one command.
func commandEffects(name string) effects {
	switch name {
	case "rm":
		return rmEffects
	case "rmdir":
		return rmdirEffects
	case "unlink":
		return unlinkEffects
	case "shred":
		return shredEffects
	case "tee":
		return teeEffects
	case "touch":
		return touchEffects
	case "mkdir":
		return mkdirEffects
	case "truncate":
		return truncateEffects
	case "cp", "install", "rsync", "scp":
		return copyEffects
	case "mv":
		return mvEffects
	case "ln":
		return lnEffects
	case "make", "gmake":
		return makeEffects
	case "chmod":
		return chmodEffects
	case "chown", "chgrp":
		return chownEffects
	case "sed", "gsed":
		return sedEffects
	case "perl":
		return perlEffects
	case "source", ".":
		return sourceEffects
	case "awk", "gawk", "mawk", "nawk":
		return awkEffects
	case "cat", "tac", "head", "tail", "nl", "od", "hexdump", "strings":
		return readerEffects
	case "less", "more", "bat", "batcat":
		return pagerEffects
	case "base64":
		return base64Effects
	case "diff":
		return diffEffects
	case "xxd":
		return xxdEffects
	case "grep", "egrep", "fgrep":
		return grepEffects
	case "rg":
		return rgEffects
	case "ag":
		return agEffects
	case "tar":
		return tarEffects
	case "zip":
		return zipEffects
	case "unzip":
		return unzipEffects
	case "sort":
		return sortEffects
	case "uniq":
		return uniqEffects
	case "patch":
		return patchEffects
	case "sponge", "ex", "ed", "vi", "vim", "nvim", "nano", "emacs":
		return editorEffects
	case "mkfifo", "mknod":
		return makeNodeEffects
	case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd":
		return compressEffects
	case "rgrep":
		return rgrepEffects
	case "dd":
		return ddEffects
	case "curl":
		return curlEffects
	case "wget":
		return wgetEffects
	case "find":
		return findEffects
	case "git":
		return gitEffects
	case "ssh":
		return sshEffects
	}
	if IsGit(name) {
		return gitEffects // git-add: git add
	}
	return nil
}

// Effects lists what the command does to files: its redirections first
// (a writing redirection writes its target, < and <> read theirs), then
// what the program does to its operands, as its file in this package
// says. A program not listed here may read whatever its arguments name
// (argumentReads), unless it handles names only (nameOnly); a program
// whose name is not known may also delete them (unknownEffects). What the
// program an interpreter is given does to files comes from its scan
// (Code.Scan). A path whose value is not known is listed with Known false
// rather than dropped; a "-" meaning stdin or stdout is left out.
func (c *Command) Effects() []Effect {
	var out []Effect
	for _, r := range c.Redirects {
		if r.reads() {
			out = append(out, Effect{Op: Read, Path: r.Target})
		}
		if r.writes() {
			out = append(out, Effect{Op: Write, Path: r.Target})
		}
	}
	var own []Effect
	switch base := c.Base(); {
	case !c.Name.Known && c.Name.Raw != "":
		own = unknownEffects(c)
	case commandEffects(base) != nil:
		own = commandEffects(base)(c)
	case !nameOnly(base) && c.Name.Known:
		own = argumentReads(c.Args)
	}
	for _, e := range own {
		if e.Path.Known && e.Path.Value == "-" && e.Op != Delete {
			continue
		}
		if e.Path.Below {
			// find's {}: every file below the starting point.
			e.Tree = true
			if e.Op == Read && e.Select == nil {
				e.Select = &Selection{Reader: "find -exec", Hidden: true, Ignored: true, Untracked: true}
			}
		}
		out = append(out, e)
	}
	if c.Code != nil && c.Code.Scan != nil {
		out = append(out, c.Code.Scan.Effects...)
	}
	return out
}

// unknownEffects are what a program whose name is only known at run time
// ($CMD, "$(which x)") could do: the worst of what it could be, so every
// operand is taken as deleted (as a tree) and read. `$X -rf /` and `$X
// .env` are judged as rm -rf / and cat .env; `$CC -o out main.c` passes.
func unknownEffects(c *Command) []Effect {
	var out []Effect
	for _, a := range c.Args {
		if a.IsFlag() || (a.Known && a.Value == "--") {
			continue
		}
		out = append(out, Effect{Op: Delete, Path: a, Tree: true})
	}
	return append(out, argumentReads(c.Args)...)
}

// Writes returns the paths the command writes, deletes, moves or changes
// the mode of: its effects other than Read and Link.
func (c *Command) Writes() []Word {
	var out []Word
	for _, e := range c.Effects() {
		if e.Op != Read && e.Op != Link {
			out = append(out, e.Path)
		}
	}
	return out
}

// Reads returns the paths whose content the command reads: its Read
// effects.
func (c *Command) Reads() []Word {
	var out []Word
	for _, e := range c.Effects() {
		if e.Op == Read {
			out = append(out, e.Path)
		}
	}
	return out
}

// all gives each of ws the same op.
func all(op Op, tree bool, ws []Word) []Effect {
	out := make([]Effect, 0, len(ws))
	for _, w := range ws {
		out = append(out, Effect{Op: op, Path: w, Tree: tree})
	}
	return out
}
