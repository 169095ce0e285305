package shellcmd

import (
	"strings"
	"sync"
)

// The scan over tokens. It follows call chains (os.path.join(...),
// require('fs').rmSync(...), Path("x").unlink()) through a few kinds of
// value: a name it knows the meaning of (a module, one of its functions),
// a method of something unknown, a path object. Every call and every
// mention of a function that deletes, reads, writes, runs a command or
// evaluates code goes to that function's handler in the language's table.
//
// The scan is linear: each token starts at most one chain, a chain steps
// over its arguments by the brackets' precomputed partners, and a
// handler reads only its own call's top-level arguments, up to the first
// one that is not a literal.

type vkind uint8

const (
	vUnknown vkind = iota
	vName          // a name whose meaning the scan knows: "os", "os.remove", "child_process"
	vMethod        // a method of a value the scan does not know, or of a path object
	vPath          // a path object made from a literal: Path("x"), Pathname.new("x")
)

type val struct {
	kind vkind
	name string // vName: the qualified name, dot-separated; vMethod: the method
	path *Word  // vPath, and vMethod of a path object: the path
}

// arg is one argument of a call: tokens [lo, hi).
type arg struct {
	lo, hi int
	kw     string // a keyword argument's name (shell=, recursive:)
	// spread: it may stand for any number of values (*args, ...xs, @list,
	// a Perl call), so the positions after it are not known.
	spread bool
}

// call is one call of a function the tables know, or one mention of it
// (ref): handing os.remove to map() calls it with arguments not seen.
type call struct {
	name    string // qualified name, or the method's name
	lo, hi  int    // its tokens, for messages
	args    []arg
	ref     bool
	more    bool  // arguments may be there that are not seen (Perl's implicit $_)
	open    int   // the opening parenthesis, when args are still to be split (0: none)
	subject *Word // the path object a path method is called on
}

// handler does what one function does to files and commands, and returns
// what the call evaluates to, as far as the scan follows it.
type handler func(s *scanner, c *call) val

// sinkKind says what a function is, for the names around it: a module
// holding a function that deletes, runs or evaluates is sensitive.
type sinkKind uint8

const (
	kFile   sinkKind = iota // reads or writes files
	kRisky                  // deletes, runs commands, evaluates or loads code
	kOpaque                 // cannot be followed: reported as soon as it is named
)

type sink struct {
	h    handler
	kind sinkKind
}

// langSpec is how the scan reads one language.
type langSpec struct {
	member   map[string]bool // member operators: "." "->" "::" "?."
	concat   string          // string concatenation
	adjacent bool            // adjacent literals concatenate ("a" "b")
	// parenless: a function may be called without parentheses (Perl,
	// Ruby), its arguments running to the end of the expression.
	parenless bool
	// noRefs: a function's bare name is no reference to it (PHP reads it
	// as a constant).
	noRefs bool
	// values: modules are values (Python, JavaScript, Ruby), so one
	// handed around is a module the scan loses track of.
	values bool
	// sinks are the functions by qualified name; methods those known by
	// their method name alone, whatever they are called on (rmSync,
	// read_text), because no other common object has them; pathMethods
	// those of a path object.
	sinks, methods, pathMethods map[string]sink
	// known are the root modules whose functions the tables list in full:
	// a function of theirs that is not listed is harmless, and does not
	// fall back to methods (platform.system() is not os.system()).
	known map[string]bool
	// resolve turns an identifier into a qualified name (Perl's CORE::,
	// PHP's case and namespaces, JavaScript's globalThis.).
	resolve func(name string) string
	// statement reads a statement at token i (import, def, use) and
	// returns the index after what it read, or i.
	statement func(s *scanner, i int) int
	// terminators end a parenless call's arguments (Perl's or, Ruby's if).
	terminators map[string]bool
	// str looks at each string literal a chain does not take (PHP's
	// callable strings).
	str func(s *scanner, i int)
	// attrs are attribute names that reach what the scan cannot follow,
	// whatever they are read on (Python's __globals__), and what they reach.
	attrs map[string]string
	// sensitive is every prefix of a risky sink's name (filled by finish).
	sensitive map[string]bool
}

