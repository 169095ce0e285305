package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/secretpaths"
)

// DefaultSecretPaths are the default secret paths
// (internal/secretpaths/secret-paths.txt), read on first use.
func DefaultSecretPaths() []string { return secretpaths.Default() }

// protectedPaths keeps tool calls away from paths the project protects
// (default on). Reading means showing a file's content to the model
// (Read, Grep's path, cat/head/grep/cp-from... in Bash, and every file a
// search or archive of a folder selects: protected_trees.go); writing means
// changing or deleting it (Write, Edit, MultiEdit, NotebookEdit, and in
// Bash every redirection and the path operands of rm, mv, cp, tee,
// sed -i, truncate, chmod and the like, through sudo, env, xargs and
// bash -c). Paths are followed as the kernel follows them (see fspath),
// from the call's working directory, before matching, so neither
// "a/../.env" nor a link to .env gets past, and a hard link of .env is
// .env (hardlinks.go).
//
//	options:
//	  read:   [...]   # replace the default read list
//	  write:  [...]   # replace the default write list
//	  except: [...]   # replace the default exceptions (templates)
//	  add: {read: [...], write: [...], except: [...]}   # extend them
//	  outside_project: deny       # or allow: writes outside the project
//	  unparsable: deny            # or allow: a Bash command the parser cannot read
//	  env_secrets: deny           # or allow: printing or sending a secret environment variable
//	  outside_allowed: [...]      # replace the places outside it that may be written
//
// Patterns are doublestar globs, matched against the path relative to the
// project when it is inside, absolute otherwise (so "**/.env" also covers
// ~/.env).
type protectedPaths struct {
	read, write, except []string
	outsideDeny         bool
	outsideAllowed      []string
	// unparsableAllow lets a Bash command the parser cannot read pass
	// with a note; by default it is denied, as what it touches is unknown.
	unparsableAllow bool
	// envSecretsAllow lets a command print a secret environment variable
	// (or every variable) or send one as a request's body; by default
	// that is a secret read, denied.
	envSecretsAllow bool
}

// Secrets are protected from reading and writing; .git internals and
// massgen-hook's own files from writing (git, and the hook, manage them).
var (
	// defaultWriteOnly: .git internals, which git manages. The guards' own
	// wiring (defaultWiring) is added to every write list, given or not.
	defaultWriteOnly = []string{"**/.git", "**/.git/**"}
	// DefaultExcept: templates of .env, and the public half of an SSH key
	// (~/.ssh/id_* covers id_ed25519.pub too; it is meant to be shared).
	DefaultExcept = []string{"**/.env.example", "**/.env.sample", "**/.env.template", "**/.env.dist", "~/.ssh/id_*.pub"}
	// defaultOutsideAllowed are the places outside the project a call may
	// write: temporary files, the null and standard devices, and Claude
	// Code's plan files. $TMPDIR is added at check time.
	defaultOutsideAllowed = []string{
		"/tmp/**", "/private/tmp/**", "/var/tmp/**", "/var/folders/**",
		"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/*", // devicePatterns
		"~/.claude/plans/**",
	}
)

type protectedOptions struct {
	Read           *[]string `yaml:"read"`
	Write          *[]string `yaml:"write"`
	Except         *[]string `yaml:"except"`
	Add            pathLists `yaml:"add"`
	OutsideProject string    `yaml:"outside_project"`
	Unparsable     string    `yaml:"unparsable"`
	EnvSecrets     string    `yaml:"env_secrets"`
	OutsideAllowed *[]string `yaml:"outside_allowed"`
}

type pathLists struct {
	Read           []string `yaml:"read"`
	Write          []string `yaml:"write"`
	Except         []string `yaml:"except"`
	OutsideAllowed []string `yaml:"outside_allowed"`
}

