package inbox

import (
	"fmt"
	"slices"
	"strings"
)

// Part is one piece of a delivery, shown in its own strategy.
type Part struct {
	Text     string
	Strategy string
}

// rule is the banners' line (seed 002).
const rule = "============================================================"

// peerAction is MassGen's required-action list after new peer answers
// (seed 002, MidStreamInjectionHook).
const peerAction = rule + `
REQUIRED ACTION - You MUST do one of the following:
` + rule + `
1. **ADD A TASK** to your plan: 'Evaluate agent answer(s) and decide next action'
- Use update_task_status or create a new task to track this evaluation
- Read their workspace files (paths above) to understand their solution
- Compare their approach to yours
2. **THEN CHOOSE ONE**:
a) VOTE for their answer if it's complete and correct (use vote tool)
b) BUILD on their work - improve/extend it and submit YOUR enhanced answer
c) MERGE approaches - combine the best parts of their work with yours
d) CONTINUE your own approach if you believe it's better
DO NOT ignore this update - you must explicitly evaluate and decide!
` + rule

// Parts renders the batch, oldest first. Consecutive messages of one
// source and strategy share one banner (several peer answers are one
// update); each keeps its own strategy, never the last one's.
func (b *Batch) Parts() []Part {
	var parts []Part
	items := b.Items
	for len(items) > 0 {
		n := 1
		for n < len(items) && items[n].Message.Source == items[0].Message.Source && items[n].Message.Strategy == items[0].Message.Strategy {
			n++
		}
		parts = append(parts, Part{Text: render(items[:n]), Strategy: items[0].Message.Strategy})
		items = items[n:]
	}
	return parts
}

// Text is the whole batch as plain text, for a turn boundary's block reason
// or session context, under a header saying these arrived too late for a
// tool call.
func (b *Batch) Text() string {
	var parts []string
	for _, p := range b.Parts() {
		parts = append(parts, p.Text)
	}
	head := "Messages sent to you that expired before a tool call could deliver them (massgen-hook inbox). Read them now; act on any that still matter:"
	return head + "\n\n" + strings.Join(parts, "\n\n")
}

// render shows a run of messages of one source.
func render(items []Item) string {
	var b strings.Builder
	switch items[0].Message.Source {
	case Peer:
		senders := make([]string, 0, len(items))
		for _, it := range items {
			if !slices.Contains(senders, sender(it, "an agent")) {
				senders = append(senders, sender(it, "an agent"))
			}
		}
		fmt.Fprintf(&b, "%s\n⚠️ IMPORTANT: NEW ANSWER RECEIVED - ACTION REQUIRED\n%s\n[UPDATE: %s submitted new answer(s)]\n",
			rule, rule, strings.Join(senders, ", "))
		for i, it := range items {
			if i > 0 {
				b.WriteString("\n")
			}
			ws := ""
			if it.Workspace != "" {
				ws = fmt.Sprintf(" (workspace: %s)", it.Workspace)
			}
			fmt.Fprintf(&b, "[%s]%s:\n%s\n", sender(it, "an agent"), ws, strings.TrimRight(it.Text, "\n"))
		}
		b.WriteString(peerAction)
	case Human:
		for i, it := range items {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "[Human Input]: %s", strings.TrimRight(it.Text, "\n"))
		}
	case Subagent:
		fmt.Fprintf(&b, "[BACKGROUND SUBAGENT RESULTS: %d completed]", len(items))
		for _, it := range items {
			fmt.Fprintf(&b, "\n\n[%s]:\n%s", sender(it, "subagent"), strings.TrimRight(it.Text, "\n"))
		}
	case Background:
		fmt.Fprintf(&b, "[BACKGROUND TOOL RESULTS: %d completed]", len(items))
		for _, it := range items {
			fmt.Fprintf(&b, "\n\n[%s]:\n%s", sender(it, "background job"), strings.TrimRight(it.Text, "\n"))
		}
	default:
		for i, it := range items {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(strings.TrimRight(it.Text, "\n"))
		}
	}
	return b.String()
}

func sender(it Item, unnamed string) string {
	if it.Sender == "" {
		return unnamed
	}
	return it.Sender
}