// langSpecs are every language's tables, built on the first scan of
// interpreter code, not at start-up: they are the biggest part of the
// package's data, and most hook calls scan no interpreter code at all.
// A sync.Once rather than a lazy.Value: the tables refer back to the
// scanner (a nested eval scans code), so a variable initialised with a
// builder would be an initialisation cycle, and an init function to break
// it would run in every hook process.
var langSpecs struct {
	once  sync.Once
	specs map[Lang]*langSpec
}

// langSpecOf is lang's tables, nil for a language without any.
func langSpecOf(lang Lang) *langSpec {
	langSpecs.once.Do(func() {
		langSpecs.specs = map[Lang]*langSpec{Python: pythonSpec(), Perl: perlSpec(), Ruby: rubySpec(),
			JavaScript: javascriptSpec(), PHP: phpSpec()}
	})
	return langSpecs.specs[lang]
}

// finish computes what a spec derives from its tables.
func (sp *langSpec) finish() *langSpec {
	sp.sensitive = map[string]bool{}
	for name, k := range sp.sinks {
		if k.kind == kFile {
			continue
		}
		for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
			sp.sensitive[name[:i]] = true
		}
	}
	if sp.known == nil {
		sp.known = map[string]bool{}
	}
	for name := range sp.sinks {
		root, _, _ := strings.Cut(name, ".")
		sp.known[root] = true
	}
	return sp
}

type scanner struct {
	lang  Lang
	spec  *langSpec
	src   string
	toks  []token
	out   *CodeScan
	depth int
	done  []bool // tokens read as part of a chain or statement
	alias map[string]val
	// budget bounds the work: a scan is linear by design, and code
	// built to make some step superlinear ends the scan instead.
	budget *budget
}

func (s *scanner) run() {
	for i := 0; i < len(s.toks); i++ {
		if !s.budget.take(1) {
			s.out.Opaque = append(s.out.Opaque, Opaque{What: "code too complex to scan in bounded time", Raw: cut(s.src)})
			return
		}
		if s.done[i] {
			continue
		}
		t := &s.toks[i]
		switch t.kind {
		case tCmd:
			s.runShell("`...`", s.tokWord(i))
			continue
		case tStr:
			if s.spec.str != nil {
				s.spec.str(s, i)
			}
		case tIdent, tVar:
			if s.spec.statement != nil {
				if n := s.spec.statement(s, i); n > i {
					i = n - 1
					continue
				}
			}
		case tPunct:
			if !s.isMember(i) {
				continue
			}
		default:
			continue
		}
		s.chain(i, false)
	}
}