func NewProtectedPaths(options *yaml.Node) (engine.Builtin, error) {
	var o protectedOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	p := &protectedPaths{
		read:           listOf(o.Read, secretpaths.Shared(), o.Add.Read),
		except:         listOf(o.Except, DefaultExcept, o.Add.Except),
		outsideAllowed: listOf(o.OutsideAllowed, defaultOutsideAllowed, o.Add.OutsideAllowed),
	}
	switch o.OutsideProject {
	case "", "deny":
		p.outsideDeny = true
	case "allow":
	default:
		return nil, fmt.Errorf("outside_project: use deny or allow, got %q", o.OutsideProject)
	}
	switch o.Unparsable {
	case "", "deny":
	case "allow":
		p.unparsableAllow = true
	default:
		return nil, fmt.Errorf("unparsable: use deny or allow, got %q", o.Unparsable)
	}
	switch o.EnvSecrets {
	case "", "deny":
	case "allow":
		p.envSecretsAllow = true
	default:
		return nil, fmt.Errorf("env_secrets: use deny or allow, got %q", o.EnvSecrets)
	}
	// The running binary is protected too (see writes), once a call asks.
	if o.Write != nil {
		p.write = slices.Concat(*o.Write, o.Add.Write, defaultWiring)
	} else {
		p.write = slices.Concat(secretpaths.Shared(), defaultWriteOnly, o.Add.Write, defaultWiring)
	}
	// The patterns the options give are checked; the defaults are valid
	// (TestDefaultPatternsAreValid), and checking their hundred on every
	// call cost more than matching them.
	for _, l := range []struct {
		key  string
		list []string
	}{
		{"read", deref(o.Read)}, {"read", o.Add.Read},
		{"write", deref(o.Write)}, {"write", o.Add.Write},
		{"except", deref(o.Except)}, {"except", o.Add.Except},
		{"outside_allowed", deref(o.OutsideAllowed)}, {"outside_allowed", o.Add.OutsideAllowed},
	} {
		for _, pat := range l.list {
			if !validPattern(pat) {
				return nil, fmt.Errorf("%s: %q is not a valid glob pattern", l.key, pat)
			}
		}
	}
	return p, nil
}

// listOf is the list given, else def, with add after it. Without add it
// is that very array, capped so that an append copies it: the defaults
// are shared by every check made, and no one changes an element.
func listOf(given *[]string, def, add []string) []string {
	if given != nil {
		def = *given
	}
	return append(slices.Clip(def), add...)
}

// validPattern reports whether pat, a protected_paths pattern (~/ for the
// home), is a glob doublestar can match.
func validPattern(pat string) bool { return doublestar.ValidatePattern(strings.TrimPrefix(pat, "~/")) }

// deref is the list given, or none.
func deref(list *[]string) []string {
	if list == nil {
		return nil
	}
	return *list
}

// pathField is where a tool names a path, and whether the tool writes it.
type pathField struct {
	Field string
	Write bool
}

// FileTool is, for the built-in tools that name one path, its field and
// whether they write it; ok is false for other tools. Glob and LS list
// names, not content: not reads.
func FileTool(tool string) (f pathField, ok bool) {
	switch tool {
	case "Read":
		return pathField{"file_path", false}, true
	case "Write", "Edit", "MultiEdit":
		return pathField{"file_path", true}, true
	case "NotebookEdit":
		return pathField{"notebook_path", true}, true
	}
	return pathField{}, false
}

