"""Tests of the MassGen adapter against the real massgen-hook binary.

MASSGEN_HOOK_TEST_BIN names the binary (.ci/run builds bin/massgen-hook and
passes it); without it the tests that need it skip, saying so. MassGen itself
is not installed: HookEvent and HookResult below stand in for
massgen.mcp_tools.hooks's, with the same fields and the same from_dict rules
(allowed false is a deny whatever decision says, and decision deny makes
allowed false).

Run: python3 -m unittest -v (in this folder).
"""

import dataclasses
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import massgen_hook_adapter as adapter

BIN = os.environ.get("MASSGEN_HOOK_TEST_BIN", "")


@dataclasses.dataclass
class HookEvent:
    """MassGen's HookEvent: what a python hook is called with."""

    hook_type: str
    session_id: str
    orchestrator_id: str
    agent_id: object
    timestamp: datetime.datetime
    tool_name: str
    tool_input: dict
    tool_output: object = None

    def to_dict(self):
        return {
            "hook_type": self.hook_type,
            "session_id": self.session_id,
            "orchestrator_id": self.orchestrator_id,
            "agent_id": self.agent_id,
            "timestamp": self.timestamp.isoformat(),
            "tool_name": self.tool_name,
            "tool_input": self.tool_input,
            "tool_output": self.tool_output,
        }


@dataclasses.dataclass
class HookResult:
    """MassGen's HookResult, read from a dict as from_dict reads it."""

    allowed: bool = True
    metadata: dict = dataclasses.field(default_factory=dict)
    modified_args: object = None
    decision: str = "allow"
    reason: object = None
    updated_input: object = None
    inject: object = None
    hook_errors: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        if not self.allowed:
            self.decision = "deny"
        elif self.decision == "deny":
            self.allowed = False

    @classmethod
    def from_dict(cls, data):
        return cls(
            allowed=data.get("allowed", True),
            metadata=data.get("metadata", {}),
            modified_args=data.get("modified_args"),
            decision=data.get("decision", "allow"),
            reason=data.get("reason"),
            updated_input=data.get("updated_input"),
            inject=data.get("inject"),
            hook_errors=data.get("hook_errors", []),
        )


def event(hook_type, tool_name, tool_input, tool_output=None, agent_id="agent_a"):
    return HookEvent(
        hook_type=hook_type,
        session_id="sess-1",
        orchestrator_id="orch-1",
        agent_id=agent_id,
        timestamp=datetime.datetime(2026, 11, 20, 10, 0, tzinfo=datetime.timezone.utc),
        tool_name=tool_name,
        tool_input=tool_input,
        tool_output=tool_output,
    )


def run(a, ev):
    """What MassGen makes of the handler's answer."""
    return HookResult.from_dict(a(ev))


