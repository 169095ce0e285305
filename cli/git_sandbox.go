package cli

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
)

// gitSandbox is how the guards run git in project: where the project's
// Bash commands are confined, in a read-only sandbox with the secrets
// masked, since a confined command can write the configuration of a
// repository in the project (a filter, a diff driver) and git runs what it
// names. Decided on the first git command of the hook, not before: most
// calls run none.
func (a *app) gitSandbox(project string, cfg *config.Config) func(argv []string) []string {
	var once sync.Once
	var wrap func(argv []string) []string
	return func(argv []string) []string {
		once.Do(func() {
			if cfg.Confine.Off || !isOurPrefix(a.shellPrefixSetting(project)) {
				return
			}
			p, err := confine.PolicyFor(cfg, project, a.getenv("HOME"), a.environ())
			if err != nil {
				def := config.Default()
				p, _ = confine.PolicyFor(&def, project, a.getenv("HOME"), a.environ())
			}
			st := a.stateDir(project)
			avail := confine.Remembered(st, confine.LookupOutside(a.getenv, &p))
			if !avail.OK || !confine.UsesSeccomp(avail.Bwrap) {
				return
			}
			pl := p.Plan()
			mask, err := confine.MaskFile(filepath.Join(st.Path, "confine"))
			if err != nil {
				mask = os.DevNull
			}
			wrap = func(argv []string) []string { return confine.ReadOnlyArgv(avail.Bwrap, pl, mask, argv) }
		})
		if wrap == nil {
			return nil
		}
		return wrap(argv)
	}
}
