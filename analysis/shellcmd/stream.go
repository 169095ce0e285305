package shellcmd

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line can hide what it runs in text it makes itself: echo
// 'rm -rf /' | bash, bash <<< "$(cat <<EOF ...)", a script written with
// echo and then run. So the walker follows the standard output of the
// commands it lists into the pipe, substitution or file that takes it,
// and keeps the text wherever every command writing there prints text
// known without running anything (echo and printf of known words, cat of
// known text, pwd in a known directory). Text that cannot be known that
// way is marked unknown, never guessed.

// stream is text that commands write: a pipe, a substitution's output,
// or a file written in the command line.
type stream struct {
	b     strings.Builder
	known bool
	// temp: the text is the name of a fresh file or directory that one
	// mktemp printed (its random part is not known).
	temp bool
	// writers counts the commands that wrote to it, for temp.
	writers int
}

// maxStream bounds the text kept of one stream: a larger one is unknown.
const maxStream = 1 << 16

func newStream() *stream { return &stream{known: true} }

// write adds what one command printed.
func (s *stream) write(text string, known, temp bool) {
	if s == nil {
		return
	}
	s.writers++
	s.temp = temp && s.writers == 1
	if !known || temp || s.b.Len()+len(text) > maxStream {
		s.known = false
		return
	}
	s.b.WriteString(text)
}

// unknown marks the stream as not known: something whose output cannot be
// told wrote to it, or may have.
func (s *stream) unknown() {
	if s != nil {
		s.known = false
		s.temp = false
		s.writers++
	}
}

// word returns the stream as the text a reader gets.
func (s *stream) word(raw string) Word {
	if s == nil || !s.known {
		w := Word{Raw: raw, Value: raw}
		if s != nil && s.temp {
			w.Temp = true
		}
		return w
	}
	return Word{Raw: raw, Value: s.b.String(), Known: true}
}

// Input is text a command reads on its standard input that the command
// line itself gives it.
type Input struct {
	// From says where it comes from: "heredoc", "here-string", "pipe" (an
	// earlier stage of the pipeline) or "file" (< FILE).
	From string
	// Text is the text; Known is false when it is only known at run time
	// (a download, a command's output, a file's content).
	Text Word
	// disk: a file the line did not write (read as a script on disk).
	disk bool
}

// output says what c prints on its standard output, when that is known
// without running anything: the text, and whether it is known. temp
// reports a fresh name made by mktemp.
func (w *walker) output(c *Command) (text string, known, temp bool) {
	if c.Code != nil {
		return "", false, false
	}
	switch c.Base() {
	case "echo":
		text, known = echoOutput(c.Args)
	case "printf":
		text, known = printfOutput(c.Args)
	case "cat":
		text, known = w.catOutput(c)
	case "pwd":
		if len(c.Args) == 0 || (len(c.Args) == 1 && c.Args[0].Known && c.Args[0].Value == "-L") {
			text, known = c.Dir+"\n", c.Dir != ""
		}
	case "git":
		if len(c.Args) == 2 && c.Args[0].Known && c.Args[0].Value == "rev-parse" && c.Args[1].Known &&
			c.Args[1].Value == "--show-toplevel" && c.Dir != "" && w.opts.GitTop != nil {
			if top := w.opts.GitTop(c.Dir); top != "" {
				text, known = top+"\n", true
			}
		}
	case "mktemp":
		if !slices1(c.Args, func(a Word) bool { return !a.Known }) {
			return "", false, true
		}
	case "true", ":", "cd", "export", "local", "declare", "readonly", "typeset", "unset", "shift", "alias", "set":
		// Silent: they print nothing (cd without -P prints only for
		// CDPATH, alias and set only when given nothing to do).
		if c.Base() == "alias" || c.Base() == "set" || c.Base() == "export" || c.Base() == "declare" || c.Base() == "typeset" {
			return "", len(c.Args) > 0, false
		}
		return "", true, false
	}
	return text, known, false
}

