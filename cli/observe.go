package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/checks/aftertool"
)

// observeRunCommand is the observers' worker: the observe check starts it
// detached, after writing a job file, so that copying work products and
// saving search results never delays the agent. It is not for people, and
// nobody reads its exit code: it exits 0 whatever happens and records the
// outcome in the audit trail (and on stderr, for a run by hand).
func (a *app) observeRunCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "observe-run JOBFILE",
		Short:  "Do one observer job (started by the observe check)",
		Hidden: true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{err: fmt.Errorf("observe-run takes one job file, got %q", args)}
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			a.runObserver(args[0])
			return nil
		},
	}
}

// runObserver does the job in the project of --project-dir (the hook
// passes it: the worker must not depend on where it was started).
func (a *app) runObserver(jobFile string) {
	fail := func(err error) { fmt.Fprintf(a.stderr, "massgen-hook: observe-run %s: %v\n", jobFile, err) }
	project, err := a.resolveProject("")
	if err != nil {
		fail(err) // no project, no audit trail to record it in
		return
	}
	now, err := a.clock()
	if err != nil {
		fail(err)
		now = a.now()
	}
	st := a.stateDir(project)
	defer st.Close()
	if cfg, _, err := a.loadRules(project, false); err == nil {
		a.attachAuditSink(st, project, &cfg)
	}
	if err := aftertool.RunObserverJob(st, project, jobFile, now); err != nil {
		fail(err)
	}
}
