//go:build realcli

package realcli

import "strings"

// Codex's subagents (features.multi_agent_v2): the model calls
// collaboration.spawn_agent with an agent_type, one of the roles the
// config declares; the subagent's hooks carry agent_id and that
// agent_type; its final answer reaches the main agent as an agent_message
// ("Message Type: FINAL_ANSWER").

// codexScribeProject turns Codex's subagents on in the project's own
// config and declares the scribe role.
func codexScribeProject(s *Session) {
	s.WriteFile(".codex/config.toml", "[features]\nmulti_agent_v2 = true\n\n"+
		"[agents.scribe]\ndescription = \"Writes short notes when asked to.\"\n")
}

// cxSpawnNamed starts a scribe subagent named name (its path is
// /root/<name>) on task, with none of the main agent's history: two
// subagents of one session need names of their own.
func cxSpawnNamed(id, name, task string) Reply {
	return Use(id, "collaboration.spawn_agent", map[string]any{
		"task_name": name, "agent_type": "scribe", "message": task, "fork_turns": "none"})
}

// finalAnswer is how a subagent's result reaches the main agent.
const finalAnswer = "Message Type: FINAL_ANSWER"

// codexWait: after the spawn call spawnID, the main agent waits for the
// subagent unless its answer is already there.
func codexWait(m *Model, spawnID string) {
	m.On("main-waits", All(Main, After(spawnID), Not(Arrived(finalAnswer))),
		Use("call_wait", "collaboration.wait_agent", map[string]any{"timeout_ms": 60000}))
}

// cxAddFile is a patch adding the file path with content.
func cxAddFile(path, content string) string {
	return "*** Begin Patch\n*** Add File: " + path + "\n+" +
		strings.ReplaceAll(strings.TrimSuffix(content, "\n"), "\n", "\n+") + "\n*** End Patch\n"
}

// cxAddLines is a patch adding lines at the end of path, after its last
// line last.
func cxAddLines(path, last, lines string) string {
	return "*** Begin Patch\n*** Update File: " + path + "\n@@\n " + last + "\n+" +
		strings.ReplaceAll(strings.TrimSuffix(lines, "\n"), "\n", "\n+") + "\n*** End Patch\n"
}
