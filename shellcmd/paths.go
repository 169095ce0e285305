package shellcmd

import (
	"path"
	"strings"
)

// Writes returns the paths the command writes or deletes: the targets of
// its writing redirections (>, >>, >|, &>, &>>, <>, >& file) and the path
// operands of the programs below, told apart from options and their
// arguments by each program's option syntax ("--" ends options):
//
//	rm, rmdir, unlink, shred, tee, touch, mkdir, truncate: all operands
//	mv: all operands (sources go away, the destination is written), -t DIR
//	cp, install, rsync, scp: the destination (last operand, or -t DIR); install -d: all
//	ln: the link (last operand, -t DIR, or for one operand its base name)
//	chmod, chown, chgrp: the operands after the mode or owner
//	sed -i (GNU -i.bak, -Ei, --in-place; BSD -i '' and -i .bak), perl -i: the files
//	dd: of=PATH; xxd: the output file (second operand)
//	curl: -o/--output, -D/--dump-header, -c/--cookie-jar; wget: -O, -o, -a
//	find: -fprint, -fprint0, -fprintf, -fls files, and with -delete its starting points
//	git: nothing (git manages its own files)
//
// A "-" meaning stdout is left out. An operand whose value is not known is
// returned with Known false rather than dropped.
func (c *Command) Writes() []Word {
	var out []Word
	for _, r := range c.Redirects {
		if r.writes() {
			out = append(out, r.Target)
		}
	}
	return append(out, c.writeOperands()...)
}

func (c *Command) writeOperands() []Word {
	args := c.Args
	switch base := c.Base(); base {
	case "rm", "rmdir", "unlink", "shred", "tee", "touch", "mkdir", "truncate":
		return operands(args, writerSpecs[base])
	case "mv":
		opts, ops, _ := scanOpts(args, &cpSpec, true)
		return append(ops, vals(opts, 't', "target-directory")...)
	case "cp", "install", "rsync", "scp":
		opts, ops, _ := scanOpts(args, copySpecs[base], true)
		if base == "install" && has(opts, 'd', "directory") {
			return ops
		}
		if t := vals(opts, 't', "target-directory"); len(t) > 0 {
			return t
		}
		if len(ops) < 2 {
			return nil
		}
		return ops[len(ops)-1:]
	case "ln":
		opts, ops, _ := scanOpts(args, &cpSpec, true)
		if t := vals(opts, 't', "target-directory"); len(t) > 0 {
			return t
		}
		switch len(ops) {
		case 0:
			return nil
		case 1: // ln -s /x/y makes ./y
			return []Word{{Value: path.Base(ops[0].Value), Known: ops[0].Known, Glob: ops[0].Glob}}
		}
		return ops[len(ops)-1:]
	case "chmod":
		return chmodFiles(args)
	case "chown", "chgrp":
		opts, ops, _ := scanOpts(args, &chownSpec, true)
		if !has(opts, 0, "reference") && len(ops) > 0 {
			ops = ops[1:]
		}
		return ops
	case "sed", "gsed":
		if files, inPlace := sedFiles(args); inPlace {
			return files
		}
	case "perl":
		if files, inPlace := perlFiles(args); inPlace {
			return files
		}
	case "dd":
		return ddOperand(args, "of=")
	case "xxd":
		if _, _, i := scanOpts(args, &xxdSpec, false); len(args)-i >= 2 {
			return args[i+1 : i+2 : i+2]
		}
	case "curl":
		opts, _, _ := scanOpts(args, &curlSpec, true)
		return notStdio(append(append(vals(opts, 'o', "output"), vals(opts, 'D', "dump-header")...), vals(opts, 'c', "cookie-jar")...))
	case "wget":
		opts, _, _ := scanOpts(args, &wgetSpec, true)
		return notStdio(append(append(vals(opts, 'O', "output-document"), vals(opts, 'o', "output-file")...), vals(opts, 'a', "append-output")...))
	case "find":
		return findWrites(args)
	}
	return nil
}

// Reads returns the paths whose content the command prints, that is shows
// to whoever ran it: the targets of < and <> redirections and
//
//	cat, tac, head, tail, less, more, bat, nl, base64, od, hexdump,
//	strings, diff: their file operands
//	xxd: its input file, unless it writes an output file
//	grep, egrep, fgrep, rg: the operands after the pattern (the first
//	operand, unless -e/-f/--regexp/--file gives it); "." when searching
//	recursively without one (rg, grep -r)
//	sed without -i, awk: the files after the script
//	cp, mv, rsync, scp: the sources
//	dd: if=PATH, when there is no of=
//
// source and . are not reads: they run a file without printing it.
func (c *Command) Reads() []Word {
	var out []Word
	for _, r := range c.Redirects {
		if r.reads() {
			out = append(out, r.Target)
		}
	}
	return append(out, notStdio(c.readOperands())...)
}

