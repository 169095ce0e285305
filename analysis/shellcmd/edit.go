package shellcmd

import (
	"path"
	"strings"
)

// Stream editors and the interpreters that edit files in place: GNU sed
// 4, perl 5 and gawk 5 option tables.
var (
	sedOptions = &OptionTable{Short: "ne:f:i::l:Ersuz", Abbrev: true, Permute: true,
		Long: "quiet silent debug expression= file= follow-symlinks in-place[=] line-length= posix " +
			"regexp-extended separate sandbox unbuffered null-data zero-terminated help version"}
	// perl reads its switches up to the first operand (the script).
	perlOptions = &OptionTable{Short: "acfhnpsStTuUvwWXe:E:I:m:M:i::F::x::d::D::C::V::", Digits: "l0"}
	// awk reads its options up to the program.
	awkOptions = &OptionTable{Short: "f:v:F:e:E:i:l:W:bcCd::D::gho::Mnp::PrsStVyz", Abbrev: true,
		Long: "file= assign= field-separator= source= exec= include= load= characters-as-bytes " +
			"traditional copyright dump-variables[=] debug[=] gen-pot help lint[=] bignum " +
			"use-lc-numeric non-decimal-data optimize no-optimize posix re-interval sandbox " +
			"pretty-print[=] profile[=] csv version"}
)

// sed reads its files, or with -i writes them in place. The script is the
// first operand unless -e or -f gives it.
func sedEffects(c *Command) []Effect {
	l := sedOptions.Parse(bsdInPlace(c.Args))
	files := l.Operands
	if !l.Has('e', "expression") && !l.Has('f', "file") && len(files) > 0 {
		files = files[1:]
	}
	var prog []Effect
	for _, sc := range sedScripts(l) {
		if sc.Known {
			e, _ := sedProgram(sc.Value)
			prog = append(prog, e...)
		}
	}
	// A script file is read, and sed prints a line it cannot parse in its
	// error: `sed -f ~/.ssh/id_rsa x` shows the key.
	prog = append(prog, all(Read, false, l.Vals('f', "file"))...)
	if l.Has('i', "in-place") {
		return append(append(all(Write, false, files), backups(l.Vals('i', "in-place"), files)...), prog...)
	}
	return append(all(Read, false, files), prog...)
}

// bsdInPlace drops the separate suffix of BSD (macOS) sed -i, as in
//
//	sed -i '' s/a/b/ f
//
// GNU sed takes -i's suffix only attached, so a separate word after -i is
// the script; an empty or dot-led word cannot be a script, so it is taken
// as the BSD suffix.
func bsdInPlace(args []Word) []Word {
	for i := 0; i+1 < len(args); i++ {
		v, next := args[i].Value, args[i+1]
		if !args[i].Known || len(v) < 2 || v[0] != '-' || v[1] == '-' || v[len(v)-1] != 'i' ||
			strings.ContainsAny(v[1:len(v)-1], "efli") {
			continue
		}
		if next.Known && (next.Value == "" || next.Value[0] == '.') {
			return append(args[:i+1:i+1], args[i+2:]...)
		}
	}
	return args
}

// perl's files are its @ARGV after the script (the first operand unless
// -e or -E gives it): with -i it edits them in place. Reading them is the
// script's business, which is not judged here.
func perlEffects(c *Command) []Effect {
	l := perlOptions.Parse(c.Args)
	files := c.Args[l.Rest:]
	if !l.Has('e', "") && !l.Has('E', "") && len(files) > 0 {
		files = files[1:]
	}
	if l.Has('i', "") {
		return all(Write, false, files) // as sed -i: the write covers it
	}
	// The words after the program are its @ARGV: -n, -p and <> read
	// them, and a program may open them; they count as read.
	return all(Read, false, files)
}

// awk reads its input files: the operands after the program (unless -f,
// -E or --source gives it), without the VAR=value assignments.
func awkEffects(c *Command) []Effect {
	l := awkOptions.Parse(c.Args)
	ops := c.Args[l.Rest:]
	if !l.Has('f', "file") && !l.Has('E', "exec") && !l.Has('e', "source") && len(ops) > 0 {
		ops = ops[1:]
	}
	var out []Effect
	for _, o := range ops {
		if !isAssign(o) {
			out = append(out, Effect{Op: Read, Path: o})
		}
	}
	// A program file is read, and awk quotes the line it cannot parse in
	// its error.
	out = append(out, all(Read, false, l.Vals('f', "file"))...)
	if prog, ok := awkScript(l, c.Args); ok && prog.Known {
		e, _ := awkProgram(prog.Value)
		out = append(out, e...)
	}
	return out
}

// source (and .) runs a file in the shell, and bash prints each line it
// cannot run in its error: `source ~/.ssh/id_rsa` shows the key line by
// line. A file of variable assignments (.env, .env.*, .envrc) is how
// projects load their secrets without showing them: it is not a read.
func sourceEffects(c *Command) []Effect {
	ops := c.Args
	if len(ops) > 0 && ops[0].Known && ops[0].Value == "--" {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return nil
	}
	name := path.Base(ops[0].Value)
	if ops[0].Known && (name == ".env" || name == ".envrc" || strings.HasPrefix(name, ".env.")) {
		return nil
	}
	return []Effect{{Op: Read, Path: ops[0]}}
}

// backups are the files sed -i SUFFIX writes beside those it edits: the
// name with SUFFIX added, or SUFFIX with each * replaced by the name
// (`sed -i'c' p .envr` writes .envrc).
func backups(suffixes []Word, files []Word) []Effect {
	if len(suffixes) == 0 {
		return nil
	}
	sfx := suffixes[len(suffixes)-1]
	if sfx.Known && sfx.Value == "" {
		return nil
	}
	var out []Effect
	for _, f := range files {
		name := Word{Raw: f.Raw + sfx.Raw, Value: f.Value + sfx.Value, Known: f.Known && sfx.Known, Glob: f.Glob}
		if sfx.Known && strings.Contains(sfx.Value, "*") {
			dir, base := path.Split(f.Value)
			v := strings.ReplaceAll(sfx.Value, "*", base)
			if !strings.Contains(v, "/") {
				v = dir + v
			}
			name.Value = v
		}
		out = append(out, Effect{Op: Write, Path: name})
	}
	return out
}