func (p *protectedPaths) Check(ctx context.Context, call *engine.Call) (engine.Verdict, error) {
	g := p.guardFor(call)
	if call.Event.ToolName == searchTool {
		return g.verdict(g.searchTool(ctx, call)), nil
	}
	if v, found := g.toolPaths(ctx, call); found {
		return v, nil
	}
	if ft, ok := FileTool(call.Event.ToolName); ok {
		path := gjson.GetBytes(call.ToolInput, ft.Field)
		if path.Type != gjson.String || path.Str == "" {
			return engine.Verdict{}, nil
		}
		return g.verdict(g.judge(path.Str, g.Cwd, ft.Write, true)), nil
	}
	if v, found, err := p.protectedTool(ctx, call, g); found {
		return v, err
	}
	script, ok, err := bashScript(call, g.shellCall)
	if !ok {
		if v, err := judgeCommands(ctx, call, unknownCommands(call), p.Check); err != nil || v.Decision != "" {
			return v, err
		}
		return g.unknownTool(call), nil
	}
	g.command = gjson.GetBytes(call.ToolInput, "command").Str // for shellHidesDots
	if err != nil {
		if p.unparsableAllow {
			return engine.Verdict{Notes: []string{uncheckedNote(err)}}, nil
		}
		return engine.Verdict{Decision: engine.Deny,
			Reason: fmt.Sprintf("⚠️ BLOCKED: %s. %s", unparsableWhat(err), unparsableInstead)}, nil
	}
	effects := make([][]shellcmd.Effect, len(script.Commands))
	var ignores lineIgnores
	for i, c := range script.Commands {
		effects[i] = c.Effects()
	}
	ignores.read(script.Commands, effects, g.Cwd)
	for i, c := range script.Commands {
		for _, e := range effects[i] {
			if c.Skipped(e, pathExists) {
				continue // `[ -f .env ] || cp x .env` with .env there: cp never runs
			}
			if e.Select != nil && e.Select.Staged {
				e.Select = ignores.staging(e.Select)
			}
			if user, ok := e.Path.NoSuchUserHome(); ok && e.Op != shellcmd.Read {
				return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: fmt.Sprintf(
					"⚠️ BLOCKED: %s names the home directory of %s, a user this machine does not have (bash would take it as a folder here), so where this write lands cannot be told. Give the path in full.", e.Path.Raw, user)}, nil
			}
			// Giving a protected file another name is writing it: what is
			// done through the new name is done to it. rm, unlink and mv
			// act on a symlink itself; the rest act through it.
			follow := e.Op != shellcmd.Delete && e.Op != shellcmd.Move
			if v := g.word(e.Path, c.Dir, e.Op != shellcmd.Read, follow, expandedAsWritten(c)); v != nil {
				return g.verdict(v), nil
			}
			if f := g.tree(ctx, e, c.Dir); f != nil {
				return g.verdict(f), nil
			}
			if holdsOp(c, e) {
				if v := g.holds(e.Path, c.Dir); v != nil {
					return g.verdict(v), nil
				}
			}
		}
		if f := g.gitRewrite(ctx, script.Commands, i); f != nil {
			return g.verdict(f), nil
		}
		if reason := g.gitInSecretFolder(c); reason != "" {
			return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: reason}, nil
		}
	}
	if p.envSecretsAllow {
		return g.verdict(nil), nil
	}
	if ps := shellcmd.SecretPrints(script); len(ps) > 0 {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: secretPrintReason(ps[0])}, nil
	}
	if ss := shellcmd.SecretSends(script); len(ss) > 0 {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: secretSendReason(ss[0])}, nil
	}
	return g.verdict(nil), nil
}

// secretSendReason is the denial of a command that sends a secret
// environment variable's bare value as a request's whole body: the value
// leaves the machine, which no service needs.
func secretSendReason(s shellcmd.SecretSend) string {
	return fmt.Sprintf("⚠️ BLOCKED: %s sends $%s, an environment variable whose name marks it as a secret, as the whole body of a request: its value would leave the machine. "+
		"Hand a secret to the service it belongs to as a credential (curl -H \"Authorization: Bearer $%s\" …), never as the data sent; if it really must be sent, ask the user.", quoteCmd(s.Cmd), s.Var, s.Var)
}

// secretPrintReason is the denial of a command that prints a secret
// environment variable (or every variable): its value would land in the
// transcript, as a secret file's content would.
func secretPrintReason(p shellcmd.SecretPrint) string {
	if p.Var == "" {
		return fmt.Sprintf("⚠️ BLOCKED: %s prints every environment variable, the secrets among them (API keys, tokens), into the transcript. "+
			"Print the ones you need by name (printenv PATH, echo $NODE_ENV), or filter by a name: env | grep -i python.", quoteCmd(p.Cmd))
	}
	return fmt.Sprintf("⚠️ BLOCKED: %s prints $%s, an environment variable whose name marks it as a secret: its value would land in the transcript. "+
		"Use it without printing it (hand it to the program that needs it), or check only that it is set: [ -n \"$%s\" ] && echo set.", quoteCmd(p.Cmd), p.Var, p.Var)
}