// slices1 reports whether any word of ws satisfies f.
func slices1(ws []Word, f func(Word) bool) bool {
	for _, w := range ws {
		if f(w) {
			return true
		}
	}
	return false
}

// echoOutput is what bash's builtin echo prints: its words joined by
// spaces, after options -n, -e and -E (a word of only those letters).
// With -e, text with a backslash is not worked out: unknown.
func echoOutput(args []Word) (string, bool) {
	newline, escapes := true, false
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known || len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		for _, ch := range v[1:] {
			switch ch {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
	}
	var b strings.Builder
	for j, a := range args[i:] {
		if !a.Known || a.Glob || (escapes && strings.Contains(a.Value, `\`)) {
			return "", false
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
	}
	if newline {
		b.WriteByte('\n')
	}
	return b.String(), true
}

// printfOutput is what printf FORMAT ARGS prints, for formats of text,
// backslash escapes, %s, %b without escapes in its argument, and %%; the
// format is reused while arguments remain, as printf does. Anything else
// is unknown.
func printfOutput(args []Word) (string, bool) {
	if len(args) > 0 && args[0].Known && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 || slices1(args, func(a Word) bool { return !a.Known || a.Glob }) {
		return "", false
	}
	format, rest := args[0].Value, args[1:]
	if strings.HasPrefix(format, "-") {
		return "", false // -v VAR assigns instead of printing
	}
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '\\' && i+1 < len(format):
				n, ok := printfEscape(&b, format[i+1:])
				if !ok {
					return "", false
				}
				i += n
			case ch == '%' && i+1 < len(format):
				i++
				switch format[i] {
				case '%':
					b.WriteByte('%')
				case 's', 'b':
					if used < len(rest) {
						v := rest[used].Value
						if format[i] == 'b' && strings.Contains(v, `\`) {
							return "", false
						}
						b.WriteString(v)
					}
					used++
				default:
					return "", false
				}
			case ch == '%':
				return "", false
			default:
				b.WriteByte(ch)
			}
			if b.Len() > maxStream {
				return "", false
			}
		}
		if used == 0 || used >= len(rest) {
			return b.String(), true
		}
		rest = rest[used:]
	}
}

// printfEscape writes the escape at the start of s (after the backslash)
// and returns how many bytes it took.
func printfEscape(b *strings.Builder, s string) (int, bool) {
	switch s[0] {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"', '\'':
		b.WriteByte(s[0])
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, n := digits(s, 8, 3)
		b.WriteByte(byte(v))
		return n, true
	default:
		return 0, false
	}
	return 1, true
}

// catOutput is what cat prints without options: its stdin (no operand,
// or -) and the files this command line wrote with known text.
func (w *walker) catOutput(c *Command) (string, bool) {
	var b strings.Builder
	ops := c.Args
	if len(ops) == 0 {
		ops = []Word{{Value: "-", Known: true}}
	}
	for _, a := range ops {
		if !a.Known || a.Glob || (a.IsFlag() && a.Value != "--") {
			return "", false
		}
		if a.Value == "--" {
			continue
		}
		var s *stream
		if a.Value == "-" {
			if c.Stdin == nil || !c.Stdin.Text.Known {
				return "", false
			}
			b.WriteString(c.Stdin.Text.Value)
			continue
		}
		s = w.file(a, c.Dir)
		if s == nil || !s.known {
			return "", false
		}
		b.WriteString(s.b.String())
	}
	return b.String(), true
}

// file returns the stream of the file a names (from dir) if this command
// line wrote it, else nil.
func (w *walker) file(a Word, dir string) *stream {
	p, ok := absPath(a, dir)
	if !ok {
		return nil
	}
	return w.files[p]
}

// absPath makes a known path absolute against dir.
func absPath(a Word, dir string) (string, bool) {
	if !a.Known || a.Glob || a.Value == "" {
		return "", false
	}
	if path.IsAbs(a.Value) {
		return path.Clean(a.Value), true
	}
	if dir == "" {
		return "", false
	}
	return path.Join(dir, a.Value), true
}

// wrote records what c did to the files it writes: their text is no
// longer known (a redirection of a command whose output is known sets it
// again after the command).
func (w *walker) wrote(c *Command) {
	for _, e := range c.Effects() {
		if e.Op == Read || e.Op == Meta || e.Op == Link {
			continue
		}
		if p, ok := absPath(e.Path, c.Dir); ok {
			if w.files == nil {
				w.files = map[string]*stream{}
			}
			s := w.files[p]
			if s == nil {
				s = &stream{}
				w.files[p] = s
			}
			s.known, s.temp = false, false
		} else if e.Path.Known && e.Path.Glob || !e.Path.Known {
			// A write whose target is not known may be any file: the
			// text of every file written so far is no longer sure.
			for _, s := range w.files {
				s.known = false
			}
		}
	}
	if c.Base() == "tee" && c.Stdin != nil {
		for _, op := range teeOptions.Parse(c.Args).Operands {
			if p, ok := absPath(op, c.Dir); ok && c.Stdin.Text.Known {
				s := newStream()
				s.write(c.Stdin.Text.Value, true, false)
				w.files[p] = s
			}
		}
	}
}

// sink opens the stream a statement's standard output goes to after its
// redirections io, and returns a function that records it as the file's
// text once the statement ran. Output moved to another fd, /dev/null or a
// file that cannot be named is not followed.
func (w *walker) sink(io stmtIO, c ctx) (*stream, func()) {
	if !io.moved {
		return c.out, func() {}
	}
	if io.outPath == "" || isDevice(io.outPath) {
		return nil, func() {}
	}
	s := newStream()
	if io.appends {
		if prev := w.files[io.outPath]; prev == nil || !prev.known {
			s.known = false
		} else {
			s.b.WriteString(prev.b.String())
		}
	}
	return s, func() {
		if w.files == nil {
			w.files = map[string]*stream{}
		}
		w.files[io.outPath] = s
	}
}

// isDevice reports whether a clean absolute path names a device (/dev/null,
// /dev/stderr, a terminal) rather than a file: everything under /dev but
// /dev/shm, a tmpfs of ordinary files where a script can be written and run.
func isDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/") && !strings.HasPrefix(p, "/dev/shm/")
}

// heredoc returns the body of a heredoc as the command reads it: with a
// quoted delimiter as written, otherwise with its expansions done (as in
// double quotes: no globbing, no splitting); <<- strips leading tabs.
func (w *walker) heredoc(r *syntax.Redirect, c ctx, dir string) Word {
	quoted := false
	for _, p := range r.Word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			quoted = quoted || strings.Contains(x.Value, `\`)
		}
	}
	var raw string
	if r.Hdoc != nil { // an empty body has no word at all
		raw = c.text(r.Hdoc)
	}
	var out Word
	switch {
	case r.Hdoc == nil:
		out = Word{Known: true}
	case quoted:
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			}
		}
		out = Word{Raw: raw, Value: b.String(), Known: true}
	default:
		start := len(w.script.Commands)
		e := expander{w: w, c: c, dir: dir, known: true}
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				hdocUnescape(&e.b, l.Value)
			} else {
				e.expansion(p, true)
			}
		}
		out = Word{Raw: raw, Value: e.b.String(), Known: e.known}
		if n := len(w.script.Commands); n > start {
			out.Inner = w.script.Commands[start:n:n]
		}
	}
	if r.Op == syntax.DashHdoc {
		lines := strings.SplitAfter(out.Value, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		out.Value = strings.Join(lines, "")
	}
	return out
}

// hdocUnescape writes the literal text of an unquoted heredoc body, where
// a backslash quotes only $, `, \ and newline.
func hdocUnescape(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
}
