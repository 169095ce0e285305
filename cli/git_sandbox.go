package cli

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
)

// hookSandbox is how the hooks run the programs a confined command could
// have planted or rewritten in project: where the project's Bash commands
// are confined, git runs in a read-only sandbox with the secrets masked (a
// confined command can write a repository's configuration, and git runs
// the filters and drivers it names), and the command rules' handlers run
// confined as the commands are (a rule's script in the project, a
// Makefile a shell: rule makes). Decided on the first program the hook
// runs, not before: most calls run none.
type hookSandbox struct {
	once  sync.Once
	bwrap string
	plan  confine.Plan
	mask  string
	on    bool
}

// ready decides, once, whether the hooks' programs run sandboxed.
func (s *hookSandbox) ready(a *app, project string, cfg *config.Config) bool {
	s.once.Do(func() {
		if cfg.Confine.Off || !isOurPrefix(a.shellPrefixSetting(project)) {
			return
		}
		p, err := confine.PolicyFor(cfg, project, a.getenv("HOME"), a.environ())
		if err != nil {
			def := config.Default()
			p, _ = confine.PolicyFor(&def, project, a.getenv("HOME"), a.environ())
		}
		st := a.stateDir(project)
		defer st.Close()
		avail := confine.Remembered(st, confine.LookupOutside(a.getenv, &p))
		if !avail.OK || !confine.UsesSeccomp(avail.Bwrap) {
			return
		}
		s.plan = p.Plan()
		mask, err := confine.MaskFile(filepath.Join(st.Path, "confine"))
		if err != nil {
			mask = os.DevNull
		}
		s.bwrap, s.mask, s.on = avail.Bwrap, mask, true
	})
	return s.on
}

// gitSandbox wraps the argv of each git command the guards run in
// project (nil: run git as it is).
func (a *app) gitSandbox(project string, cfg *config.Config, s *hookSandbox) func(argv []string) []string {
	return func(argv []string) []string {
		if !s.ready(a, project, cfg) {
			return nil
		}
		return confine.ReadOnlyArgv(s.bwrap, s.plan, s.mask, argv)
	}
}

// handlerSandbox wraps the argv of each command rule's handler (nil: run
// it as it is).
func (a *app) handlerSandbox(project string, cfg *config.Config, s *hookSandbox) func(argv []string) []string {
	return func(argv []string) []string {
		if !s.ready(a, project, cfg) {
			return nil
		}
		return confine.ExecArgv(s.bwrap, s.plan, s.mask, argv)
	}
}