// guard is protectedPaths applied to one call.
type guard struct {
	*protectedPaths
	shellCall
	tmpdir string
	lits   *[]literal // literalStarts, once computed
	// expanded are the patterns fullPatterns has expanded.
	expanded map[string][]string
	// homeGlob says whether the home, as written or resolved, holds glob
	// characters: 0 not known yet, 1 no, 2 yes (see homeSure).
	homeGlob int8
	// expired says when the call's folder walks have taken their time.
	expired func() bool
	// notes say what could not be checked (see hardLinked).
	notes []string
	// writeList is writes(), once asked.
	writeList []string
	// environ is the call's environment, as the CLI's shell inherits it.
	environ []string
	// command is the Bash call's command; dotsHidden, whether a * or ? in
	// it surely matches no dot name (0 not known yet, 1 no, 2 yes).
	command    string
	dotsHidden int8
}

// shellHidesDots reports whether the shell expands a * or ? at the start
// of a name of this call's command to no name that starts with a dot:
// its options start as bash's and zsh's defaults, and nothing in the
// command can change them. Asked only when a dot name would be the
// reason to deny, and once per call.
func (g *guard) shellHidesDots() bool {
	if g.dotsHidden == 0 {
		g.dotsHidden = 1
		if shellcmd.KeepsGlobDefaults(g.command) && startupHidesDots(g.environ, g.Home) {
			g.dotsHidden = 2
		}
	}
	return g.dotsHidden == 2
}

// real is fspath.Real(p), through the call's paths.
func (g *guard) real(p string) string { return g.paths.Real(p) }

// realHome is the home with its symlinks resolved, computed once per call.
func (g *guard) realHome() string { return g.real(g.Home) }

func (p *protectedPaths) guardFor(call *engine.Call) *guard {
	g := &guard{protectedPaths: p, shellCall: ShellCallOf(call), tmpdir: envValue(call.Environ, "TMPDIR"), environ: call.Environ}
	if files := namedConfig(call.Environ, call.Project, g.paths); files != nil {
		// The config the hooks read is their wiring wherever it is: a
		// MassGen config named by $MASSGEN_HOOK_CONFIG sits beside the
		// agents' work, not under .claude/.
		q := *p
		q.write = append(slices.Clip(p.write), files...)
		g.protectedPaths = &q
	}
	return g
}

// namedConfig are the patterns of the config file $MASSGEN_HOOK_CONFIG
// names, as the kernel resolves it: absolute, and relative to project
// when it is inside (patterns match a path in the project by its relative
// form); nil when the variable is unset.
func namedConfig(environ []string, project string, paths *fspath.Cache) []string {
	v := envValue(environ, "MASSGEN_HOOK_CONFIG")
	if v == "" {
		return nil
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return nil
	}
	abs = paths.Real(abs)
	out := []string{escapeGlob(abs)}
	if rel, err := filepath.Rel(paths.Real(project), abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		out = append(out, escapeGlob(filepath.ToSlash(rel)))
	}
	return out
}

// finding is one protected path a call touches.
type finding struct {
	path    string
	write   bool
	pattern string // "" for a write outside the project
	// holds is the protected path inside the folder path, when the call
	// reaches it through that folder.
	holds string
	same  string // the protected file path is a hard link of, if that is why
	// via is the reader of a folder read (grep -r, rg, tar) that reaches
	// holds below path; leaveOut is the name its exclude option takes;
	// tooBig says the folder was too big to look through.
	via      *shellcmd.Selection
	leaveOut string
	tooBig   bool
	// git is set when a git command rewrites path without naming it.
	git *gitFinding
}