// chain follows the chain that starts at token i: a primary (a name, a
// variable, a literal, or nothing the scan knows before a member
// operator), then members, calls and subscripts. It returns the chain's
// value. naming says the value is being given a name (x = os.remove), so
// a function or module it ends on is kept track of, not lost.
func (s *scanner) chain(i int, naming bool) val {
	t := &s.toks[i]
	v := val{}
	j := i + 1
	switch {
	case t.kind == tIdent:
		s.done[i] = true
		if s.notAUse(i) {
			return val{}
		}
		if s.isAssign(j) {
			s.assign(i)
			return val{}
		}
		v = s.reached(s.resolve(t.text), i, j)
	case t.kind == tVar && s.lang == Perl && len(t.text) > 1 && t.text[0] == '&' && t.text[1] != '$' && t.text[1] != '{':
		// &name calls name; \&name takes a reference to it.
		s.done[i] = true
		v = s.reached(s.resolve(t.text[1:]), i, j)
		if s.punctAt(i-1) == "\\" {
			s.unused(v, i, j)
			return val{}
		}
	case t.kind == tVar:
		s.done[i] = true
		if s.varCall(i) {
			return val{}
		}
	case t.kind == tPunct:
		j = i // a member of something the scan does not follow
	default:
		s.done[i] = true
	}
	called := false
	for j < len(s.toks) && s.budget.take(1) {
		t := &s.toks[j]
		if s.isMember(j) {
			n := &s.toks[j+1]
			s.done[j] = true
			switch n.kind {
			case tIdent:
				s.done[j+1] = true
				if what, ok := s.spec.attrs[n.text]; ok {
					s.opaque(what+" reached by name", i, j+2)
					return val{}
				}
				v = s.reached(s.member(v, n.text), i, j+2)
				j += 2
				called = false
				continue
			case tVar:
				s.done[j+1] = true
				s.opaque("a method named by a variable", i, j+2)
				return val{}
			}
			v = val{}
			j++ // ?.( and ?.[ call and subscript; Perl's ->( ->[ ->{
			continue
		}
		if t.kind == tStr && t.tmpl && s.lang == JavaScript && v.kind != vUnknown && !t.nl {
			// A tagged template: fn`...` calls fn with the template.
			hi := s.afterSynth(j + 1)
			v = s.invoke(v, &call{lo: i, hi: hi, args: []arg{{lo: j, hi: hi}}})
			j, called = hi, true
			continue
		}
		if t.kind != tPunct {
			break
		}
		if t.text == "(" && !(t.nl && (s.lang == Python || s.lang == Ruby)) {
			open := j
			j, called = min(t.match+1, len(s.toks)), true // an unmatched ( runs to the end
			v = s.invoke(v, &call{lo: i, hi: j, open: open})
			continue
		}
		if t.text == "[" && s.lang != Perl {
			if k := j + 1; k+1 == t.match && s.toks[k].kind == tStr && s.toks[k].known {
				v = s.reached(s.member(v, s.toks[k].val), i, t.match+1) // x["name"] is x.name
				called = false
			} else {
				if s.lostModule(v) {
					s.opaque("a computed member of "+v.name, i, t.match+1)
				}
				v = val{}
			}
			j = min(t.match+1, len(s.toks))
			continue
		}
		break
	}
	switch {
	case called:
		if !naming && s.lostModule(v) {
			s.opaque(v.name+" loaded where the scan cannot follow it", i, j)
		}
	case s.spec.parenless && s.isSink(v):
		// Perl and Ruby call a function named without parentheses; its
		// arguments are the rest of the expression.
		c := &call{lo: i, hi: j}
		if s.termStart(j) {
			c.args, c.hi = s.bareArgs(j)
		} else {
			c.more = s.lang == Perl // Perl's unlink; means unlink $_
		}
		v = s.invoke(v, c)
	case !naming:
		s.unused(v, i, j)
	}
	return v
}

// afterSynth skips the synthetic groups of interpolated code after a
// string token.
func (s *scanner) afterSynth(j int) int {
	for j < len(s.toks) && s.toks[j].synth() && s.toks[j].text == "(" {
		j = s.toks[j].match + 1
	}
	return min(j, len(s.toks))
}

// synth reports a bracket the lexer added around interpolated code.
func (t *token) synth() bool {
	return t.kind == tPunct && t.pos == t.end && (t.text == "(" || t.text == ")")
}

// isMember reports a member operator at i followed by something to access.
func (s *scanner) isMember(i int) bool {
	t := &s.toks[i]
	return t.kind == tPunct && s.spec.member[t.text] && i+1 < len(s.toks)
}

// notAUse reports an identifier that names rather than uses: a keyword
// argument (shell=True), an object key ({exec: 1}), a Perl hash key
// (exec => 1, $h{system}).
func (s *scanner) notAUse(i int) bool {
	next := s.punctAt(i + 1)
	switch s.lang {
	case Python:
		return next == "=" && s.inCall(i)
	case JavaScript, Ruby:
		return next == ":" && s.toks[i+1].pos == s.toks[i].end
	case Perl:
		return next == "=>" || next == "}" && s.punctAt(i-1) == "{"
	case PHP:
		return next == "=>"
	}
	return false
}

// inCall reports that token i sits directly in parentheses.
func (s *scanner) inCall(i int) bool {
	p := s.punctAt(i - 1)
	return p == "(" || p == ","
}

