package inbox

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Part is one piece of a delivery, shown in its own strategy.
type Part struct {
	Text     string
	Strategy string
}

// rule is the banners' line (seed 002).
const rule = "============================================================"

// peerBanner and peerAction open and close MassGen's injection of new
// peer answers (MassGen 0.1.9x, voting mode: the orchestrator's
// build_tool_result_injection), line for line.
const peerBanner = rule + "\n⚠️  IMPORTANT: NEW ANSWER RECEIVED - ACTION REQUIRED\n" + rule + "\n"

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

// peerCut is where MassGen cuts a peer answer in its injection (in
// characters, as Python counts them), adding "..."; the whole answer is in
// the sender's workspace copy the injection points at.
const peerCut = 500

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
		renderPeers(&b, items)
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

// renderPeers writes MassGen's injection of new peer answers, the newest
// of each sender's: the banner; a header naming who submitted (agent1
// (agent1.1)) and who updated (agent1 (agent1.1 -> agent1.2)); the ANSWER
// LABEL UPDATES block; each answer, cut at peerCut, under its anonymous id
// and workspace; then the required actions. An answer without a label or workspace (sent before
// labels were kept, or without --workspace) leaves those parts out.
func renderPeers(b *strings.Builder, items []Item) {
	items = newestPerSender(items)
	var added, updated, transitions []string
	for _, it := range items {
		id := sender(it, "an agent")
		switch {
		case it.Update && it.OldLabel != "" && it.Label != "" && it.OldLabel != it.Label:
			updated = append(updated, fmt.Sprintf("%s (%s -> %s)", id, it.OldLabel, it.Label))
			transitions = append(transitions, fmt.Sprintf("  - %s: %s -> %s", id, it.OldLabel, it.Label))
		case !it.Update && it.Label != "":
			added = append(added, fmt.Sprintf("%s (%s)", id, it.Label))
			transitions = append(transitions, fmt.Sprintf("  - %s: now available as %s", id, it.Label))
		case it.Update:
			updated = append(updated, id)
		default:
			added = append(added, id)
		}
	}
	var header string
	switch {
	case len(added) > 0 && len(updated) > 0:
		header = fmt.Sprintf("[UPDATE: %s submitted new answer(s); %s updated their answer(s)]", strings.Join(added, ", "), strings.Join(updated, ", "))
	case len(updated) > 0:
		header = fmt.Sprintf("[UPDATE: %s updated their answer(s)]", strings.Join(updated, ", "))
	default:
		header = fmt.Sprintf("[UPDATE: %s submitted new answer(s)]", strings.Join(added, ", "))
	}
	if len(transitions) == 0 {
		transitions = []string{"  - (no label change details available)"}
	}
	b.WriteString(peerBanner)
	fmt.Fprintf(b, "\n%s\n\nANSWER LABEL UPDATES:\n%s\n\n", header, strings.Join(transitions, "\n"))
	for _, it := range items {
		ws := ""
		if it.Workspace != "" {
			ws = fmt.Sprintf(" (workspace: %s)", it.Workspace)
		}
		fmt.Fprintf(b, "  [%s]%s:\n    %s\n\n", sender(it, "an agent"), ws, cutAnswer(strings.TrimRight(it.Text, "\n")))
	}
	b.WriteString(peerAction)
}

// newestPerSender keeps, of several answers from one sender, the newest,
// where the first was, and reads it against what the recipient had before
// the first: MassGen shows each agent's newest answer once.
func newestPerSender(items []Item) []Item {
	out := make([]Item, 0, len(items))
	at := map[string]int{}
	for _, it := range items {
		from := it.Message.From
		if i, ok := at[from]; ok && from != "" {
			it.OldLabel, it.Update = out[i].OldLabel, out[i].Update
			out[i] = it
			continue
		}
		at[from] = len(out)
		out = append(out, it)
	}
	return out
}

// cutAnswer is MassGen's cut of an answer: its first peerCut characters
// and "...", when it is longer.
func cutAnswer(text string) string {
	if utf8.RuneCountInString(text) <= peerCut {
		return text
	}
	return string([]rune(text)[:peerCut]) + "..."
}

func sender(it Item, unnamed string) string {
	if it.Sender == "" {
		return unnamed
	}
	return it.Sender
}