// word judges a shell word: unknown words (a $VAR, a $(...)) cannot be
// judged and pass; globs are expanded against the directory, as the shell
// would, and each match judged. shellGlob says the call's own shell
// expands the word as the command wrote it (see expandedAsWritten): then a
// match the shell's default globbing skips (.env for *) is no reason to
// deny while those defaults surely hold.
func (g *guard) word(w shellcmd.Word, dir string, write, follow, shellGlob bool) *finding {
	if !w.Known || w.Value == "" {
		return nil
	}
	if dir == "" {
		dir = g.Cwd
	}
	if w.Glob {
		pattern, ext := extglobAsAny(w.Value)
		if !filepath.IsAbs(pattern) {
			// The directory is a path, not a pattern: a project in
			// "app[1]" must not turn into a character class.
			pattern = filepath.Join(escapeGlob(dir), pattern)
		}
		if matches := globFiles(pattern); len(matches) > 0 {
			for _, m := range matches {
				f := g.judge(m, dir, write, follow)
				if f != nil && shellGlob && !ext && shellSkips(pattern, m) && g.shellHidesDots() {
					continue // cat * in a folder with .env: bash never names it
				}
				if f != nil {
					return f
				}
			}
			return nil
		}
	}
	return g.judge(w.Value, dir, write, follow)
}

// judge reports the rule path p breaks, if any. follow says whether the
// call acts through a symlink at the end of p (a read or a write does;
// rm removes the link itself).
func (g *guard) judge(p, dir string, write, follow bool) *finding {
	if strings.HasPrefix(p, "~/") && g.Home != "" {
		p = filepath.Join(g.Home, p[2:])
	}
	var rp fspath.Path
	if follow {
		rp = g.paths.Resolve(p, dir)
	} else {
		rp = g.paths.ResolveNoFollow(p, dir)
	}
	shown := g.Project.Display(rp)
	patterns := g.read
	if write {
		patterns = g.writes()
	}
	for _, form := range g.Project.Forms(rp) {
		if pat := g.protects(patterns, form, rp.Fold); pat != "" {
			return &finding{path: shown, write: write, pattern: pat}
		}
	}
	if same, pat := g.hardLinked(rp, patterns); pat != "" {
		return &finding{path: shown, write: write, pattern: pat, same: same}
	}
	if write && g.outsideDeny && !g.Project.inside(rp) && !g.outsideOK(rp) {
		return &finding{path: shown, write: true}
	}
	return nil
}

// protects returns the pattern that protects the path form, "" if none or
// if an exception lets it through.
//
// A path in the project has the form of its name there (so "**/.env" and
// ".git/**" mean the project's), but the patterns anchored at the home or
// the root (~/.kube/config, /etc/**) name it absolutely: they are matched
// against its absolute form too. Otherwise a project that holds the home
// (an agent started in ~) would leave ~/.kube/config unprotected.
func (g *guard) protects(patterns []string, form string, fold bool) string {
	abs := ""
	if !filepath.IsAbs(form) {
		abs = filepath.Join(g.Project.Root, filepath.FromSlash(form))
	}
	pat := g.matchAny(patterns, form, fold)
	if pat == "" && abs != "" {
		pat = g.matchAnchored(patterns, abs, fold)
	}
	if pat == "" || g.matchAny(g.except, form, fold) != "" || abs != "" && g.matchAnchored(g.except, abs, fold) != "" {
		return ""
	}
	return pat
}

// matchAnchored is matchAny over the patterns anchored at the home or the
// root only. The home's patterns are tried only on a path in the home (a
// folder walk asks for every file it meets).
func (g *guard) matchAnchored(patterns []string, abs string, fold bool) string {
	inHome := g.Home != "" && (fspath.Within(abs, g.Home, fold) || fspath.Within(abs, g.realHome(), fold))
	for _, pat := range patterns {
		if strings.HasPrefix(pat, "~/") && inHome || filepath.IsAbs(pat) {
			if g.matchAny([]string{pat}, abs, fold) != "" {
				return pat
			}
		}
	}
	return ""
}

