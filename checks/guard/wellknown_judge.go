package guard

import (
	"context"
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/engine"
)

// checkFunc is one guard's judgement of a call.
type checkFunc func(context.Context, *engine.Call) (engine.Verdict, error)

// asOwnTool is call put as a call of the CLI's own tool (Bash, Grep) with
// input: the same event, cwd and project, so the guard judges it as it
// judges that tool.
func asOwnTool(call *engine.Call, tool string, input map[string]any) *engine.Call {
	sub := *call
	ev := *call.Event
	ev.ToolName = tool
	sub.Event = &ev
	sub.ToolInput, _ = json.Marshal(input) // strings only: cannot fail
	return &sub
}

// judgeCommands judges each command line a table tool's call stands for
// with check, one guard's Bash judgement; the first that stops the call
// answers, saying which command it judged when the tool gave none.
func judgeCommands(ctx context.Context, call *engine.Call, cmds []toolCommand, check checkFunc) (engine.Verdict, error) {
	var notes []string
	for _, c := range cmds {
		v, err := check(ctx, asOwnTool(call, "Bash", map[string]any{"command": c.line}))
		if err != nil {
			return v, err
		}
		if v.Decision != "" {
			if c.as != "" {
				v.Reason += " (" + c.as + ".)"
			}
			v.Notes = append(notes, v.Notes...)
			return v, nil
		}
		notes = append(notes, v.Notes...)
	}
	return engine.Verdict{Notes: notes}, nil
}

// tableNote is what a guard notes when the table of well-known tools
// cannot be read: those tools go unchecked, and the user is told.
func tableNote(err error) engine.Verdict {
	return engine.Verdict{Notes: []string{"the table of well-known tools could not be read (" + err.Error() + "); MCP and MassGen tools went unchecked"}}
}

// dangerousTool runs the dangerous-command rules on the command lines a
// table tool's call stands for. found is false for a tool not in the
// table.
func (d *dangerousCommands) dangerousTool(ctx context.Context, call *engine.Call) (v engine.Verdict, found bool, err error) {
	row, ok, terr := lookupTool(call.Event.ToolName)
	if terr != nil {
		return tableNote(terr), true, nil
	}
	if !ok {
		if cmds := unknownCommands(call); len(cmds) > 0 {
			v, err = judgeCommands(ctx, call, cmds, d.Check)
			return v, true, err
		}
		return engine.Verdict{}, false, nil
	}
	a := actionsOf(call.Event.ToolName, row, call.ToolInput)
	v, err = judgeCommands(ctx, call, a.commands, d.Check)
	return v, true, err
}

// everyFile is the selection of a tool that reads every file below a
// folder (it has no options that leave one out).
func everyFile(tool string) *shellcmd.Selection {
	return &shellcmd.Selection{Reader: tool, Hidden: true, Ignored: true, Untracked: true}
}

// protectedTool runs the protected-path rules on what a table tool's call
// does: its command lines as Bash, its paths as the file tools' paths,
// its searches as Grep's. found is false for a tool not in the table.
func (p *protectedPaths) protectedTool(ctx context.Context, call *engine.Call, g *guard) (v engine.Verdict, found bool, err error) {
	row, ok, terr := lookupTool(call.Event.ToolName)
	if terr != nil {
		return tableNote(terr), true, nil
	}
	if !ok {
		return engine.Verdict{}, false, nil
	}
	a := actionsOf(call.Event.ToolName, row, call.ToolInput)
	if len(a.paths)+len(a.searches)+len(a.commands) == 0 {
		// None of the row's arguments is there: another server's tool
		// of the same name (mcp__github__search_code is not Desktop
		// Commander's), whose arguments are walked as any unknown tool's.
		return g.unknownTool(call), true, nil
	}
	for _, pr := range a.paths {
		if pr.role == "code" {
			// A name in code: read if it is there, and written if it is
			// protected (code may open it either way); a bare word only
			// if it is there. Outside the project it is no write: code
			// reads data from anywhere.
			if !bareWord(pr.path) || g.exists(pr.path) {
				for _, write := range []bool{false, true} {
					if f := g.judge(pr.path, g.Cwd, write, true); f != nil && f.pattern != "" {
						return g.verdict(f), true, nil
					}
				}
			}
			continue
		}
		// A listing shows names, not content: the path it names is judged,
		// as a read, and nothing below it.
		if f := g.judge(pr.path, g.Cwd, pr.role == "write", true); f != nil {
			return g.verdict(f), true, nil
		}
		if pr.role == "read_tree" {
			e := shellcmd.Effect{Op: shellcmd.Read, Path: shellcmd.Word{Value: pr.path, Known: true}, Tree: true, Select: everyFile(call.Event.ToolName)}
			if f := g.tree(ctx, e, g.Cwd); f != nil {
				return g.verdict(f), true, nil
			}
		}
	}
	if len(a.searches) > 0 {
		if f := g.searchFolders(ctx, a.searches, a.search, call.Event.ToolName); f != nil {
			return g.verdict(f), true, nil
		}
	}
	v, err = judgeCommands(ctx, call, a.commands, p.Check)
	if err != nil || v.Decision != "" {
		return v, true, err
	}
	if extra := g.extraArgs(call, row); extra.Decision != "" {
		return extra, true, nil
	}
	out := g.verdict(nil)
	out.Notes = append(out.Notes, v.Notes...)
	return out, true, nil
}

// extraArgs judges the arguments of a table tool's call that its row does
// not name (another server's read_file with an "include" list, a fetch
// with a "save_to"), as an unknown tool's: as written when the tool's
// name, or the argument's, says so.
func (g *guard) extraArgs(call *engine.Call, row toolRow) engine.Verdict {
	return g.walkArgs(call.Event.ToolName, gjson.ParseBytes(call.ToolInput), row.Args)
}
