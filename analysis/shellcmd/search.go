package shellcmd

import "github.com/massgen/massgen-hook/internal/lazy"

// Searchers: the programs that print the matching lines of the files
// they are given, and of every file below a folder when they recurse.
// Option tables from GNU grep 3, ripgrep 14 and the silver searcher 2.2;
// what each reads below a folder is in its Selection (selection.go).
var (
	grepOptions = &OptionTable{Short: "EFGPe:f:iywxzsvVm:bnHhoqaId:D:rRLlcTZB:A:C:NUu0123456789", Abbrev: true, Permute: true,
		Long: "extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case " +
			"no-ignore-case word-regexp line-regexp null-data no-messages invert-match version help " +
			"max-count= byte-offset line-number no-line-number line-buffered with-filename no-filename " +
			"label= only-matching quiet silent binary-files= text directories= devices= recursive " +
			"dereference-recursive include= exclude= exclude-from= exclude-dir= files-without-match " +
			"files-with-matches count initial-tab null before-context= after-context= context= " +
			"group-separator= no-group-separator color[=] colour[=] binary"}
	rgOptions = &OptionTable{Short: "0.abcFHhiIlLnNopPqsSuUvVwxzA:B:C:d:e:E:f:g:j:m:M:r:t:T:", Permute: true,
		Long: "regexp= file= glob= iglob= type= type-not= type-add= type-clear= after-context= " +
			"before-context= context= max-count= max-columns= threads= encoding= replace= pre= " +
			"pre-glob= ignore-file= max-depth= max-filesize= path-separator= color= colors= " +
			"context-separator= field-match-separator= field-context-separator= sort= sortr= " +
			"dfa-size-limit= regex-size-limit= engine= hostname-bin= hyperlink-format= generate= " +
			"files files-with-matches files-without-match count count-matches hidden no-hidden " +
			"no-ignore ignore no-ignore-vcs ignore-vcs no-ignore-dot ignore-dot no-ignore-exclude " +
			"ignore-exclude no-ignore-global ignore-global no-ignore-parent ignore-parent " +
			"no-ignore-files ignore-files no-require-git require-git no-follow " +
			"follow ignore-case smart-case case-sensitive fixed-strings word-regexp line-regexp " +
			"invert-match json line-number no-line-number null only-matching quiet text unrestricted " +
			"search-zip type-list vimgrep with-filename no-filename heading no-heading help version"}
	agOptions = &OptionTable{Short: "aA::B::C::cDfFG:g:HhiLlm:noOp:QrsStuUvVwW:z0", Permute: true,
		Long: "all-types after[=] before[=] break nobreak count color nocolor color-line-number= " +
			"color-match= color-path= column context[=] debug depth= follow nofollow fixed-strings " +
			"filename nofilename file-search-regex= files-with-matches files-without-matches group " +
			"nogroup heading noheading hidden ignore-case ignore= ignore-dir= list-file-types " +
			"max-count= mmap nommap multiline nomultiline norecurse numbers nonumbers only-matching " +
			"one-device path-to-ignore= pager= nopager passthrough literal recurse case-sensitive " +
			"smart-case search-binary silent stats all-text unrestricted skip-vcs-ignores " +
			"invert-match version vimgrep word-regexp width= search-zip null print0 help"}
)

// grep prints the matching lines of the operands after the pattern (the
// first operand, unless -e, -f or --regexp/--file gives it). Recursing
// (-r, -R, -d recurse), it reads every file below a folder operand, or
// below "." when there is none, except what --include, --exclude and
// --exclude-dir leave out; -R follows links there too.
func grepEffects(c *Command) []Effect {
	l := grepOptions.Parse(c.Args)
	ops := searchOperands(l)
	recursive := l.Has('r', "recursive") || l.Has('R', "dereference-recursive")
	for _, d := range l.Vals('d', "directories") {
		recursive = recursive || !d.Known || d.Value == "recurse"
	}
	if !recursive {
		return all(Read, false, ops)
	}
	s := &Selection{Reader: c.Base() + " -r", Hidden: true, Ignored: true, Untracked: true,
		Follow: l.Has('R', "dereference-recursive"), Exclude: "--exclude=%s", combine: grepOrder}
	for _, o := range l.Opts {
		switch {
		case o.Is(0, "include"):
			s.Rules = append(s.Rules, Rule{Style: GrepFile, Include: true, Pattern: o.Val})
		case o.Is(0, "exclude"):
			s.Rules = append(s.Rules, Rule{Style: GrepFile, Pattern: o.Val})
		case o.Is(0, "exclude-dir"):
			s.Rules = append(s.Rules, Rule{Style: GrepDir, Pattern: o.Val})
		}
	}
	return searched(s, ops)
}

// rg reads the files below its operands (or "."), except hidden ones
// (without --hidden, -. or -uu) and those git ignores (without
// --no-ignore and its kin, or -u); its -g and --iglob globs include or
// exclude, an included file being read whatever it is. rg --files lists
// names only.
func rgEffects(c *Command) []Effect {
	l := rgOptions.Parse(c.Args)
	if l.Has(0, "files") {
		return nil
	}
	u := 0
	for _, o := range l.Opts {
		if o.Is('u', "unrestricted") {
			u++
		}
	}
	s := &Selection{Reader: "rg", Untracked: true,
		Hidden:  l.On('.', "hidden") || u >= 2,
		Ignored: u >= 1 || l.On(0, "no-ignore") || l.On(0, "no-ignore-vcs") || l.On(0, "no-ignore-exclude") || l.On(0, "no-ignore-global") || l.On(0, "no-ignore-parent"),
		Follow:  l.On('L', "follow"), Exclude: "-g '!%s'", combine: rgOrder}
	for _, o := range l.Opts {
		if o.Is('g', "glob") || o.Is(0, "iglob") {
			s.Rules = append(s.Rules, globRule(RgGlob, o.Val, o.Is(0, "iglob")))
		}
	}
	return searched(s, searchOperands(l))
}

