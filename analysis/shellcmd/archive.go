package shellcmd

import "strings"

// Archivers: the programs that copy files, and every file below a folder,
// into an archive that can then be listed or unpacked anywhere. Option
// tables from GNU tar 1.35 and Info-ZIP zip 3.0.
var (
	tarOptions = &OptionTable{Short: "AcdrtuxaBb:C:f:F:g:GhH:iIjJkK:lL:mMN:oOpPRsST:UvV:wWX:zZ", Abbrev: true, Permute: true,
		Long: "catenate concatenate create delete diff compare append list test-label update extract get " +
			"check-device no-check-device incremental listed-incremental= level= ignore-failed-read " +
			"occurrence[=] restrict seek no-seek sparse sparse-version= keep-old-files keep-newer-files " +
			"keep-directory-symlink no-overwrite-dir overwrite overwrite-dir recursive-unlink remove-files " +
			"skip-old-files unlink-first verify ignore-command-error no-ignore-command-error to-stdout " +
			"to-command= atime-preserve[=] delay-directory-restore no-delay-directory-restore group= " +
			"group-map= mode= mtime= owner= owner-map= numeric-owner no-same-owner no-same-permissions " +
			"preserve-order preserve-permissions same-permissions same-owner same-order sort= " +
			"acls no-acls selinux no-selinux xattrs no-xattrs xattrs-exclude= xattrs-include= " +
			"force-local file= info-script= new-volume-script= multi-volume rmt-command= rsh-command= " +
			"volno-file= blocking-factor= record-size= ignore-zeros no-ignore-zeros read-full-records " +
			"format= old-archive portability posix pax-option= label= auto-compress bzip2 gzip gunzip " +
			"ungzip lzip lzma lzop no-auto-compress use-compress-program= xz zstd compress uncompress " +
			"add-file= backup[=] directory= exclude= exclude-backups exclude-caches exclude-caches-all " +
			"exclude-caches-under exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= " +
			"exclude-tag-under= exclude-vcs exclude-vcs-ignores exclude-from= files-from= " +
			"ignore-case no-ignore-case anchored no-anchored null no-null no-recursion recursion " +
			"unquote no-unquote verbatim-files-from no-verbatim-files-from wildcards no-wildcards " +
			"wildcards-match-slash no-wildcards-match-slash dereference hard-dereference " +
			"starting-file= newer= after-date= newer-mtime= one-file-system absolute-names " +
			"checkpoint[=] checkpoint-action= full-time index-file= no-quote-chars= quote-chars= " +
			"quoting-style= block-number show-defaults show-omitted-dirs show-snapshot-field-ranges " +
			"show-transformed-names show-stored-names strip-components= suffix= totals[=] " +
			"transform= xform= utc verbose warning= interactive confirmation help usage version " +
			"one-top-level[=] check-links clamp-mtime hole-detection="}
	zipOptions = &OptionTable{Short: "0123456789AcdDeFfgjJklLmoqrRSTuvwXyz@$b:n:t:P:O:Z:s:h", Permute: true,
		Long: "recurse-paths recurse-patterns junk-paths symlinks freshen update delete copy " +
			"grow move quiet verbose encrypt test-command= output-file= suffixes= temp-path= " +
			"split-size= compression-method= filesync names-stdin no-extra fix fixfix help"}
)

// tar -c (and -r, -u, -A's kin that add files) reads every file below
// its operands, links not followed unless -h, except what --exclude and
// the --exclude-vcs options leave out; --no-recursion reads the operands
// alone. The archive itself (-f) is written. A first word without a
// dash is the old style, letters bundled ("czf out.tgz .").
func tarEffects(c *Command) []Effect {
	l := tarOptions.Parse(oldStyle(c.Args, tarOptions))
	if !l.Has('c', "create") && !l.Has('r', "append") && !l.Has('u', "update") {
		return nil
	}
	var out []Effect
	for _, f := range l.Vals('f', "file") {
		if !f.Known || f.Value != "-" {
			out = append(out, Effect{Op: Write, Path: f})
		}
	}
	// -T names a file of the names to archive, -X one of patterns to
	// leave out: tar reads them, and prints a line it cannot find.
	lists := append(l.Vals('T', "files-from"), l.Vals('X', "exclude-from")...)
	out = append(out, all(Read, false, without(lists, func(w Word) bool { return w.Known && w.Value == "-" }))...)
	ops := l.Operands
	if dirs := l.Vals('C', "directory"); len(dirs) > 0 {
		// -C DIR reads the operands after it from DIR: joined to the
		// first, the usual `tar -C dir -czf x.tgz .`.
		ops = below(dirs[0], ops)
	}
	if l.On(0, "no-recursion") {
		return append(out, all(Read, false, ops)...)
	}
	s := &Selection{Reader: "tar", Hidden: true, Untracked: true,
		Ignored: !l.Has(0, "exclude-vcs-ignores"),
		Follow:  l.Has('h', "dereference"), Exclude: "--exclude=%s", combine: anyRule}
	for _, p := range l.Vals(0, "exclude") {
		s.Rules = append(s.Rules, Rule{Style: TarPattern, Pattern: p})
	}
	if len(ops) == 0 {
		return out // tar refuses to make an empty archive
	}
	return append(out, searched(s, ops)...)
}

