package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/internal/hookfs"
)

// doctorScope is one file doctor read, and what it found there.
type doctorScope struct {
	Name    string `json:"scope"`
	File    string `json:"file"`
	Present bool   `json:"present"`
	// Status is "not present", "invalid", "not checked: ..." or "ok"
	// (which may still have findings).
	Status   string `json:"status"`
	Handlers int    `json:"handlers"`
	Problems int    `json:"problems"`
	Notes    int    `json:"notes"`
	index    int
	config   bool
}

func (s *doctorScope) summary() string {
	if s.Status != "ok" {
		return s.Status
	}
	var parts []string
	if !s.config {
		parts = append(parts, plural(s.Handlers, "handler"))
	}
	switch {
	case s.Problems == 0 && s.Notes == 0:
		parts = append(parts, "ok")
	default:
		if s.Problems > 0 {
			parts = append(parts, plural(s.Problems, "problem"))
		}
		if s.Notes > 0 {
			parts = append(parts, plural(s.Notes, "note"))
		}
	}
	return strings.Join(parts, ", ")
}

func (d *doctorRun) scope(name, path string) *doctorScope {
	s := &doctorScope{Name: name, File: d.rel(path), Status: "ok", index: len(d.scopes)}
	d.scopes = append(d.scopes, s)
	return s
}

// userSettings is Claude Code's user settings file, as init places it.
func (d *doctorRun) userSettings() (string, error) {
	if dir := d.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "settings.json"), nil
	}
	home := d.getenv("HOME")
	if home == "" {
		return "", errors.New("$HOME is not set")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}

// settingsScopes checks the project, local and user settings files, the
// project first: it is what the user ran doctor for.
func (d *doctorRun) settingsScopes() {
	t := targets.Get()["claude"]
	d.settingsFile("project", filepath.Join(d.project, t.projectFile))
	d.settingsFile("local", filepath.Join(d.project, t.localFile))
	user, err := d.userSettings()
	if err != nil {
		s := d.scope("user", "~/.claude/settings.json")
		s.Status = "not checked: " + err.Error()
	} else {
		d.settingsFile("user", user)
	}
}

// settingsFile reads one settings file and checks every handler in it.
func (d *doctorRun) settingsFile(name, path string) {
	s := d.scope(name, path)
	f, err := wiring.Read(path)
	switch {
	case err != nil:
		d.fileError(s, err, "Claude Code")
		return
	case !f.Exists:
		s.Status = "not present"
		return
	}
	s.Present = true
	d.checkSettings(s, f)
}

// fileError reports a hook file cli cannot read.
func (d *doctorRun) fileError(s *doctorScope, err error, cli string) {
	var syn *wiring.SyntaxError
	var shape *wiring.ShapeError
	switch {
	case errors.As(err, &syn):
		s.Present, s.Status = true, "invalid JSON"
		d.add(s, syn.Line, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf(
			"invalid JSON at %d:%d (%s); %s cannot read this file, so none of its hooks run until it is fixed", syn.Line, syn.Col, syn.Msg, cli)})
	case errors.As(err, &shape):
		s.Present, s.Status = true, "invalid"
		d.add(s, shape.Line, "", doctor.Issue{Severity: doctor.Problem, Message: shape.Field + " " + shape.Msg + "; none of this file's hooks run until it is fixed"})
	default:
		s.Present, s.Status = true, "unreadable"
		d.add(s, 0, "", doctor.Issue{Severity: doctor.Problem, Message: fmt.Sprintf("cannot be read (%v)", unwrapErr(err))})
	}
}

// configScope loads the project's massgen-hook config as the hooks do.
func (d *doctorRun) configScope() {
	path, required := config.Locate(d.configPath, d.getenv("MASSGEN_HOOK_CONFIG"), d.project)
	s := d.scope("config", path)
	s.config = true
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !required {
		s.Status = "not present (built-in defaults)"
		return
	}
	s.Present = true
	cfg, _, err := d.loadConfig(d.project)
	if err == nil {
		d.cfg, d.cfgScope = &cfg, s
		d.checkRuleHandlers(s, cfg)
		return
	}
	for _, p := range configErrors(err) {
		d.add(s, p.Line, "", doctor.Issue{Severity: doctor.Problem,
			Message: p.Message + "; until it is fixed, every hook ignores this config and runs only the built-in defaults (default guards on)"})
		if p.File != "" {
			d.findings[len(d.findings)-1].File = d.rel(p.File)
		}
	}
}

func unwrapErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkRuleHandlers checks that the program of every command rule (not a
// shell: one) is there and can run, found as the engine finds it: a path
// with a slash relative to the project, a bare name on PATH.
func (d *doctorRun) checkRuleHandlers(s *doctorScope, cfg config.Config) {
	scopes := []*config.Hooks{&cfg.Hooks}
	for i := range cfg.Agents {
		scopes = append(scopes, &cfg.Agents[i].Hooks, &cfg.Agents[i].Backend.Hooks)
	}
	for _, hs := range scopes {
		for _, event := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"} {
			for _, h := range hs.For(event).Hooks {
				if h.Type != config.TypeCommand || h.Shell != "" || h.Disabled || h.Handler == "" {
					continue
				}
				d.ruleHandlers = append(d.ruleHandlers, h.Handler)
				if msg := d.ruleHandlerProblem(h.Handler); msg != "" {
					d.add(s, h.LineOf("handler"), h.Key+".handler", doctor.Issue{Severity: doctor.Problem,
						Message: msg + "; the rule fails on every call it matches (and denies it) until it is fixed"})
					if h.File != "" {
						d.findings[len(d.findings)-1].File = d.rel(h.File)
					}
				}
			}
		}
	}
}

// ruleHandlerProblem says what keeps handler from running; "" if nothing.
func (d *doctorRun) ruleHandlerProblem(handler string) string {
	path := handler
	switch {
	case !strings.Contains(handler, "/"):
		found := ""
		for _, dir := range filepath.SplitList(d.getenv("PATH")) {
			p := filepath.Join(dir, handler)
			if info, err := os.Stat(p); dir != "" && err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0 {
				found = p
				break
			}
		}
		if found == "" {
			return fmt.Sprintf("handler %s is not found on PATH; install it, or name it by its path", handler)
		}
		path = found
	case !filepath.IsAbs(handler):
		path = filepath.Join(d.project, handler)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("handler %s does not exist (looked for %s); create it or fix the path", handler, d.rel(path))
	case err != nil:
		return fmt.Sprintf("handler %s cannot be reached (%v)", handler, unwrapErr(err))
	case info.IsDir():
		return fmt.Sprintf("handler %s is a directory; name the program to run", handler)
	case info.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("handler %s is not executable; run chmod +x on it", handler)
	}
	if head, err := fileHead(path, 4); err == nil && !isProgram(head) {
		return fmt.Sprintf("handler %s is not a program the system can start (no #! line, not a binary); give it a #! line", handler)
	}
	return ""
}

// isProgram reports whether a file starting with head can be exec'd:
// a script with #!, or an ELF or Mach-O binary.
func isProgram(head []byte) bool {
	for _, magic := range []string{"#!", "\x7fELF", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xca\xfe\xba\xbe"} {
		if strings.HasPrefix(string(head), magic) {
			return true
		}
	}
	return false
}

// fileHead reads the first n bytes of the regular file at path.
func fileHead(path string, n int) ([]byte, error) {
	f, _, err := hookfs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return buf[:k], err
}