// ag, the silver searcher, reads as rg does: not hidden files (without
// --hidden or -u), not what git ignores (without -u, -U or -a), and not
// what --ignore and --ignore-dir name. ag -g lists names only; -n does not
// recurse.
func agEffects(c *Command) []Effect {
	l := agOptions.Parse(c.Args)
	if l.Has('g', "") || l.Has(0, "list-file-types") {
		return nil
	}
	ops := searchOperands(l)
	if l.Has('n', "norecurse") {
		return all(Read, false, ops)
	}
	s := &Selection{Reader: "ag", Untracked: true,
		Hidden:  l.Has(0, "hidden") || l.Has('u', "unrestricted"),
		Ignored: l.Has('u', "unrestricted") || l.Has('U', "skip-vcs-ignores") || l.Has('a', "all-types"),
		Follow:  l.Has('f', "follow"), Exclude: "--ignore %s", combine: rgOrder}
	for _, o := range l.Opts {
		switch {
		case o.Is(0, "ignore"):
			s.Rules = append(s.Rules, Rule{Style: RgGlob, Pattern: o.Val})
		case o.Is(0, "ignore-dir"):
			dir := o.Val
			dir.Value += "/"
			s.Rules = append(s.Rules, Rule{Style: RgGlob, Pattern: dir})
		}
	}
	return searched(s, ops)
}

// searchOperands are the operands after the pattern: the first operand,
// unless an option gives it.
func searchOperands(l Line) []Word {
	ops := l.Operands
	if !l.Has('e', "regexp") && !l.Has('f', "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops
}

// searched is the Tree reads of a recursive search of ops, or of "."
// when there are none.
func searched(s *Selection, ops []Word) []Effect {
	if len(ops) == 0 {
		ops = []Word{{Value: ".", Known: true}}
	}
	out := make([]Effect, 0, len(ops))
	for _, w := range ops {
		out = append(out, Effect{Op: Read, Path: w, Tree: true, Select: s})
	}
	return out
}

// globRule is a gitignore-style glob option: a leading ! excludes.
func globRule(style Style, w Word, fold bool) Rule {
	r := Rule{Style: style, Include: true, Pattern: w, Fold: fold}
	if w.Known && len(w.Value) > 1 && w.Value[0] == '!' {
		r.Include, r.Pattern = false, part(w, w.Value[1:])
	}
	return r
}

// ToolSearch is what an agent CLI's own search tool (Claude Code's and
// Copilot CLI's Grep, Gemini CLI's grep_search) reads below a folder. The
// tools run ripgrep or git grep --untracked, so git-ignored files are
// left out; hidden files are read (Claude Code 2.1.328 runs rg --hidden
// --no-follow, git grep reads them), which is also the safe reading where
// a tool does not. Each glob includes files, or excludes them with a
// leading !; a file type (Grep's type, rg -t) includes its files, when it
// is one of toolTypes: a type not known there leaves the types out, and
// every file may be read.
func ToolSearch(reader string, globs, types []string) *Selection {
	s := &Selection{Reader: reader, Hidden: true, Untracked: true, combine: rgOrder}
	for _, g := range globs {
		if g != "" {
			s.Rules = append(s.Rules, globRule(ToolGlob, Word{Value: g, Known: true}, false))
		}
	}
	var typed []Rule
	for _, t := range types {
		names, ok := toolTypes.Get()[t]
		if !ok {
			return s
		}
		for _, n := range names {
			typed = append(typed, Rule{Style: ToolGlob, Include: true, Pattern: Word{Value: n, Known: true}})
		}
	}
	s.Rules = append(typed, s.Rules...)
	return s
}

// toolTypes are ripgrep's file types that agents ask for most, with the
// names ripgrep 14 gives each; no other type is judged (see ToolSearch).
var toolTypes = &lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"go":       {"*.go"},
		"py":       {"*.py", "*.pyi"},
		"rust":     {"*.rs"},
		"js":       {"*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"},
		"ts":       {"*.ts", "*.tsx", "*.cts", "*.mts"},
		"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
		"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
		"md":       {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
		"markdown": {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
		"json":     {"*.json", "composer.lock", "*.sarif"},
		"yaml":     {"*.yaml", "*.yml"},
		"toml":     {"*.toml", "Cargo.lock"},
		"html":     {"*.htm", "*.html", "*.ejs"},
		"css":      {"*.css", "*.scss"},
	}
}}

// ToolReadMany is what Gemini CLI's read_many_files reads below a
// folder: the files that match an include glob (every file, for a
// folder named as it is) and no exclude glob, hidden ones too; git-ignored
// files unless ignored says they are read as well.
func ToolReadMany(include, exclude []string, ignored bool) *Selection {
	s := &Selection{Reader: "read_many_files", Hidden: true, Untracked: true, Ignored: ignored, combine: anyRule}
	for _, g := range include {
		s.Rules = append(s.Rules, Rule{Style: ToolGlob, Include: true, Pattern: Word{Value: g, Known: true}})
	}
	for _, g := range exclude {
		s.Rules = append(s.Rules, Rule{Style: ToolGlob, Pattern: Word{Value: g, Known: true}})
	}
	return s
}