class Project(unittest.TestCase):
    """A temporary project, with its own environment for the binary."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="massgen-adapter-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.environ = {"PATH": os.environ.get("PATH", ""), "HOME": self.dir, "MASSGEN_HOOK_NOW": "2026-11-20T10:00:00Z"}

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def fake(self, script):
        """A stand-in binary: a shell script."""
        return self.write("bin/fake-massgen-hook", "#!/bin/sh\n" + script + "\n", 0o755)

    def adapter(self, **kw):
        kw.setdefault("binary", BIN)
        return adapter.Adapter(project=self.dir, environ=self.environ, **kw)


@unittest.skipUnless(BIN, "MASSGEN_HOOK_TEST_BIN is not set: build bin/massgen-hook and pass its path to run these")
class RealBinary(Project):
    def setUp(self):
        super().setUp()
        if not os.access(BIN, os.X_OK):
            self.fail("MASSGEN_HOOK_TEST_BIN=%s is not an executable file" % BIN)

    def test_guard_denies(self):
        r = run(self.adapter(), event("PreToolUse", "Bash", {"command": "cat .env"}))
        self.assertFalse(r.allowed)
        self.assertEqual(r.decision, "deny")
        self.assertIn("reading .env is not allowed", r.reason)

    def test_harmless_call_is_allowed(self):
        r = run(self.adapter(), event("PreToolUse", "Bash", {"command": "ls"}))
        self.assertEqual((r.allowed, r.decision, r.reason, r.updated_input, r.inject), (True, "allow", None, None, None))

    def test_rewrite_becomes_updated_input(self):
        self.write(".claude/massgen-hook.yaml", "default_guards: false\nhooks:\n  PreToolUse:\n    - shell: cat answer.json\n")
        self.write("answer.json", '{"modified_args": "{\\"command\\": \\"ls -la\\"}"}')
        r = run(self.adapter(), event("PreToolUse", "Bash", {"command": "ls"}))
        self.assertTrue(r.allowed)
        self.assertEqual(r.updated_input, {"command": "ls -la"})

    def test_post_tool_use_injects_the_agents_inbox(self):
        # agent_id reaches massgen-hook as the recipient: agent_b's message
        # waits for agent_b, not agent_a.
        subprocess.run([BIN, "send", "--to", "agent_b", "Use PostgreSQL."], cwd=self.dir, env=self.environ, check=True, capture_output=True)
        a = self.adapter()
        r = run(a, event("PostToolUse", "Bash", {"command": "ls"}, tool_output="out", agent_id="agent_a"))
        self.assertIsNone(r.inject)
        r = run(a, event("PostToolUse", "Bash", {"command": "ls"}, tool_output="out", agent_id="agent_b"))
        self.assertTrue(r.allowed)
        self.assertEqual(r.inject["strategy"], "tool_result")
        self.assertIn("Use PostgreSQL.", r.inject["content"])

    def test_dict_event_with_nulls_and_extra_keys(self):
        # A dict works as well as a HookEvent; tool_output null on
        # PreToolUse (as MassGen sends it) and keys the adapter does not
        # read (some MassGen versions add "event") change nothing.
        ev = event("PreToolUse", "Bash", {"command": "cat .env"}).to_dict()
        ev["event"] = "PreToolUse"
        r = run(self.adapter(), ev)
        self.assertFalse(r.allowed)
        self.assertIn("reading .env is not allowed", r.reason)


class Failures(Project):
    """How the adapter answers when massgen-hook gives no verdict."""

    def test_exit_2_denies_with_stderr(self):
        r = run(self.adapter(binary=self.fake("echo 'no writes today' >&2; exit 2")), event("PreToolUse", "Write", {}))
        self.assertEqual((r.allowed, r.decision, r.reason), (False, "deny", "no writes today"))

    def test_missing_binary_denies(self):
        r = run(self.adapter(binary=os.path.join(self.dir, "nowhere")), event("PreToolUse", "Bash", {"command": "ls"}))
        self.assertFalse(r.allowed)
        self.assertIn("massgen-hook not found", r.reason)
        self.assertTrue(r.hook_errors)

    def test_missing_binary_on_path_denies(self):
        r = run(self.adapter(binary="massgen-hook-not-installed"), event("PreToolUse", "Bash", {"command": "ls"}))
        self.assertFalse(r.allowed)
        self.assertIn("massgen-hook not found (massgen-hook-not-installed)", r.reason)

    def test_missing_binary_allows_when_asked(self):
        r = run(self.adapter(binary=os.path.join(self.dir, "nowhere"), on_error="allow"), event("PreToolUse", "Bash", {}))
        self.assertTrue(r.allowed)
        self.assertIn("massgen-hook not found", r.hook_errors[0])

    def test_failure_after_the_tool_ran_allows(self):
        r = run(self.adapter(binary=os.path.join(self.dir, "nowhere")), event("PostToolUse", "Bash", {}, tool_output="x"))
        self.assertTrue(r.allowed)
        self.assertTrue(r.hook_errors)

    def test_timeout_denies(self):
        # The fake (and its child, in the same session) waits on a FIFO no
        # one ever opens for writing: only the timeout ends it.
        fifo = os.path.join(self.dir, "never")
        os.mkfifo(fifo)
        a = self.adapter(binary=self.fake("cat %s; echo done" % fifo), timeout=0.3)
        r = run(a, event("PreToolUse", "Bash", {}))
        self.assertFalse(r.allowed)
        self.assertIn("timed out after 0.3s; it was killed", r.reason)

    def test_other_exit_status_denies(self):
        r = run(self.adapter(binary=self.fake("echo 'db down' >&2; exit 1")), event("PreToolUse", "Bash", {}))
        self.assertFalse(r.allowed)
        self.assertIn("exited with status 1: db down", r.reason)

    def test_unreadable_output_denies(self):
        r = run(self.adapter(binary=self.fake("echo not json")), event("PreToolUse", "Bash", {}))
        self.assertFalse(r.allowed)
        self.assertIn("unreadable output", r.reason)

    def test_bad_on_error(self):
        with self.assertRaises(ValueError):
            self.adapter(on_error="maybe")


class Mapping(Project):
    """Claude Code's hook output, as massgen-hook prints it, to a HookResult."""

    def answer(self, stdout, hook_type="PreToolUse"):
        fake = self.fake("cat >/dev/null; cat <<'EOF'\n%s\nEOF" % stdout)
        return run(self.adapter(binary=fake), event(hook_type, "Bash", {"command": "ls"}, tool_output="x" if hook_type == "PostToolUse" else None))

    def test_ask(self):
        r = self.answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}')
        self.assertEqual((r.allowed, r.decision, r.reason), (True, "ask", "sure?"))

    def test_post_block(self):
        r = self.answer('{"decision":"block","reason":"leaks a key"}', "PostToolUse")
        self.assertEqual((r.allowed, r.reason), (False, "leaks a key"))

    def test_empty_output(self):
        r = self.answer("")
        self.assertEqual((r.allowed, r.decision), (True, "allow"))

    def test_system_message_kept(self):
        r = self.answer('{"systemMessage":"rule x failed"}')
        self.assertTrue(r.allowed)
        self.assertEqual(r.metadata, {"system_message": "rule x failed"})

    def test_stdin_is_the_claude_code_event(self):
        out = os.path.join(self.dir, "stdin.json")
        fake = self.fake('cat > %s; echo "$MASSGEN_AGENT_ID $CLAUDE_PROJECT_DIR" > %s.env' % (out, out))
        self.adapter(binary=fake)(event("PostToolUse", "Read", {"file_path": "a"}, tool_output="text", agent_id="agent_c"))
        with open(out) as f:
            self.assertEqual(
                json.load(f),
                {"hook_event_name": "PostToolUse", "session_id": "sess-1", "cwd": self.dir, "tool_name": "Read", "tool_input": {"file_path": "a"}, "tool_response": "text"},
            )
        with open(out + ".env") as f:
            self.assertEqual(f.read().split(), ["agent_c", self.dir])

    def test_other_hook_types_pass(self):
        r = run(self.adapter(binary=os.path.join(self.dir, "nowhere")), event("Notification", "", {}))
        self.assertEqual((r.allowed, r.hook_errors), (True, []))


if __name__ == "__main__":
    sys.exit(unittest.main())
