package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/scratchpad"
)

// validate checks values the YAML types cannot, naming the key and its line.
func (c *Config) validate(tree func() *yaml.Node) error {
	var errs []*Error
	var doc *yaml.Node
	badAt := func(line int, key, format string, args ...any) {
		if line == 0 {
			if doc == nil {
				doc = tree()
			}
			line = lineOfKey(doc, key)
		}
		errs = append(errs, &Error{Path: c.Path, Line: line, Msg: key + ": " + fmt.Sprintf(format, args...)})
	}
	bad := func(key, format string, args ...any) { badAt(0, key, format, args...) }
	s := &c.Scratchpad
	if strings.TrimSpace(s.Root) == "" {
		bad("scratchpad.root", "must not be empty")
	}
	if _, err := scratchpad.DirName(s.DefaultAgent, ""); err != nil {
		bad("scratchpad.default_agent", "%v", err)
	}
	if len(s.RequiredSections) == 0 {
		bad("scratchpad.required_sections", "must list at least one heading")
	}
	for i, h := range s.RequiredSections {
		if strings.TrimSpace(h) == "" {
			bad("scratchpad.required_sections", "entry %d is empty", i+1)
		}
	}
	for i, a := range s.ExemptAgents {
		if strings.TrimSpace(a) == "" {
			bad("scratchpad.exempt_agents", "entry %d is empty", i+1)
		}
	}
	if s.BlockCap < 1 || s.BlockCap > 100 {
		bad("scratchpad.block_cap", "must be from 1 to 100, got %d", s.BlockCap)
	}
	for _, f := range []struct {
		key string
		n   int
	}{
		{"scratchpad.session_start.coordinator_lines", s.SessionStart.CoordinatorLines},
		{"scratchpad.session_start.ego_lines", s.SessionStart.EgoLines},
		{"scratchpad.session_start.git_log_entries", s.SessionStart.GitLogEntries},
		{"scratchpad.subagent_start.tail_lines", s.SubagentStart.TailLines},
	} {
		if f.n < 0 || f.n > 1000 {
			bad(f.key, "must be from 0 to 1000, got %d", f.n)
		}
	}
	if t := time.Duration(s.SessionStart.Timeout); t <= 0 || t > time.Minute {
		bad("scratchpad.session_start.timeout", "must be more than 0 and at most 1m, got %s", t)
	}
	if t := time.Duration(c.GuardTimeout); t < time.Millisecond || t > 10*time.Minute {
		bad("guard_timeout", "must be from 1ms to 10m, got %s", t)
	}
	c.MassGen = c.recogniseMassGen()
	c.checkOtherKeys(func(key, msg string) {
		if doc == nil {
			doc = tree()
		}
		errs = append(errs, &Error{Path: c.Path, Line: lineOfKey(doc, key), Msg: msg})
	}, func(key, format string, args ...any) { c.note(0, key, format, args...) })
	c.validateHooks(badAt)
	c.validateRecord(bad)
	c.validateNATS(bad)
	for _, n := range c.Notices {
		if n.Line == 0 {
			if doc == nil {
				doc = tree()
			}
			key, _, _ := strings.Cut(n.Msg, ": ")
			n.Line = lineOfKey(doc, key)
		}
	}
	sort.SliceStable(c.Notices, func(i, j int) bool { return c.Notices[i].Line < c.Notices[j].Line })
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	joined := make([]error, len(errs))
	for i, e := range errs {
		joined[i] = e
	}
	return errors.Join(joined...)
}