// punctAt returns the punctuation at i, or "".
func (s *scanner) punctAt(i int) string {
	if i < 0 || i >= len(s.toks) || s.toks[i].kind != tPunct {
		return ""
	}
	return s.toks[i].text
}

func (s *scanner) isAssign(j int) bool {
	return s.punctAt(j) == "=" && (s.lang == Python || s.lang == JavaScript || s.lang == Ruby)
}

// assign reads name = value (and a = b = value): a name given a module,
// a function of the tables or a path object stands for it from then on.
// A name assigned twice keeps the last: the scan does not follow control
// flow, and an alias it keeps too long only finds more.
func (s *scanner) assign(i int) {
	names := []string{s.toks[i].text}
	j := i + 2
	for j+1 < len(s.toks) && s.toks[j].kind == tIdent && s.isAssign(j+1) {
		s.done[j] = true
		names = append(names, s.toks[j].text)
		j += 2
	}
	v := val{}
	if j < len(s.toks) && !s.done[j] && (s.toks[j].kind == tIdent || s.toks[j].kind == tVar) {
		v = s.chain(j, true)
	}
	for _, n := range names {
		if v.kind == vUnknown {
			delete(s.alias, n)
		} else {
			s.alias[n] = v
		}
	}
}

// resolve turns an identifier into a value: an alias, or the name itself.
func (s *scanner) resolve(name string) val {
	if v, ok := s.alias[name]; ok {
		return v
	}
	if s.spec.resolve != nil {
		name = s.spec.resolve(name)
	}
	return val{kind: vName, name: name}
}

// reached reports a name that cannot be followed as soon as the chain
// reaches it (sys.modules, ctypes.CDLL), and then follows nothing.
func (s *scanner) reached(v val, lo, hi int) val {
	if v.kind == vName {
		if k, ok := s.spec.sinks[v.name]; ok && k.kind == kOpaque {
			k.h(s, &call{name: v.name, lo: lo, hi: hi, ref: true})
			return val{}
		}
	}
	return v
}

// maxName bounds a qualified name, so that a chain a.b.c... of any
// length costs linear time.
const maxName = 128

// member is v.name.
func (s *scanner) member(v val, name string) val {
	switch v.kind {
	case vName:
		if len(v.name)+len(name) > maxName {
			return val{kind: vMethod, name: name} // no table has a name this long
		}
		q := v.name + "." + name
		if s.spec.resolve != nil {
			q = s.spec.resolve(q)
		}
		return val{kind: vName, name: q}
	case vPath:
		return val{kind: vMethod, name: name, path: v.path}
	}
	return val{kind: vMethod, name: name}
}

// sinkOf finds the handler for v, if the tables know it.
func (s *scanner) sinkOf(v val) (sink, bool) {
	switch v.kind {
	case vName:
		if k, ok := s.spec.sinks[v.name]; ok {
			return k, true
		}
		// A method of a module the tables do not know in full (an alias
		// of fs-extra, a library's client): known by its name alone.
		if dot := strings.LastIndexByte(v.name, '.'); dot > 0 {
			root, _, _ := strings.Cut(v.name, ".")
			if !s.spec.known[root] {
				k, ok := s.spec.methods[v.name[dot+1:]]
				return k, ok
			}
		}
	case vMethod:
		if v.path != nil {
			if k, ok := s.spec.pathMethods[v.name]; ok {
				return k, true
			}
		}
		k, ok := s.spec.methods[v.name]
		return k, ok
	}
	return sink{}, false
}

func (s *scanner) isSink(v val) bool {
	_, ok := s.sinkOf(v)
	return ok
}

// invoke calls v with c's arguments and returns the value of the call.
func (s *scanner) invoke(v val, c *call) val {
	k, ok := s.sinkOf(v)
	if !ok {
		return val{}
	}
	c.name = v.name
	c.subject = v.path
	if c.open > 0 {
		c.args = s.parenArgs(c.open)
	}
	return k.h(s, c)
}

