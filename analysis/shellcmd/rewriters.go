package shellcmd

import "strings"

// Rewriters: programs that write a file named among their operands, not
// through a redirection, so the guards must know which operand it is.
// Option tables from GNU coreutils 9, GNU patch 2.7, moreutils, vim 9,
// GNU gzip 1.12, bzip2, xz 5, zstd 1.5 and Info-ZIP unzip 6.
var (
	sortOptions = &OptionTable{Short: "bcCdfghiMmno:rRsS:t:T:uVz", Abbrev: true, Permute: true,
		Long: "ignore-leading-blanks check[=] dictionary-order ignore-case general-numeric-sort " +
			"human-numeric-sort ignore-nonprinting month-sort merge numeric-sort output= reverse " +
			"random-sort random-source= stable buffer-size= field-separator= temporary-directory= " +
			"unique version-sort zero-terminated key= batch-size= compress-program= debug files0-from= " +
			"parallel= sort= help version"}
	uniqOptions = &OptionTable{Short: "cdDf:is:uw:z", Abbrev: true, Permute: true,
		Long: "count repeated all-repeated[=] skip-fields= ignore-case skip-chars= unique zero-terminated " +
			"check-chars= group[=] help version"}
	patchOptions = &OptionTable{Short: "bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:xY:z:Z", Abbrev: true, Permute: true,
		Long: "backup prefix= context directory= ifdef= ed remove-empty-files force fuzz= get= input= " +
			"ignore-whitespace normal forward output= strip= reject-file= reverse quiet silent batch " +
			"set-time unified version version-control= debug= basename-prefix= suffix= set-utc dry-run " +
			"posix binary backup-if-mismatch no-backup-if-mismatch merge[=] read-only= follow-symlinks " +
			"verbose help quoting-style= reject-format="}
	compressOptions = &OptionTable{Short: "cdfhklLnNqrS:tvV123456789T:o:", Abbrev: true, Permute: true,
		Long: "stdout to-stdout decompress uncompress force help keep list license no-name name quiet " +
			"recursive rsyncable suffix= test verbose version fast best threads= output= rm"}
	unzipOptions = &OptionTable{Short: "ZcflpTtuvzbjnoqd:x:aCKLMVWX", Permute: true}
)

// sort writes its -o file and reads the others.
func sortEffects(c *Command) []Effect {
	l := sortOptions.Parse(c.Args)
	return append(all(Write, false, l.Vals('o', "output")), all(Read, false, l.Operands)...)
}

// uniq reads its first operand and writes its second.
func uniqEffects(c *Command) []Effect {
	ops := uniqOptions.Parse(c.Args).Operands
	switch len(ops) {
	case 0:
		return nil
	case 1:
		return all(Read, false, ops)
	}
	return []Effect{{Op: Read, Path: ops[0]}, {Op: Write, Path: ops[1]}}
}

// patch writes the file it is given (or -o's), and reads the patch (the
// second operand, or -i's); without a file, the patch names the files,
// which are not known here.
func patchEffects(c *Command) []Effect {
	l := patchOptions.Parse(c.Args)
	out := all(Write, false, l.Vals('o', "output"))
	out = append(out, all(Read, false, l.Vals('i', "input"))...)
	if len(l.Operands) > 0 {
		out = append(out, Effect{Op: Write, Path: l.Operands[0]})
		out = append(out, all(Read, false, l.Operands[1:])...)
	} else if len(l.Vals('o', "output")) == 0 {
		out = append(out, Effect{Op: Write, Path: Word{Raw: "<files the patch names>", Value: "<files the patch names>"}})
	}
	return out
}

// editorTakesValue reports whether an editor's option takes the next
// word: vim's -c, -S, -u, -i, -T, -w, -W and --cmd, ed's -p, also last in
// a bundle (ex -sc CMD).
func editorTakesValue(w Word) bool {
	if !w.Known || len(w.Value) < 2 || w.Value[0] != '-' {
		return false
	}
	if w.Value == "--cmd" {
		return true
	}
	return w.Value[1] != '-' && strings.IndexByte("cSuiTwWp", w.Value[len(w.Value)-1]) >= 0
}

// The editors and sponge write every file operand (an editor run by an
// agent is driven by -c/-s commands or a script on stdin); +CMD is a
// command, not a file.
func editorEffects(c *Command) []Effect {
	var ops []Word
	for i, a := range c.Args {
		prev := i > 0 && editorTakesValue(c.Args[i-1])
		if prev || a.IsFlag() || a.Known && len(a.Value) > 0 && a.Value[0] == '+' {
			continue
		}
		ops = append(ops, a)
	}
	return all(Write, false, ops)
}

// mkfifo and mknod make the node they name.
func makeNodeEffects(c *Command) []Effect {
	var ops []Word
	for i, a := range c.Args {
		if a.IsFlag() {
			continue
		}
		if i > 0 && c.Args[i-1].Known && (c.Args[i-1].Value == "-m" || c.Args[i-1].Value == "--mode" || c.Args[i-1].Value == "-Z") {
			continue
		}
		ops = append(ops, a)
		if c.Base() == "mknod" {
			break // then the type and numbers
		}
	}
	return all(Write, false, ops)
}

// gzip, bzip2, xz, zstd and their un- forms replace each file with its
// (de)compressed twin, unless -c/-k keeps it; -r does so below a folder.
func compressEffects(c *Command) []Effect {
	l := compressOptions.Parse(c.Args)
	tree := l.Has('r', "recursive")
	if l.Has('c', "stdout") || l.Has('c', "to-stdout") || l.Has('t', "test") || l.Has('l', "list") {
		if tree {
			return searched(&Selection{Reader: c.Base() + " -r", Hidden: true, Ignored: true, Untracked: true}, l.Operands)
		}
		return all(Read, false, l.Operands)
	}
	if l.Has('k', "keep") {
		return all(Read, tree, l.Operands)
	}
	return append(all(Delete, tree, l.Operands), all(Read, tree, l.Operands)...)
}

// unzip -d DIR writes what the archive holds into DIR: names only the
// archive knows, so the whole folder is judged (unzip -d .claude). Into
// the working folder, the usual case, the names stay unknown, as for
// tar -x and git checkout.
func unzipEffects(c *Command) []Effect {
	l := unzipOptions.Parse(c.Args)
	archive := all(Read, false, l.Operands[:min(1, len(l.Operands))])
	if l.Has('l', "") || l.Has('t', "") || l.Has('v', "") || l.Has('Z', "") || l.Has('p', "") || l.Has('c', "") {
		return archive // lists, tests or prints
	}
	return append(archive, all(Write, true, l.Vals('d', ""))...)
}

// rgrep is grep -r (Debian's and Ubuntu's script runs `grep -r`).
func rgrepEffects(c *Command) []Effect {
	r := *c
	r.Args = append([]Word{{Raw: "-r", Value: "-r", Known: true}}, c.Args...)
	return grepEffects(&r)
}
