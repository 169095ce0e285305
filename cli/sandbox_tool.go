package cli

import (
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
)

// sandboxTool is the bubblewrap binary that confines project's commands
// under cfg, looked for only where those commands cannot write
// (confine.LookupOutside): whoever finds it runs it unconfined.
func (a *app) sandboxTool(project string, cfg *config.Config) string {
	home := a.getenv("HOME")
	p, err := confine.PolicyFor(cfg, project, home, a.environ())
	if err != nil {
		def := config.Default()
		p, _ = confine.PolicyFor(&def, project, home, a.environ())
	}
	return confine.LookupOutside(a.getenv, &p)
}
