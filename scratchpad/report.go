package scratchpad

import "sort"

// Cell is the state of one agent's scratchpad on one date.
type Cell string

// Cell states.
const (
	// CellIdle: no scratchpad, and none was due (the agent did not work).
	CellIdle Cell = ""
	// CellCompliant: the scratchpad exists and has every required heading.
	CellCompliant Cell = "compliant"
	// CellIncomplete: a subagent's scratchpad lacks required headings.
	CellIncomplete Cell = "incomplete"
	// CellMissing: a scratchpad was due but there is none (the coordinator's,
	// on a date with subagent scratchpads).
	CellMissing Cell = "missing"
	// CellUnreadable: the file is there but could not be checked (unreadable,
	// not a file, or outside the root).
	CellUnreadable Cell = "unreadable"
)

// Grid is a Report as a table of agents by dates.
type Grid struct {
	// Dates are the dates anyone but the ego wrote on, oldest first.
	Dates []string
	// Rows are the coordinator first, then the subagents by name. There
	// are none when no coordinator or subagent file was checked.
	Rows []GridRow
}

// GridRow is one agent's cells, one per Grid date.
type GridRow struct {
	Dir   string
	Agent string
	Cells []Cell
}

// Grid arranges the report's files by agent and date. The ego is left out:
// the protocol fixes only the coordinator's and the subagents' files. A
// coordinator cell is missing where Check reported missing_coordinator. A
// subagent's absent file is idle: nothing records whom the coordinator
// delegated to, only who wrote.
func (r *Report) Grid() Grid {
	cells := map[string]map[string]Cell{} // dir -> date -> cell
	agents := map[string]string{}         // dir -> display name
	dates := map[string]bool{}
	set := func(dir, agent, date string, c Cell) {
		if cells[dir] == nil {
			cells[dir] = map[string]Cell{}
			agents[dir] = agent
		}
		cells[dir][date] = c
		dates[date] = true
	}
	for _, f := range r.Files {
		switch {
		case f.Dir == EgoDir:
		case f.Fault != "":
			set(f.Dir, f.Agent, f.Date, CellUnreadable)
		case len(f.Missing) > 0:
			set(f.Dir, f.Agent, f.Date, CellIncomplete)
		default:
			set(f.Dir, f.Agent, f.Date, CellCompliant)
		}
	}
	for _, v := range r.Violations {
		if v.Kind == KindMissingCoordinator && cells[CoordinatorDir][v.Date] == CellIdle {
			set(CoordinatorDir, DisplayName(CoordinatorDir), v.Date, CellMissing)
		}
	}
	var g Grid
	if len(dates) == 0 {
		return g
	}
	for d := range dates {
		g.Dates = append(g.Dates, d)
	}
	sort.Strings(g.Dates)
	dirs := make([]string, 0, len(cells))
	for dir := range cells {
		if dir != CoordinatorDir {
			dirs = append(dirs, dir)
		}
	}
	sort.Slice(dirs, func(i, j int) bool {
		a, b := dirs[i], dirs[j]
		if agents[a] != agents[b] {
			return agents[a] < agents[b]
		}
		return a < b // "a%zz" (shown as it is) and "a%25zz" both show as "a%zz"
	})
	dirs = append([]string{CoordinatorDir}, dirs...)
	for _, dir := range dirs {
		row := GridRow{Dir: dir, Agent: DisplayName(dir), Cells: make([]Cell, len(g.Dates))}
		for i, d := range g.Dates {
			row.Cells[i] = cells[dir][d]
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}