// unused handles a chain that ends on a value not called: a function
// named (map(os.remove, xs)), or a sensitive module handed on.
func (s *scanner) unused(v val, lo, hi int) {
	if k, ok := s.sinkOf(v); ok && !s.spec.noRefs {
		c := &call{name: v.name, lo: lo, hi: hi, ref: true, subject: v.path}
		k.h(s, c)
		return
	}
	if s.lostModule(v) {
		s.opaque(v.name+" used as a value the scan cannot follow", lo, hi)
	}
}

// lostModule reports a module holding risky functions, in a language
// where modules are values.
func (s *scanner) lostModule(v val) bool {
	return v.kind == vName && s.spec.values && s.spec.sensitive[v.name]
}

// varCall handles a variable called as a function: PHP's $f(...) calls
// the function whose name $f holds.
func (s *scanner) varCall(i int) bool {
	if s.lang == PHP && s.punctAt(i+1) == "(" {
		s.opaque("a call of a function named by a variable", i, s.toks[i+1].match+1)
		return true
	}
	return false
}

// parenArgs splits the arguments between the parentheses at open.
func (s *scanner) parenArgs(open int) []arg {
	end := s.toks[open].match
	if end > len(s.toks) {
		end = len(s.toks)
	}
	return s.splitArgs(open+1, end, s.lang == Perl)
}

// splitArgs splits tokens [lo, hi) at top-level commas, and at Perl's
// fat commas (=>) when arrows.
func (s *scanner) splitArgs(lo, hi int, arrows bool) []arg {
	var args []arg
	start := lo
	for j := lo; j < hi && s.budget.take(1); {
		t := &s.toks[j]
		if t.kind == tPunct {
			switch t.text {
			case ",", "=>":
				if t.text == "," || arrows {
					if j > start {
						args = append(args, s.mkArg(start, j))
					}
					start = j + 1
				}
			case "(", "[", "{":
				j = t.match + 1
				continue
			}
		}
		j++
	}
	if hi > start {
		args = append(args, s.mkArg(start, hi))
	}
	return args
}

// mkArg reads a keyword or spread marker at the start of an argument.
func (s *scanner) mkArg(lo, hi int) arg {
	a := arg{lo: lo, hi: hi}
	t := &s.toks[lo]
	switch {
	case t.kind == tIdent && lo+1 < hi && s.punctAt(lo+1) == "=" && s.lang == Python:
		a.kw, a.lo = t.text, lo+2
	case t.kind == tIdent && lo+1 < hi && s.punctAt(lo+1) == ":" && s.lang == Ruby:
		a.kw, a.lo = t.text, lo+2
	case t.kind == tPunct && (t.text == "*" || t.text == "**" || t.text == "..." || t.text == "&"):
		a.spread = true
	case s.lang == Perl:
		a.spread = !s.perlScalar(lo, hi)
	}
	return a
}

// perlScalar reports a Perl argument that is one value: in Perl every
// argument is a list, and only a literal, a scalar variable, a reference
// or a bareword stands for exactly one.
func (s *scanner) perlScalar(lo, hi int) bool {
	t := &s.toks[lo]
	switch t.kind {
	case tStr, tNum, tRegex, tCmd:
		return true
	case tVar:
		return t.text[0] == '$'
	case tIdent:
		switch t.text {
		case "my", "our", "local", "state":
			return lo+1 < hi && s.toks[lo+1].kind == tVar && s.toks[lo+1].text[0] == '$'
		}
		return hi == lo+1
	case tPunct:
		return t.text == "\\"
	}
	return false
}

// termStart reports that token j can start a parenless call's
// arguments: foo "x", foo $x, foo qw(a b), but not foo or..., foo;.
func (s *scanner) termStart(j int) bool {
	if j >= len(s.toks) {
		return false
	}
	t := &s.toks[j]
	if s.lang == Ruby && t.nl {
		return false
	}
	switch t.kind {
	case tStr, tCmd, tList, tNum, tVar, tGlob, tRegex:
		return true
	case tIdent:
		return !s.spec.terminators[t.text]
	case tPunct:
		switch t.text {
		case "[", "\\", "-", "*", "::":
			return true
		case "{":
			return s.lang == Perl // system { $prog } @args
		case "(":
			return true
		}
	}
	return false
}

