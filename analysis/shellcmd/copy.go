package shellcmd

import (
	"path"
	"strings"
)

// Copiers, movers and linkers: GNU coreutils 9, rsync 3 and OpenSSH
// option tables.
var (
	cpOptions = &OptionTable{Short: "abdfiHlLnPpRrsS:t:TuvxZ", Abbrev: true, Permute: true,
		Long: "archive attributes-only backup[=] copy-contents force interactive link dereference " +
			"no-clobber no-dereference preserve[=] no-preserve= parents recursive reflink[=] " +
			"remove-destination sparse= strip-trailing-slashes symbolic-link suffix= target-directory= " +
			"no-target-directory update[=] verbose one-file-system context[=] help version"}
	mvOptions = &OptionTable{Short: "bfinS:t:TuvZ", Abbrev: true, Permute: true,
		Long: "backup[=] exchange force interactive no-clobber no-copy strip-trailing-slashes suffix= " +
			"target-directory= no-target-directory update[=] verbose context help version"}
	lnOptions = &OptionTable{Short: "bdFfiLnPrsS:t:Tv", Abbrev: true, Permute: true,
		Long: "backup[=] directory force interactive logical no-dereference physical relative " +
			"symbolic suffix= target-directory= no-target-directory verbose help version"}
	installOptions = &OptionTable{Short: "bcCdDg:m:o:psS:t:TvZ", Abbrev: true, Permute: true,
		Long: "backup[=] compare debug directory group= mode= owner= preserve-timestamps strip " +
			"strip-program= suffix= target-directory= no-target-directory verbose preserve-context " +
			"context[=] help version"}
	rsyncOptions = &OptionTable{Short: "vqcarRbulLkKHpEAXUNogDtOJSnWxyzhPiFC048e:f:B:T:M:@:", Permute: true,
		Long: "verbose info= debug= stderr= quiet no-motd checksum archive recursive relative " +
			"no-implied-dirs backup backup-dir= suffix= update inplace append append-verify dirs " +
			"mkpath links copy-links copy-unsafe-links safe-links munge-links copy-dirlinks " +
			"keep-dirlinks hard-links perms executability chmod= acls xattrs owner group devices " +
			"copy-devices write-devices specials times atimes crtimes omit-dir-times " +
			"omit-link-times super fake-super sparse preallocate dry-run whole-file " +
			"checksum-choice= one-file-system block-size= rsh= rsync-path= existing " +
			"ignore-existing remove-source-files delete delete-before delete-during delete-delay " +
			"delete-after delete-excluded ignore-missing-args delete-missing-args ignore-errors " +
			"force max-delete= max-size= min-size= max-alloc= partial partial-dir= delay-updates " +
			"prune-empty-dirs numeric-ids usermap= groupmap= chown= timeout= contimeout= " +
			"ignore-times size-only modify-window= temp-dir= fuzzy compare-dest= copy-dest= " +
			"link-dest= compress compress-choice= compress-level= skip-compress= cvs-exclude " +
			"filter= exclude= exclude-from= include= include-from= files-from= from0 old-args " +
			"secluded-args trust-sender copy-as= address= port= sockopts= blocking-io outbuf= " +
			"stats 8-bit-output human-readable progress itemize-changes remote-option= " +
			"out-format= log-file= log-file-format= password-file= early-input= list-only " +
			"bwlimit= stop-after= stop-at= fsync write-batch= only-write-batch= read-batch= " +
			"protocol= iconv= checksum-seed= ipv4 ipv6 version help"}
	scpOptions = &OptionTable{Short: "346ABCOpqRrTvc:D:F:i:J:l:o:P:S:X:", Permute: true}
)

// copyOptions are the tables of the commands that copy their sources to
// a destination.
var copyOptions = optionTables{{"cp", cpOptions}, {"install", installOptions}, {"rsync", rsyncOptions}, {"scp", scpOptions}}

// cp, install, rsync and scp read their sources and write the
// destination: the last operand, or -t DIR. install -d makes every
// operand a directory. A recursive copy reads and writes whole trees.
func copyEffects(c *Command) []Effect {
	base := c.Base()
	l := copyOptions.get(base).Parse(c.Args)
	if base == "install" && l.Has('d', "directory") {
		return all(Write, false, l.Operands)
	}
	tree := false
	switch base {
	case "cp":
		tree = l.Has('r', "recursive") || l.Has('R', "") || l.Has('a', "archive")
	case "rsync":
		tree = l.Has('r', "recursive") || l.Has('a', "archive")
	case "scp":
		tree = l.Has('r', "")
	}
	var dest, srcs []Word
	if t := l.Vals('t', "target-directory"); len(t) > 0 && base != "rsync" && base != "scp" {
		dest, srcs = t, l.Operands
	} else if len(l.Operands) >= 2 {
		dest, srcs = l.Operands[len(l.Operands)-1:], l.Operands[:len(l.Operands)-1]
	}
	out := append(all(Write, tree, dest), all(Read, tree, srcs)...)
	if base == "rsync" {
		// rsync copies what is in a source written with a trailing
		// slash, not the source: names not known here, in dest itself.
		srcs = without(srcs, func(w Word) bool { return strings.HasSuffix(w.Value, "/") })
	}
	return append(out, all(Write, tree, intoDir(dest, srcs))...)
}

// intoDir is where sources copied or moved into a folder land: the
// folder's entry of each one's name (cp -t .claude /tmp/settings.json
// writes .claude/settings.json). A destination that turns out to be a
// file is written itself, which the caller lists too.
func intoDir(dest, srcs []Word) []Word {
	if len(dest) != 1 {
		return nil
	}
	d := dest[0]
	out := make([]Word, 0, len(srcs))
	for _, s := range srcs {
		name := path.Base(strings.TrimRight(s.Value, "/"))
		if name == "/" || name == "." || name == ".." {
			continue
		}
		out = append(out, Word{Raw: d.Raw + "/" + name, Value: path.Join(d.Value, name),
			Known: d.Known && s.Known, Glob: s.Glob && !d.Glob})
	}
	return out
}

// mv moves its sources, whole trees, to the destination, which it
// writes; what was in the sources ends up there, so they are read as
// well.
func mvEffects(c *Command) []Effect {
	l := mvOptions.Parse(c.Args)
	srcs, dest := l.Operands, l.Vals('t', "target-directory")
	if len(dest) == 0 {
		if len(srcs) < 2 {
			return nil
		}
		srcs, dest = srcs[:len(srcs)-1], srcs[len(srcs)-1:]
	}
	out := all(Move, true, srcs)
	out = append(out, all(Write, true, dest)...)
	out = append(out, all(Write, true, intoDir(dest, srcs))...)
	return append(out, all(Read, true, srcs)...)
}

// ln writes the link's name: the last operand, -t DIR, or for a single
// operand its base name in the current directory. A hard link (no -s)
// gives the source a second name.
func lnEffects(c *Command) []Effect {
	l := lnOptions.Parse(c.Args)
	ops := l.Operands
	var name, srcs []Word
	switch t := l.Vals('t', "target-directory"); {
	case len(t) > 0:
		name, srcs = t, ops
	case len(ops) == 0:
		return nil
	case len(ops) == 1:
		name = []Word{{Value: path.Base(ops[0].Value), Known: ops[0].Known, Glob: ops[0].Glob}}
		srcs = ops
	default:
		name, srcs = ops[len(ops)-1:], ops[:len(ops)-1]
	}
	out := all(Write, false, name)
	if !l.Has('s', "symbolic") {
		out = append(out, all(Link, false, srcs)...)
	}
	return out
}
