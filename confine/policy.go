package confine

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/checks/guard"
	"github.com/massgen/massgen-hook/config"
)

// Policy is what a confined command may do, in patterns and paths; Plan
// finds what it means on disk.
type Policy struct {
	// Project is the project root (absolute): writable, and walked for
	// protected files.
	Project string
	// Home is the user's home directory ("" when unknown).
	Home string
	// Read and Except are the protected_paths guard's lists: what no
	// command may read (masked), and what is never protected.
	Read, Except []string
	// Wiring are the guards' own files as patterns (relative to the
	// project, or under ~/): the folders that hold them are read-only.
	Wiring []string
	// GuardFiles are more of the guards' own files, absolute: the config
	// file MASSGEN_HOOK_CONFIG names and the installed binary.
	GuardFiles []string
	// Writable are the places outside the project a command may write,
	// absolute: the temporary folders, the build caches, confine.writable.
	Writable []string
	// Caches are the build caches, writable too; one that is missing is
	// created when its tool is installed (a first build fills it).
	Caches []Cache
	// Path is $PATH, where the caches' tools are looked for.
	Path string
	// Found are the protected files and folders earlier plans masked
	// (RememberFound): masked again wherever they still are, whatever
	// the search this time reaches.
	Found []string
	// Sockets are the places of the sockets a command could ask a program
	// outside the sandbox to run something through (controlSockets):
	// masked where they exist.
	Sockets []string
}

// PolicyFor builds the policy of cfg for project: the protected lists of
// its global protected_paths rule (none when that guard is switched off),
// the wiring, and the writable places. environ is the command's
// environment (TMPDIR, the caches' variables, MASSGEN_HOOK_CONFIG).
func PolicyFor(cfg *config.Config, project, home string, environ []string) (Policy, error) {
	env := envMap(environ)
	lists, on, err := protectedLists(cfg)
	if err != nil {
		return Policy{}, err
	}
	p := Policy{Project: project, Home: home, Wiring: lists.Wiring}
	if on {
		p.Read, p.Except = lists.Read, lists.Except
	}
	if named := env["MASSGEN_HOOK_CONFIG"]; named != "" {
		if !filepath.IsAbs(named) {
			named = filepath.Join(project, named)
		}
		p.GuardFiles = append(p.GuardFiles, named)
	}
	if cfg.Path != "" {
		p.GuardFiles = append(p.GuardFiles, cfg.Path)
	}
	if exe, err := os.Executable(); err == nil {
		p.GuardFiles = append(p.GuardFiles, exe)
	}
	p.GuardFiles = append(p.GuardFiles, ruleHandlers(cfg, project)...)
	p.Writable = TempDirs(env)
	p.Caches, p.Path = DefaultCaches(home, env), env["PATH"]
	p.Sockets = controlSockets(env)
	for _, w := range cfg.Confine.Writable {
		if strings.HasPrefix(w, "~/") {
			if home == "" {
				continue
			}
			w = filepath.Join(home, w[2:])
		}
		p.Writable = append(p.Writable, filepath.Clean(w))
	}
	return p, nil
}

// protectedLists are the lists of cfg's protected_paths guard, and
// whether that guard runs at all: the global rule that names it (its
// options), else the default guard unless default_guards is false.
func protectedLists(cfg *config.Config) (guard.PathLists, bool, error) {
	on := cfg.DefaultGuards
	var options *config.Hook
	for i, h := range cfg.Hooks.PreToolUse.Hooks {
		if h.Type == config.TypeBuiltin && h.Handler == "protected_paths" {
			options, on = &cfg.Hooks.PreToolUse.Hooks[i], !h.Disabled
			break
		}
	}
	var lists guard.PathLists
	var err error
	if options != nil && options.Options.Kind != 0 {
		lists, err = guard.ProtectedPathLists(&options.Options)
	} else {
		lists, err = guard.ProtectedPathLists(nil)
	}
	return lists, on, err
}

// TempDirs are the temporary folders commands write: /tmp, /var/tmp,
// $TMPDIR, and $CLAUDE_CODE_TMPDIR, where Claude Code's own text around
// each command writes the file that carries the working directory over
// to the next (every command would fail without it).
func TempDirs(env map[string]string) []string {
	out := []string{"/tmp", "/var/tmp"}
	for _, v := range []string{"TMPDIR", "CLAUDE_CODE_TMPDIR"} {
		if t := env[v]; filepath.IsAbs(t) {
			out = append(out, filepath.Clean(t))
		}
	}
	return out
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// ruleHandlers are the programs the config's command rules run by a path
// (a script in the project, ./scripts/check.sh): the hooks run them
// unconfined on every matching call, so a confined command must not
// rewrite them.
func ruleHandlers(cfg *config.Config, project string) []string {
	var out []string
	add := func(h *config.Hooks) {
		for _, event := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"} {
			for _, r := range h.For(event).Hooks {
				if r.Type != config.TypeCommand || !strings.Contains(r.Handler, "/") {
					continue
				}
				path := r.Handler
				if !filepath.IsAbs(path) {
					path = filepath.Join(project, path)
				}
				out = append(out, filepath.Clean(path))
			}
		}
	}
	add(&cfg.Hooks)
	for i := range cfg.Agents {
		add(&cfg.Agents[i].Hooks)
	}
	return out
}

// MayWrite reports whether a confined command may write dir (or a folder
// on the way to it, were it missing): it is in the project, a temporary
// folder, a build cache or a confine.writable folder, as the kernel
// resolves it.
func (p *Policy) MayWrite(dir string) bool {
	real := resolved(dir)
	roots := append([]string{p.Project}, p.Writable...)
	for _, c := range p.Caches {
		roots = append(roots, c.Dir)
	}
	for _, r := range roots {
		if r != "" && (within(resolved(r), real) || within(filepath.Clean(r), filepath.Clean(dir))) {
			return true
		}
	}
	return false
}

// resolved is path with its symbolic links resolved, as far as it exists.
func resolved(path string) string {
	path = filepath.Clean(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path
	}
	return filepath.Join(resolved(parent), filepath.Base(path))
}