// bareArgs reads a parenless call's arguments from j: up to the end of
// the statement, a closing bracket, a low-precedence operator, or the
// next call (whose arguments are its own), whichever comes first.
func (s *scanner) bareArgs(j int) ([]arg, int) {
	end := j
	for end < len(s.toks) && s.budget.take(1) {
		t := &s.toks[end]
		if end > j && s.lang == Ruby && t.nl && s.punctAt(end-1) != "," && s.punctAt(end-1) != "\\" {
			break
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				if t.text == "{" && s.lang == Ruby {
					goto out // a block
				}
				end = t.match + 1
				continue
			case ":":
				if s.lang == Ruby && end > j && s.toks[end-1].kind == tIdent && s.toks[end-1].end == t.pos {
					break // a keyword argument: force: true
				}
				goto out // a conditional's branch
			case ";", ")", "]", "}", "||", "&&", "?":
				goto out
			}
		}
		if t.kind == tIdent {
			if s.spec.terminators[t.text] {
				break
			}
			// Another call takes the rest: foo "a", bar "b" is
			// foo("a", bar("b")), and its value, whatever it is, is
			// the last argument. A bareword alone is a value.
			if end+1 < len(s.toks) && s.termStart(end+1) && s.punctAt(end+1) != "::" && !s.toks[end+1].nl {
				args := s.splitArgs(j, end, s.lang == Perl)
				return append(args, arg{lo: end, hi: end + 1, spread: true}), end + 1
			}
		}
		end++
	}
out:
	end = min(end, len(s.toks)) // an unmatched opener runs past the end
	return s.splitArgs(j, end, s.lang == Perl), end
}

// word reads an argument as a string: known when it is literal text.
func (s *scanner) word(a arg) Word {
	if a.spread || a.lo >= a.hi {
		return s.unknownWord(a.lo, a.hi)
	}
	var b strings.Builder
	known := true
	if !s.lit(a.lo, a.hi, &b, &known) {
		return s.unknownWord(a.lo, a.hi)
	}
	raw := s.text(a.lo, a.hi)
	if !known {
		return Word{Raw: raw, Value: raw}
	}
	return Word{Raw: raw, Value: b.String(), Known: true}
}

// tokWord is the word of one string token.
func (s *scanner) tokWord(i int) Word {
	t := &s.toks[i]
	raw := s.src[t.pos:min(t.end, len(s.src))]
	if !t.known {
		return Word{Raw: raw, Value: raw}
	}
	return Word{Raw: raw, Value: t.val, Known: true}
}

func (s *scanner) unknownWord(lo, hi int) Word {
	raw := s.text(lo, hi)
	return Word{Raw: raw, Value: raw}
}

// text is the source of tokens [lo, hi).
func (s *scanner) text(lo, hi int) string {
	if lo < 0 || lo >= hi || lo >= len(s.toks) {
		return ""
	}
	hi = min(hi, len(s.toks))
	start, end := s.toks[lo].pos, s.toks[hi-1].end
	// Interpolated code ends inside its string: the string's end counts.
	for k := hi - 1; k > lo && s.toks[k].synth() && s.toks[k].text == ")" && s.budget.take(1); {
		k = s.toks[k].match - 1
		if k >= lo && k < len(s.toks) {
			end = max(end, s.toks[k].end)
		}
	}
	if start > end || end > len(s.src) {
		return ""
	}
	return s.src[start:end]
}

// lit appends the value of tokens [lo, hi) if they are literal strings
// joined by concatenation, in parentheses: "a" + "b", ('a' . "b"), "a"
// "b" where adjacent literals join. It stops at the first token that is
// not, so a long argument is read once.
func (s *scanner) lit(lo, hi int, b *strings.Builder, known *bool) bool {
	want := true // a string comes next
	depth := 0
	for j := lo; j < hi; j++ {
		if !s.budget.take(1) {
			return false
		}
		t := &s.toks[j]
		switch {
		case t.kind == tStr && (want || s.spec.adjacent):
			if !t.known {
				*known = false
			}
			b.WriteString(t.val)
			want = false
		case t.kind == tPunct && t.text == "(" && want && !t.synth():
			depth++
		case t.kind == tPunct && t.text == ")" && !want && depth > 0:
			depth--
		case t.kind == tPunct && t.text == s.spec.concat && !want:
			want = true
		default:
			return false
		}
	}
	return !want && depth == 0
}

