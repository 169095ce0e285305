package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Spec is the content of a spec file: the cases to measure, in order.
type Spec struct {
	Cases []Case `json:"cases"`
}

// Case pairs a reference command with a subject command whose cost is
// compared with it.
type Case struct {
	// Name identifies the case in the table and for -only.
	Name string `json:"name"`
	// Target is the human-readable target shown in the table, such as
	// "≤ 1.3×". When empty it is derived from MaxRatio.
	Target string `json:"target,omitempty"`
	// MaxRatio is the largest subject/reference ratio of medians that meets
	// the target. Zero means the case has no target.
	MaxRatio float64 `json:"max_ratio,omitempty"`
	// Reference is the command the subject is compared with, usually the
	// floor.
	Reference Command `json:"reference"`
	// Subject is the command being measured.
	Subject Command `json:"subject"`
	// Runs and Warmup, when set, replace -runs and -warmup for this case, so
	// that a case whose commands take seconds can be measured fewer times.
	Runs   int  `json:"runs,omitempty"`
	Warmup *int `json:"warmup,omitempty"`
	// MaxRSSMiB is the largest peak RSS of the subject, in MiB, that meets
	// the case's memory target. Zero means the case has no memory target.
	MaxRSSMiB float64 `json:"max_rss_mib,omitempty"`
	// RSSTarget is the human-readable memory target shown in the table. When
	// empty it is derived from MaxRSSMiB.
	RSSTarget string `json:"rss_target,omitempty"`
	// Labels are free-form values copied to the -json output for the tools
	// that read it (such as bench/scaling); the harness does not use them.
	Labels map[string]string `json:"labels,omitempty"`
}

// runsOr is the number of measured pairs of c: its own, else def.
func (c *Case) runsOr(def int) int {
	if c.Runs > 0 {
		return c.Runs
	}
	return def
}

// warmupOr is the number of warmup pairs of c: its own, else def.
func (c *Case) warmupOr(def int) int {
	if c.Warmup != nil {
		return *c.Warmup
	}
	return def
}

// speedUp tells whether the target of c is a speed-up: a subject that must
// be faster than its reference (a max_ratio below 1).
func (c *Case) speedUp() bool { return c.MaxRatio > 0 && c.MaxRatio < 1 }

// defaultTarget is the target text derived from max_ratio: "≤ 1.3×", or
// for a speed-up "≥ 20× faster".
func defaultTarget(maxRatio float64) string {
	if maxRatio < 1 {
		return "≥ " + strconv.FormatFloat(1/maxRatio, 'g', 4, 64) + "× faster"
	}
	return fmt.Sprintf("≤ %g×", maxRatio)
}

// Command describes one process to start.
type Command struct {
	// Argv is the program and its arguments. A program name without a slash
	// is looked up in the harness's PATH; one with a slash is taken relative
	// to the directory the harness runs in, even when Dir is set.
	Argv []string `json:"argv"`
	// Stdin names a file that is opened afresh for every run and given to the
	// process as its standard input, relative to the directory the harness
	// runs in. When empty the process reads from the null device.
	Stdin string `json:"stdin,omitempty"`
	// Env holds variables added to the harness's own environment; they
	// override variables of the same name.
	Env map[string]string `json:"env,omitempty"`
	// Dir is the working directory of the process. When empty it is the
	// harness's own.
	Dir string `json:"dir,omitempty"`
	// Before lists commands run in order, untimed, before each run of this
	// one (warmup runs included): the preparation a run needs, such as a
	// message queued for the hook to deliver. One that exits non-zero stops
	// the measurement, since the run would then measure something else.
	Before []Command `json:"before,omitempty"`

	// path is Argv[0] resolved to an absolute executable file.
	path string
	// environ is the full environment of the process.
	environ []string
}