// zip -r (or -R) reads every file below its file operands (the words
// after the archive), following links unless -y, except what -x leaves
// out and, when -i is given, what it does not name; without -r it reads
// the operands alone. -x and -i take every word after them up to the
// next option. The archive (the first operand) is written.
func zipEffects(c *Command) []Effect {
	args, excl, incl := zipLists(c.Args)
	l := zipOptions.Parse(args)
	if len(l.Operands) == 0 {
		return nil
	}
	archive, files := l.Operands[0], l.Operands[1:]
	out := []Effect{{Op: Write, Path: archive}}
	if l.Has('@', "names-stdin") || len(files) == 0 {
		return out
	}
	if !l.Has('r', "recurse-paths") && !l.Has('R', "recurse-patterns") {
		return append(out, all(Read, false, files)...)
	}
	s := &Selection{Reader: "zip -r", Hidden: true, Ignored: true, Untracked: true,
		Follow: !l.Has('y', "symlinks"), Exclude: "-x '%s'", combine: anyRule}
	for _, p := range excl {
		s.Rules = append(s.Rules, Rule{Style: ZipPattern, Pattern: p})
	}
	for _, p := range incl {
		s.Rules = append(s.Rules, Rule{Style: ZipPattern, Include: true, Pattern: p})
	}
	return append(out, searched(s, files)...)
}

// zipLists takes zip's -x and -i lists out of args: each runs from the
// option (or its attached first pattern, -x.env, -x=.env) to the next
// word that starts with a dash.
func zipLists(args []Word) (rest, excl, incl []Word) {
	var list *[]Word
	for _, a := range args {
		v := a.Value
		if a.Known && strings.HasPrefix(v, "-") && len(v) > 1 {
			list = nil
			switch {
			case v == "-x" || v == "--exclude":
				list = &excl
			case v == "-i" || v == "--include":
				list = &incl
			case strings.HasPrefix(v, "-x"):
				list = &excl
				excl = append(excl, part(a, strings.TrimPrefix(v[2:], "=")))
			case strings.HasPrefix(v, "-i"):
				list = &incl
				incl = append(incl, part(a, strings.TrimPrefix(v[2:], "=")))
			default:
				rest = append(rest, a)
			}
			continue
		}
		if list != nil {
			*list = append(*list, a)
			continue
		}
		rest = append(rest, a)
	}
	return rest, excl, incl
}

// oldStyle rewrites tar's old-style first word ("czf x.tgz"): its
// letters are options, and those that take an argument take the next
// words in turn.
func oldStyle(args []Word, t *OptionTable) []Word {
	if len(args) == 0 || !args[0].Known || args[0].Value == "" || strings.HasPrefix(args[0].Value, "-") {
		return args
	}
	first, rest := args[0], args[1:]
	out := make([]Word, 0, len(args)+len(first.Value))
	var vals []Word
	for i := 0; i < len(first.Value); i++ {
		letter := first.Value[i]
		out = append(out, part(first, "-"+string(letter)))
		if j := strings.IndexByte(t.Short, letter); j >= 0 && j+1 < len(t.Short) && t.Short[j+1] == ':' && len(rest) > 0 {
			vals, rest = append(vals, rest[0]), rest[1:]
			out = append(out, vals[len(vals)-1])
		}
	}
	return append(out, rest...)
}

// below is each relative known word of ops joined to dir, not cleaned:
// the kernel resolves "link/.." where the link leads.
func below(dir Word, ops []Word) []Word {
	out := make([]Word, 0, len(ops))
	for _, w := range ops {
		if w.Known && !strings.HasPrefix(w.Value, "/") {
			w = Word{Raw: w.Raw, Value: strings.TrimSuffix(dir.Value, "/") + "/" + w.Value, Known: dir.Known, Glob: w.Glob || dir.Glob}
		}
		out = append(out, w)
	}
	return out
}