// outsideOK reports whether a path whose real forms are not all in the
// project may be written. Only the paths with their symlinks resolved
// count: a link in /tmp that points at ~/.bashrc writes ~/.bashrc.
func (g *guard) outsideOK(rp fspath.Path) bool {
	allowed := g.outsideAllowed
	if g.tmpdir != "" {
		allowed = append(allowed[:len(allowed):len(allowed)], filepath.Join(g.real(g.tmpdir), "**"))
	}
	// Devices are the exception: /dev/stdout and /dev/fd/N are links into
	// /proc by nature, and writing them writes no file. Only the allowed
	// device entries are taken as written: any other place under /dev (a
	// folder of /dev/shm, a home there) is judged by where its links lead.
	if strings.HasPrefix(rp.Lexical, "/dev/") && g.matchAny(devicesIn(allowed), rp.Lexical, rp.Fold) != "" {
		return true
	}
	for _, real := range []string{rp.Real, rp.Cleaned} {
		if !g.Project.contains(real, rp.Fold) && g.matchAny(allowed, real, rp.Fold) == "" {
			return false
		}
	}
	return true
}

// devicePatterns are the entries of defaultOutsideAllowed that name
// devices, not places for files.
var devicePatterns = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/*"}

// devicesIn returns the device entries of allowed.
func devicesIn(allowed []string) []string {
	var out []string
	for _, pat := range allowed {
		if slices.Contains(devicePatterns, pat) {
			out = append(out, pat)
		}
	}
	return out
}

// matchAny returns the first pattern that matches path, "" if none. A
// leading ~/ is the home directory, as written and with symlinks resolved.
// With fold (a case-insensitive folder), case does not count.
func (g *guard) matchAny(patterns []string, path string, fold bool) string {
	if fold {
		path = strings.ToLower(path)
	}
	homeReach := -1 // whether path may match a home pattern: unknown yet
	for _, pat := range patterns {
		if rest, ok := strings.CutPrefix(pat, "~/"); ok && g.homeSure(rest) {
			if homeReach < 0 {
				homeReach = 0
				if g.Home != "" && filepath.IsAbs(path) && (fspath.Within(path, g.Home, fold) || fspath.Within(path, g.realHome(), fold)) {
					homeReach = 1
				}
			}
			if homeReach == 0 {
				continue
			}
		}
		full := g.fullPatterns(pat)
		for _, f := range full {
			if fold {
				f = strings.ToLower(f)
			}
			if ok, _ := doublestar.Match(f, path); ok {
				return pat
			}
		}
	}
	return ""
}

// homeSure reports whether every absolute form of the home pattern ~/rest
// (see fullPatterns) lies in the home, as written or resolved, and matches
// only paths there: rest has no ".." that Join would climb out by, and the
// home no glob characters that would match more than itself. Then a path
// outside the home is not matched against it, and the pattern need not be
// expanded (two joins, each cleaning the path: a third of the
// protected_paths guard's work on a Bash call, for the 34 home patterns
// among the defaults). Without a home the pattern has no forms at all.
func (g *guard) homeSure(rest string) bool {
	if g.Home == "" {
		return true
	}
	if g.homeGlob == 0 {
		const glob = "*?[{\\"
		g.homeGlob = 1
		if strings.ContainsAny(g.Home, glob) || strings.ContainsAny(g.realHome(), glob) {
			g.homeGlob = 2
		}
	}
	if g.homeGlob == 2 || strings.Contains(rest, `\`) {
		return false
	}
	return rest != ".." && !strings.HasPrefix(rest, "../") && !strings.HasSuffix(rest, "/..") && !strings.Contains(rest, "/../")
}

// fullPatterns are the absolute forms of pat that matchAny tries: pat
// itself, or for ~/ the home directory's as written and resolved, and for
// an absolute pattern its resolved form too. Resolving costs system
// calls, and a folder read matches every file it walks: each pattern is
// expanded once per call.
func (g *guard) fullPatterns(pat string) []string {
	if full, ok := g.expanded[pat]; ok {
		return full
	}
	full := []string{pat}
	if rest, ok := strings.CutPrefix(pat, "~/"); ok {
		full = nil
		if g.Home != "" {
			full = []string{filepath.Join(g.Home, rest), filepath.Join(g.realHome(), rest)}
		}
	} else if filepath.IsAbs(pat) {
		// /tmp is /private/tmp on macOS: the resolved path must still match.
		if dir, _ := doublestar.SplitPattern(pat); dir != "/" {
			full = append(full, filepath.Join(g.real(dir), strings.TrimPrefix(pat, dir)))
		}
	}
	if g.expanded == nil {
		g.expanded = map[string][]string{}
	}
	g.expanded[pat] = full
	return full
}

// verdict is the answer to a finding: the agent's reason, and a one-line
// systemMessage so that the user sees a denial too, as for a dangerous
// command.
func (g *guard) verdict(f *finding) engine.Verdict {
	v := g.denial(f)
	if v.Decision == engine.Deny {
		v.SystemMessage = userNotice(f)
	}
	return v
}

// userNotice is the user's line about a denied finding; the paths, which
// the agent chose, are quoted and cut, so they cannot pose as more lines.
func userNotice(f *finding) string {
	path := quoteCut(f.path, 100)
	switch {
	case f.pattern == "":
		return fmt.Sprintf("massgen-hook: blocked a write outside the project (%s).", path)
	case f.via != nil:
		return fmt.Sprintf("massgen-hook: blocked a read of %s, which reaches a protected path (%s).", path, quoteCut(f.holds, 100))
	case f.write || f.holds != "" || f.git != nil:
		return fmt.Sprintf("massgen-hook: blocked a change to a protected path (%s).", path)
	}
	return fmt.Sprintf("massgen-hook: blocked reading a protected path (%s).", path)
}

func (g *guard) denial(f *finding) engine.Verdict {
	if f == nil {
		return engine.Verdict{Notes: g.notes}
	}
	if f.pattern == "" {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes,
			Reason: fmt.Sprintf("⚠️ BLOCKED: %s is outside the project (%s), and this project does not let tools write outside it. Write inside the project instead (or under /tmp for scratch files); if the change outside is really needed, ask the user to make it.", f.path, g.Project.Root)}
	}
	if f.git != nil {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: gitReason(f)}
	}
	if f.via != nil {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes, Reason: treeReason(f)}
	}
	if f.holds != "" {
		return engine.Verdict{Decision: engine.Deny, Notes: g.notes,
			Reason: fmt.Sprintf("⚠️ BLOCKED: this would delete, move or change %s, which holds %s, a protected path (rule %q). Leave it alone and carry on without it; if it really must change, ask the user to do it.", f.path, f.holds, f.pattern)}
	}
	verb, ask := "reading", "if you really need what is in it, ask the user"
	if f.write {
		verb, ask = "writing or deleting", "if it really must change, ask the user to do it"
	}
	why := ""
	if f.same != "" {
		why = fmt.Sprintf(": it is the same file as %s (a hard link)", f.same)
	}
	return engine.Verdict{Decision: engine.Deny, Notes: g.notes,
		Reason: fmt.Sprintf("⚠️ BLOCKED: %s %s is not allowed: it is a protected path (rule %q)%s. Leave it alone and carry on without it; %s.", verb, f.path, f.pattern, why, ask)}
}

// envValue is the value of key in an environment list.
func envValue(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// pathExists reports whether abs exists now (as a regular file, links
// followed, with file), as `[ -f ]` and `[ -e ]` test it. A protected
// path that exists stays there: no call the guard lets through removes it.
func pathExists(abs string, file bool) bool {
	fi, err := os.Stat(abs)
	return err == nil && (!file || fi.Mode().IsRegular())
}

// expandedAsWritten reports whether c's words are expanded by the call's
// own shell as the command line wrote them: c runs directly, or through
// wrappers that take the words the shell expanded (sudo, env, nohup, a
// command substitution). Not for a command a shell or eval runs from a
// string, a file sourced or run, an alias, or xargs and find -exec, whose
// words come from a program's output.
func expandedAsWritten(c *shellcmd.Command) bool {
	for _, w := range c.Wrappers {
		switch w {
		case "sudo", "env", "nohup", "time", "timeout", "nice", "$(...)", "`...`", "<(...)", ">(...)":
		default:
			return false
		}
	}
	return true
}