// loadSpec reads, decodes and checks the spec file at name, resolving every
// path in it, so that a bad spec is rejected before anything is measured.
func loadSpec(name string) (*Spec, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	spec, err := parseSpec(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return spec, nil
}

// parseSpec decodes and checks a spec. Unknown fields are rejected so that a
// misspelt key is reported instead of silently ignored.
func parseSpec(data []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var spec Spec
	if err := dec.Decode(&spec); err != nil {
		return nil, err
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		return nil, errors.New("trailing data after the spec object")
	}
	if len(spec.Cases) == 0 {
		return nil, errors.New("no cases")
	}
	seen := make(map[string]bool)
	for i := range spec.Cases {
		c := &spec.Cases[i]
		if c.Name == "" {
			return nil, fmt.Errorf("case %d: missing name", i+1)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("case %q: duplicate name", c.Name)
		}
		seen[c.Name] = true
		if c.MaxRatio < 0 {
			return nil, fmt.Errorf("case %q: negative max_ratio", c.Name)
		}
		if c.Target == "" && c.MaxRatio > 0 {
			c.Target = defaultTarget(c.MaxRatio)
		}
		if c.Runs < 0 {
			return nil, fmt.Errorf("case %q: negative runs", c.Name)
		}
		if c.Warmup != nil && *c.Warmup < 0 {
			return nil, fmt.Errorf("case %q: negative warmup", c.Name)
		}
		if c.MaxRSSMiB < 0 {
			return nil, fmt.Errorf("case %q: negative max_rss_mib", c.Name)
		}
		if c.RSSTarget == "" && c.MaxRSSMiB > 0 {
			c.RSSTarget = fmt.Sprintf("≤ %g MiB", c.MaxRSSMiB)
		}
		if err := c.Reference.resolveWithBefore(); err != nil {
			return nil, fmt.Errorf("case %q: reference: %w", c.Name, err)
		}
		if err := c.Subject.resolveWithBefore(); err != nil {
			return nil, fmt.Errorf("case %q: subject: %w", c.Name, err)
		}
	}
	return &spec, nil
}

// resolveWithBefore resolves c and its before commands, which cannot have
// before commands of their own.
func (c *Command) resolveWithBefore() error {
	if err := c.resolve(); err != nil {
		return err
	}
	for i := range c.Before {
		b := &c.Before[i]
		if len(b.Before) > 0 {
			return fmt.Errorf("before %d: a before command cannot have its own before", i+1)
		}
		if err := b.resolve(); err != nil {
			return fmt.Errorf("before %d: %w", i+1, err)
		}
	}
	return nil
}

// resolve checks that the program, the stdin file and the directory of c
// exist, makes their paths absolute and builds the environment.
func (c *Command) resolve() error {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return errors.New("empty argv")
	}
	path, err := exec.LookPath(c.Argv[0])
	if err != nil {
		return err
	}
	if c.path, err = filepath.Abs(path); err != nil {
		return err
	}
	if c.Stdin != "" {
		if c.Stdin, err = filepath.Abs(c.Stdin); err != nil {
			return err
		}
		fi, err := os.Stat(c.Stdin)
		if err != nil {
			return fmt.Errorf("stdin: %w", err)
		}
		if fi.IsDir() {
			return fmt.Errorf("stdin: %s is a directory", c.Stdin)
		}
	}
	if c.Dir != "" {
		if c.Dir, err = filepath.Abs(c.Dir); err != nil {
			return err
		}
		fi, err := os.Stat(c.Dir)
		if err != nil {
			return fmt.Errorf("dir: %w", err)
		}
		if !fi.IsDir() {
			return fmt.Errorf("dir: %s is not a directory", c.Dir)
		}
	}
	keys := make([]string, 0, len(c.Env))
	for k := range c.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("env: bad variable name %q", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	c.environ = os.Environ()
	for _, k := range keys {
		c.environ = append(c.environ, k+"="+c.Env[k])
	}
	return nil
}

// selectCases returns the cases of spec to run: all of them when only is
// empty, otherwise the one named only.
func selectCases(spec *Spec, only string) ([]Case, error) {
	if only == "" {
		return spec.Cases, nil
	}
	for _, c := range spec.Cases {
		if c.Name == only {
			return []Case{c}, nil
		}
	}
	return nil, fmt.Errorf("-only %q: no such case", only)
}
