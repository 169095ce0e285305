package cli

import (
	"bytes"
	"path/filepath"
	"strings"
)

// doctorFix makes doctor --fix's safe repairs in project, and returns what
// it did, one line each: each hook file whose massgen-hook hooks are not
// what init writes is rewired as init would (the same parts; nobody
// else's hooks change), and the project binary, where a file wires it, is
// replaced by this binary when it differs (stale, damaged, missing).
func (a *app) doctorFix(project string) ([]string, error) {
	var out bytes.Buffer
	quiet := *a
	quiet.stdout = &out
	w := &installer{app: &quiet, project: project}
	d := &doctorRun{app: a, project: project}
	binWired := false
	for _, wf := range a.wiredFiles(project) {
		if wf.err != nil || len(wf.ours) == 0 {
			continue
		}
		for _, h := range wf.ours {
			if isProjectBinary(project, a.wiredProgram(h.Command, project)) {
				binWired = true
			}
		}
		want, differs := d.initWrites(wf)
		if differs == "" {
			continue
		}
		f := wf.file
		if target, err := filepath.EvalSymlinks(f.Path); err == nil {
			f.Path = target
		}
		write := func() error { return w.settings(f, want, false) }
		if wf.target.plugin {
			write = func() error { return w.writePlugin(f.Path, f.Data, want, true) }
		}
		if err := write(); err != nil {
			return lines(out.String()), err
		}
	}
	if binWired {
		if err := w.copyBinary("", filepath.Join(project, projectBinary)); err != nil {
			return lines(out.String()), err
		}
	}
	var kept []string
	for _, l := range lines(out.String()) {
		if !strings.HasSuffix(l, "binary already installed, unchanged") {
			kept = append(kept, l)
		}
	}
	return kept, nil
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
