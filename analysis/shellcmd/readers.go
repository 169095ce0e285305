package shellcmd

import (
	"strings"
)

// Readers: the programs that print the files they are given. Option
// tables from GNU coreutils 9, util-linux, less 6, bat, BSD hexdump,
// and GNU diffutils 3.
var (
	readerOptions = optionTables{
		{"cat", &OptionTable{Short: "AbeEnstTuv", Abbrev: true, Permute: true,
			Long: "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version"}},
		{"tac", &OptionTable{Short: "brs:", Abbrev: true, Permute: true, Long: "before regex separator= help version"}},
		{"head", &OptionTable{Short: "c:n:qvz", Abbrev: true, Permute: true,
			Long: "bytes= lines= quiet silent verbose zero-terminated help version"}},
		{"tail", &OptionTable{Short: "c:fFn:qs:vz", Abbrev: true, Permute: true,
			Long: "bytes= follow[=] lines= max-unchanged-stats= pid= quiet silent retry sleep-interval= " +
				"verbose zero-terminated help version"}},
		{"nl", &OptionTable{Short: "b:d:f:h:i:l:n:ps:v:w:", Abbrev: true, Permute: true,
			Long: "body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= " +
				"join-blank-lines= number-format= no-renumber number-separator= starting-line-number= " +
				"number-width= help version"}},
		{"od", &OptionTable{Short: "A:j:N:S::t:vw::abcdfilosx", Abbrev: true, Permute: true,
			Long: "address-radix= endian= skip-bytes= read-bytes= strings[=] format= output-duplicates " +
				"width[=] traditional help version"}},
		{"hexdump", &OptionTable{Short: "bcCdoxve:f:n:s:L::", Permute: true,
			Long: "one-byte-octal one-byte-char canonical two-bytes-decimal two-bytes-octal two-bytes-hex " +
				"format= format-file= color[=] length= skip= no-squeezing help version"}},
		{"strings", &OptionTable{Short: "adfwn:t:e:o0123456789s:T:UvVh", Abbrev: true, Permute: true,
			Long: "all data print-file-name include-all-whitespace bytes= radix= encoding= unicode= " +
				"output-separator= target= help version"}},
		{"less", &OptionTable{Short: "?aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWXb:h:j:k:o:O:p:P:t:T:x:y:z:#:", Permute: true,
			Long: "help version log-file= LOG-FILE= pattern= prompt= tag= tag-file= tabs= shift= " +
				"max-back-scroll= max-forw-scroll= window= buffers= jump-target= lesskey-file= " +
				"header= line-num-width= status-col-width= wheel-lines= quit-at-eof quit-if-one-screen " +
				"ignore-case IGNORE-CASE no-init chop-long-lines raw-control-chars RAW-CONTROL-CHARS " +
				"squeeze-blank-lines LINE-NUMBERS mouse"}},
		{"more", &OptionTable{Short: "dflcpsun:", Permute: true, Long: "silent logical no-pause print-over clean-print squeeze plain lines= help version"}},
		{"bat", batOptions},
		{"batcat", batOptions},
		{"base64", &OptionTable{Short: "dw:b:i:o:D", Abbrev: true, Permute: true,
			Long: "decode ignore-garbage wrap= break= input= output= help version"}},
		{"diff", &OptionTable{Short: "qscC:uU:enyW:pF:tTlrNx:X:S:iEZbwBI:aD:dv", Abbrev: true, Permute: true,
			Long: "normal brief report-identical-files context[=] unified[=] ed rcs side-by-side width= " +
				"left-column suppress-common-lines show-c-function show-function-line= label= expand-tabs " +
				"initial-tab tabsize= suppress-blank-empty paginate recursive no-dereference new-file " +
				"unidirectional-new-file ignore-file-name-case no-ignore-file-name-case exclude= " +
				"exclude-from= starting-file= from-file= to-file= ignore-case ignore-tab-expansion " +
				"ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines " +
				"ignore-matching-lines= text strip-trailing-cr ifdef= old-group-format= new-group-format= " +
				"unchanged-group-format= changed-group-format= line-format= old-line-format= " +
				"new-line-format= unchanged-line-format= minimal horizon-lines= speed-large-files " +
				"color[=] palette= help version"}},
	}
	batOptions = &OptionTable{Short: "AbpPnfl:H:r:m:LhV", Permute: true,
		Long: "show-all plain language= highlight-line= file-name= diff diff-context= tabs= wrap= " +
			"chop-long-lines terminal-width= number color= italic-text= decorations= force-colorization " +
			"paging= pager= map-syntax= ignored-suffix= theme= theme-light= theme-dark= list-themes " +
			"squeeze-blank squeeze-limit= strip-ansi= style= line-range= list-languages unbuffered " +
			"completion= binary= nonprintable-notation= no-config no-custom-assets lessopen " +
			"config-file config-dir cache-dir acknowledgements set-terminal-title diagnostic help version"}
	xxdOptions = &OptionTable{Short: "abCeEhiprudvc:g:l:o:s:n:R:"}
)

// The readers print every operand.
func readerEffects(c *Command) []Effect {
	return all(Read, false, readerOptions.get(c.Base()).Parse(c.Args).Operands)
}

// The pagers also take +CMD operands, commands to run at start, not files.
func pagerEffects(c *Command) []Effect {
	ops := readerOptions.get(c.Base()).Parse(c.Args).Operands
	return all(Read, false, without(ops, func(w Word) bool { return strings.HasPrefix(w.Value, "+") }))
}

// base64 encodes (or decodes) its file operand, or BSD's -i FILE, and
// writes BSD's -o FILE.
func base64Effects(c *Command) []Effect {
	l := readerOptions.get("base64").Parse(c.Args)
	out := all(Write, false, without(l.Vals('o', "output"), func(w Word) bool { return w.Known && w.Value == "-" }))
	return append(out, all(Read, false, append(l.Operands, l.Vals('i', "input")...))...)
}

func diffEffects(c *Command) []Effect {
	l := readerOptions.get("diff").Parse(c.Args)
	files := append(append(l.Operands, l.Vals(0, "from-file")...), l.Vals(0, "to-file")...)
	if l.Has('r', "recursive") {
		// Folders compared below: a file on one side only is printed
		// whole with -N, and any that differ are shown.
		return searched(&Selection{Reader: "diff -r", Hidden: true, Ignored: true, Untracked: true}, files)
	}
	return all(Read, false, files)
}

// xxd prints its input file, or with an output file (second operand)
// writes that instead.
func xxdEffects(c *Command) []Effect {
	ops := c.Args[xxdOptions.Parse(c.Args).Rest:]
	switch {
	case len(ops) >= 2:
		return []Effect{{Op: Write, Path: ops[1]}}
	case len(ops) == 1:
		return []Effect{{Op: Read, Path: ops[0]}}
	}
	return nil
}

// without returns the words of ws except the known ones drop matches,
// copying only when it drops one: ws may share Command.Args.
func without(ws []Word, drop func(Word) bool) []Word {
	var out []Word
	for i, w := range ws {
		if w.Known && drop(w) {
			if out == nil {
				out = append(make([]Word, 0, len(ws)), ws[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, w)
		}
	}
	if out == nil {
		return ws
	}
	return out
}