func (c *Command) readOperands() []Word {
	args := c.Args
	switch base := c.Base(); base {
	case "cat", "tac", "head", "tail", "nl", "od", "hexdump", "strings":
		return operands(args, readerSpecs[base])
	case "less", "more", "bat", "batcat":
		return dropCommands(operands(args, readerSpecs[base]))
	case "base64":
		opts, ops, _ := scanOpts(args, readerSpecs[base], true)
		return append(ops, vals(opts, 'i', "input")...) // BSD: -i FILE
	case "diff":
		opts, ops, _ := scanOpts(args, readerSpecs[base], true)
		return append(append(ops, vals(opts, 0, "from-file")...), vals(opts, 0, "to-file")...)
	case "xxd":
		if _, _, i := scanOpts(args, &xxdSpec, false); len(args)-i == 1 {
			return args[i : i+1 : i+1] // printed unless there is an output file
		}
	case "grep", "egrep", "fgrep", "rg":
		return grepFiles(base, args)
	case "sed", "gsed":
		if files, inPlace := sedFiles(args); !inPlace {
			return files
		}
	case "awk", "gawk", "mawk", "nawk":
		return awkFiles(args)
	case "cp", "mv", "rsync", "scp":
		opts, ops, _ := scanOpts(args, copySpecs[base], true)
		if base == "rsync" || base == "scp" || len(vals(opts, 't', "target-directory")) == 0 {
			if len(ops) < 2 {
				return nil
			}
			ops = ops[:len(ops)-1]
		}
		return ops
	case "dd":
		if len(ddOperand(args, "of=")) == 0 {
			return ddOperand(args, "if=")
		}
	}
	return nil
}