// list reads an argument that is a list literal ([...], (...), qw(...),
// %w[...], array(...)): its words, whether all are known, and whether it
// is a list at all.
func (s *scanner) list(a arg) (ws []Word, known, isList bool) {
	if a.lo >= a.hi || a.lo < 0 {
		return nil, false, false
	}
	t := &s.toks[a.lo]
	if t.kind == tList && a.hi == a.lo+1 {
		for _, v := range t.vals {
			ws = append(ws, Word{Raw: v, Value: v, Known: t.known})
		}
		return ws, t.known, true
	}
	lo := a.lo
	if s.lang == PHP && t.kind == tIdent && strings.EqualFold(t.text, "array") && lo+1 < a.hi {
		lo++
		t = &s.toks[lo]
	}
	if t.kind != tPunct || (t.text != "[" && t.text != "(") || t.match != a.hi-1 {
		return nil, false, false
	}
	known = true
	for _, e := range s.splitArgs(lo+1, t.match, s.lang == Perl) {
		if e.spread && s.lang != Perl || e.kw != "" {
			known = false
			continue
		}
		if w, k, ok := s.list(e); ok && s.lang == Perl {
			ws = append(ws, w...) // Perl's lists flatten
			known = known && k
			continue
		}
		w := s.word(e)
		known = known && w.Known
		ws = append(ws, w)
	}
	return ws, known, true
}

// flat reads arguments the way a Perl list operator takes them: each
// literal a word, each literal list its words, anything else a word not
// known.
func (s *scanner) flat(args []arg) (ws []Word, known bool) {
	known = true
	for _, a := range args {
		if w, k, ok := s.list(a); ok {
			ws = append(ws, w...)
			known = known && k
			continue
		}
		w := s.word(a)
		ws = append(ws, w)
		known = known && w.Known
	}
	return ws, known
}

// pos returns the i-th positional argument. After a spread, or in a
// mention (ref), it is an argument not known; absent, ok is false.
func (c *call) pos(i int) (arg, bool) {
	if c.ref {
		return arg{lo: c.lo, hi: c.hi, spread: true}, true
	}
	n := 0
	for _, a := range c.args {
		if a.kw != "" {
			continue
		}
		if a.spread {
			return a, true
		}
		if n == i {
			return a, true
		}
		n++
	}
	if c.more {
		return arg{lo: c.lo, hi: c.hi, spread: true}, true
	}
	return arg{}, false
}

// kwArg returns the keyword argument name.
func (c *call) kwArg(name string) (arg, bool) {
	for _, a := range c.args {
		if a.kw == name {
			return a, true
		}
	}
	return arg{}, false
}

// argOr returns positional i, or the keyword kw.
func (c *call) argOr(i int, kw string) (arg, bool) {
	if kw != "" {
		if a, ok := c.kwArg(kw); ok {
			return a, true
		}
	}
	return c.pos(i)
}

// positional returns the positional arguments from i on.
func (c *call) positional(from int) []arg {
	if c.ref || c.more && len(c.args) == 0 {
		return []arg{{lo: c.lo, hi: c.hi, spread: true}}
	}
	var out []arg
	n := 0
	for _, a := range c.args {
		if a.kw != "" {
			continue
		}
		if n >= from || a.spread {
			out = append(out, a)
		}
		n++
	}
	return out
}

// boolArg reads a literal true or false; known is false for anything else.
func (s *scanner) boolArg(a arg) (v, known bool) {
	if a.spread || a.hi != a.lo+1 {
		return false, false
	}
	switch s.toks[a.lo].text {
	case "True", "true", "1":
		return true, s.toks[a.lo].kind != tStr
	case "False", "false", "0", "nil", "None", "undef", "null":
		return false, s.toks[a.lo].kind != tStr
	}
	return false, false
}