// Option specs of the writers and readers, from their GNU, BSD and
// upstream manuals. Only options taking an argument matter.
var (
	cpSpec    = optSpec{short: "tS", long: []string{"target-directory", "suffix", "no-preserve", "sparse"}}
	chownSpec = optSpec{long: []string{"reference", "from"}}
	xxdSpec   = optSpec{short: "cglosnR"}
	copySpecs = map[string]*optSpec{
		"cp":      &cpSpec,
		"mv":      &cpSpec,
		"install": {short: "tSmog", long: []string{"target-directory", "suffix", "mode", "owner", "group", "strip-program"}},
		"rsync": {short: "efBTM@", long: []string{
			"rsh", "rsync-path", "filter", "exclude", "exclude-from", "include", "include-from",
			"files-from", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap",
			"timeout", "contimeout", "compare-dest", "copy-dest", "link-dest", "compress-choice",
			"compress-level", "checksum-choice", "skip-compress", "max-delete", "max-size",
			"min-size", "max-alloc", "block-size", "partial-dir", "temp-dir", "log-file",
			"log-file-format", "out-format", "password-file", "port", "sockopts", "bwlimit",
			"write-batch", "only-write-batch", "read-batch", "protocol", "iconv", "outbuf",
			"stop-after", "stop-at", "address", "info", "debug", "remote-option", "modify-window"}},
		"scp": {short: "cDFiJloPSX"},
	}
	writerSpecs = map[string]*optSpec{
		"rm":       {},
		"rmdir":    {},
		"unlink":   {},
		"shred":    {short: "ns", long: []string{"iterations", "size", "random-source"}},
		"tee":      {},
		"touch":    {short: "drt", long: []string{"date", "reference", "time"}},
		"mkdir":    {short: "m", long: []string{"mode"}},
		"truncate": {short: "rs", long: []string{"reference", "size"}},
	}
	readerSpecs = map[string]*optSpec{
		"cat":  {},
		"tac":  {short: "s", long: []string{"separator"}},
		"head": {short: "nc", long: []string{"lines", "bytes"}},
		"tail": {short: "ncs", long: []string{"lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"}},
		"less": {short: "bhjkoOpPtTxyz#", long: []string{
			"log-file", "LOG-FILE", "pattern", "prompt", "tag", "tag-file", "tabs", "shift",
			"max-back-scroll", "max-forw-scroll", "window", "buffers", "jump-target",
			"lesskey-file", "header", "line-num-width", "status-col-width", "wheel-lines"}},
		"more":   {short: "n"},
		"bat":    &batSpec,
		"batcat": &batSpec,
		"nl": {short: "bdfhilnsvw", long: []string{
			"body-numbering", "section-delimiter", "footer-numbering", "header-numbering",
			"line-increment", "join-blank-lines", "number-format", "number-separator",
			"starting-line-number", "number-width"}},
		"base64":  {short: "wbio", long: []string{"wrap", "input", "output"}},
		"od":      {short: "AjNSt", optional: "w", long: []string{"address-radix", "skip-bytes", "read-bytes", "format"}},
		"hexdump": {short: "efns", long: []string{"format", "format-file", "length", "skip"}},
		"strings": {short: "nteTs", long: []string{"bytes", "radix", "encoding", "target", "output-separator"}},
		"diff": {short: "CUFIxXSLDW", long: []string{
			"label", "from-file", "to-file", "exclude", "exclude-from", "ignore-matching-lines",
			"show-function-line", "starting-file", "ifdef", "width", "tabsize", "horizon-lines",
			"line-format", "old-line-format", "new-line-format", "unchanged-line-format",
			"old-group-format", "new-group-format", "unchanged-group-format",
			"changed-group-format", "palette"}},
	}
	batSpec = optSpec{short: "lHrm", long: []string{
		"language", "highlight-line", "line-range", "map-syntax", "file-name", "diff-context",
		"tabs", "wrap", "terminal-width", "color", "italic-text", "decorations", "paging",
		"pager", "theme", "theme-light", "theme-dark", "style", "ignored-suffix",
		"squeeze-limit", "nonprintable-notation", "binary", "strip-ansi", "completion"}}
	grepSpec = optSpec{short: "efmABCdD", long: []string{
		"regexp", "file", "max-count", "after-context", "before-context", "context",
		"directories", "devices", "label", "include", "exclude", "exclude-from",
		"exclude-dir", "binary-files", "group-separator"}}
	rgSpec = optSpec{short: "efgtTABCmMjErd", long: []string{
		"regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear",
		"after-context", "before-context", "context", "max-count", "max-columns", "threads",
		"encoding", "replace", "pre", "pre-glob", "ignore-file", "max-depth", "max-filesize",
		"path-separator", "color", "colors", "context-separator", "field-match-separator",
		"field-context-separator", "sort", "sortr", "dfa-size-limit", "regex-size-limit",
		"engine", "hostname-bin", "hyperlink-format", "generate"}}
	sedSpec  = optSpec{short: "efl", optional: "i", long: []string{"expression", "file", "line-length"}}
	perlSpec = optSpec{short: "eEIMm", optional: "iFxdDCV", digits: "l0"}
	awkSpec  = optSpec{short: "fvFeEilW", long: []string{"file", "assign", "field-separator", "source", "exec", "include", "load"}}
	curlSpec = optSpec{short: "AbcCdDeEFHKmoPQrtTuUwxXyYz", long: []string{
		"abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type",
		"ciphers", "config", "connect-timeout", "connect-to", "continue-at", "cookie",
		"cookie-jar", "create-file-mode", "crlfile", "curves", "data", "data-ascii",
		"data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface",
		"dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "engine",
		"etag-compare", "etag-save", "expect100-timeout", "form", "form-string",
		"ftp-account", "ftp-alternative-to-user", "ftp-method", "ftp-port", "header",
		"hostpubmd5", "hostpubsha256", "hsts", "interface", "ip-tos", "json", "keepalive-time",
		"key", "key-type", "krb", "libcurl", "limit-rate", "local-port", "login-options",
		"mail-auth", "mail-from", "mail-rcpt", "max-filesize", "max-redirs", "max-time",
		"netrc-file", "noproxy", "oauth2-bearer", "output", "output-dir", "pass",
		"pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir", "proxy",
		"proxy-cacert", "proxy-cert", "proxy-header", "proxy-key", "proxy-user", "quote",
		"random-file", "range", "rate", "referer", "request", "request-target", "resolve",
		"retry", "retry-delay", "retry-max-time", "service-name", "socks4", "socks4a",
		"socks5", "socks5-hostname", "speed-limit", "speed-time", "stderr", "telnet-option",
		"time-cond", "tls-max", "trace", "trace-ascii", "unix-socket", "upload-file", "url",
		"url-query", "user", "user-agent", "variable", "write-out"}}
	wgetSpec = optSpec{short: "eoaiBtOTwQPUlARDIX", long: []string{
		"execute", "output-file", "append-output", "input-file", "base", "config",
		"bind-address", "tries", "output-document", "backups", "timeout", "dns-timeout",
		"connect-timeout", "read-timeout", "limit-rate", "wait", "waitretry", "quota",
		"directory-prefix", "user-agent", "level", "accept", "reject", "accept-regex",
		"reject-regex", "domains", "exclude-domains", "include-directories",
		"exclude-directories", "user", "password", "http-user", "http-password", "ftp-user",
		"ftp-password", "header", "post-data", "post-file", "body-data", "body-file", "method",
		"referer", "save-cookies", "load-cookies", "certificate", "private-key",
		"ca-certificate", "ca-directory", "restrict-file-names", "proxy-user",
		"proxy-password", "default-page", "cut-dirs", "progress"}}
)

// operands returns the operands of args, GNU style.
func operands(args []Word, spec *optSpec) []Word {
	_, ops, _ := scanOpts(args, spec, true)
	return ops
}

// notStdio drops the "-" that stands for stdin or stdout.
func notStdio(ws []Word) []Word {
	return without(ws, func(w Word) bool { return w.Value == "-" })
}

// dropCommands drops the +CMD operands of less and more, which are
// commands to run at start, not files.
func dropCommands(ws []Word) []Word {
	return without(ws, func(w Word) bool { return strings.HasPrefix(w.Value, "+") })
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

// chmodFiles returns chmod's files. Its options are c, f, v, R and long
// ones; any other word starting with "-" is a mode (chmod -x f), and the
// first operand is the mode unless --reference gives one.
func chmodFiles(args []Word) []Word {
	var ops []Word
	ref, end := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v := a.Value; !end && a.Known && len(v) > 1 && v[0] == '-' {
			switch {
			case v == "--":
				end = true
				continue
			case v == "--reference":
				ref = true
				i++
				continue
			case strings.HasPrefix(v, "--"):
				ref = ref || strings.HasPrefix(v, "--reference=")
				continue
			case strings.Trim(v[1:], "cfvR") == "":
				continue
			}
		}
		ops = append(ops, a)
	}
	if !ref && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops
}

// sedFiles returns sed's file operands and whether it edits them in
// place. The script is the first operand unless -e or -f gives it.
func sedFiles(args []Word) (files []Word, inPlace bool) {
	opts, ops, _ := scanOpts(bsdInPlace(args), &sedSpec, true)
	if !has(opts, 'e', "expression") && !has(opts, 'f', "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops, has(opts, 'i', "in-place")
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

// perlFiles returns the files perl reads as input (its @ARGV after the
// script) and whether -i edits them in place. Perl stops reading switches
// at the first operand; the script is that operand unless -e or -E gives it.
func perlFiles(args []Word) (files []Word, inPlace bool) {
	opts, _, i := scanOpts(args, &perlSpec, false)
	ops := args[i:]
	if !has(opts, 'e', "") && !has(opts, 'E', "") && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops, has(opts, 'i', "")
}

// awkFiles returns the input files of awk: the operands after the program
// (unless -f, -E or --source gives it), without the VAR=value assignments.
// awk stops reading options at the program.
func awkFiles(args []Word) []Word {
	opts, _, i := scanOpts(args, &awkSpec, false)
	ops := args[i:]
	if !has(opts, 'f', "file") && !has(opts, 'E', "exec") && !has(opts, 'e', "source") && len(ops) > 0 {
		ops = ops[1:]
	}
	var out []Word
	for _, o := range ops {
		if !isAssign(o) {
			out = append(out, o)
		}
	}
	return out
}

// grepFiles returns the files grep or rg searches.
func grepFiles(base string, args []Word) []Word {
	spec, recursive := &grepSpec, false
	if base == "rg" {
		spec, recursive = &rgSpec, true
	}
	opts, ops, _ := scanOpts(args, spec, true)
	if base == "rg" && has(opts, 0, "files") {
		return nil // lists file names only
	}
	if !has(opts, 'e', "regexp") && !has(opts, 'f', "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	recursive = recursive || has(opts, 'r', "recursive") || has(opts, 'R', "dereference-recursive")
	if recursive && len(ops) == 0 {
		return []Word{{Value: ".", Known: true}}
	}
	return ops
}

// ddOperand returns the value of dd's key= operand (the last one wins).
func ddOperand(args []Word, key string) []Word {
	for i := len(args) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(args[i].Value, key); ok {
			return []Word{part(args[i], v)}
		}
	}
	return nil
}

// findWrites returns the files find's -fprint actions write and, with
// -delete, its starting points (what it deletes lies under them).
func findWrites(args []Word) []Word {
	i := 0
	for i < len(args) && args[i].Known {
		v := args[i].Value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			i++
		} else if v == "-D" {
			i = min(i+2, len(args)) // -D debugopts
		} else {
			break
		}
	}
	start := i
	for i < len(args) && !findExpr(args[i]) {
		i++
	}
	roots := args[start:i:i]
	var out []Word
	deletes := false
	for ; i < len(args); i++ {
		if !args[i].Known {
			continue
		}
		switch args[i].Value {
		case "-delete":
			deletes = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			for i+1 < len(args) && !(args[i+1].Known && (args[i+1].Value == ";" || args[i+1].Value == "+")) {
				i++ // the command's words are not find's
			}
		}
	}
	if deletes {
		if len(roots) == 0 {
			roots = []Word{{Value: ".", Known: true}}
		}
		out = append(out, roots...)
	}
	return out
}

// findExpr reports whether a starts find's expression.
func findExpr(a Word) bool {
	if !a.Known {
		return false
	}
	v := a.Value
	return (len(v) > 1 && v[0] == '-') || v == "(" || v == "!" || v == ","
}