// field reads key in an object or hash literal argument ({recursive:
// true}, {shell => 1}): its value, whether the key is there, and whether
// the argument is a literal the scan could read (no spread, no computed
// key), so that a missing key means absent.
func (s *scanner) field(a arg, key string) (v arg, found, readable bool) {
	if a.spread || a.lo >= a.hi {
		return arg{}, false, false
	}
	t := &s.toks[a.lo]
	if t.kind != tPunct || t.text != "{" || t.match != a.hi-1 {
		return arg{}, false, false
	}
	readable = true
	for _, e := range s.splitArgs(a.lo+1, t.match, false) {
		k := &s.toks[e.lo]
		if e.spread || s.punctAt(e.lo) == "..." {
			readable = false
			continue
		}
		name := ""
		switch {
		case k.kind == tIdent || k.kind == tStr && k.known:
			name = k.text
			if k.kind == tStr {
				name = k.val
			}
		default:
			readable = false
			continue
		}
		sep := s.punctAt(e.lo + 1)
		if e.lo+1 >= e.hi {
			if name == key {
				return arg{}, true, false // shorthand {shell}: a variable's value
			}
			continue
		}
		if sep != ":" && sep != "=>" {
			readable = false
			continue
		}
		if name == key {
			return arg{lo: e.lo + 2, hi: e.hi}, true, true
		}
	}
	return arg{}, false, readable
}

// flag reads a true/false option: a keyword argument, or a field of an
// options object at position i ({recursive: true}). It reports true when
// the option is true or cannot be read, so that a guard assumes the worse.
func (s *scanner) flag(c *call, i int, kw string) bool {
	if a, ok := c.kwArg(kw); ok {
		v, known := s.boolArg(a)
		return v || !known
	}
	a, ok := c.pos(i)
	switch {
	case !ok:
		return false
	case a.spread:
		return true
	}
	if v, known := s.boolArg(a); known {
		return v
	}
	f, found, readable := s.field(a, kw)
	switch {
	case found && readable:
		v, known := s.boolArg(f)
		return v || !known
	case found:
		return true // {shell}: a variable's value
	}
	return !readable // absent from a literal is false; a variable may hold it
}

// effect records what the code does to a file.
func (s *scanner) effect(op Op, tree bool, w Word) {
	s.out.Effects = append(s.out.Effects, Effect{Op: op, Path: w, Tree: tree})
}

// runShell records a command line handed to a shell.
func (s *scanner) runShell(fn string, w Word) {
	s.out.Runs = append(s.out.Runs, CodeRun{Call: fn, Shell: true, Line: w, Known: w.Known})
}

// runArgv records a program run without a shell.
func (s *scanner) runArgv(fn string, argv []Word, known bool) {
	for _, w := range argv {
		known = known && w.Known
	}
	if len(argv) == 0 {
		known = false
	}
	s.out.Runs = append(s.out.Runs, CodeRun{Call: fn, Argv: argv, Known: known})
}

// opaque records a construct the scan cannot follow: tokens [lo, hi).
func (s *scanner) opaque(what string, lo, hi int) {
	s.out.Opaque = append(s.out.Opaque, Opaque{What: what, Raw: cut(s.text(lo, hi))})
}

// evalCode scans code given to eval: a literal is scanned as code of the
// same language, a few levels deep; anything else cannot be followed.
func (s *scanner) evalCode(w Word, raw string) {
	switch {
	case !w.Known:
		s.out.Opaque = append(s.out.Opaque, Opaque{What: "code built at run time and evaluated", Raw: cut(raw)})
	case s.depth+1 > maxCodeDepth:
		s.out.Opaque = append(s.out.Opaque, Opaque{What: "evaluated code nested too deep to follow", Raw: cut(raw)})
	default:
		scanCode(s.lang, w.Value, s.depth+1, s.out)
	}
}
