"""Run massgen-hook as a MassGen hook.

MassGen loads hooks as Python callables only (``type: python``, ``handler:
module.attr``). This module is that callable: ``handle`` turns MassGen's
HookEvent into the Claude Code hook event massgen-hook reads, runs
``massgen-hook pre-tool-use`` or ``post-tool-use`` with it on stdin, and maps
the answer back to a dict MassGen reads with ``HookResult.from_dict``.

Settings come from the environment of the MassGen process:

MASSGEN_HOOK_BIN
    the massgen-hook binary (default: ``massgen-hook`` on PATH).
MASSGEN_HOOK_PROJECT
    the project massgen-hook judges paths in (default: the working directory).
MASSGEN_HOOK_TIMEOUT
    seconds to wait for an answer (default 25, under MassGen's own 30, so
    this module decides what a slow answer means, not MassGen).
MASSGEN_HOOK_ON_ERROR
    ``deny`` (default) or ``allow``: what a tool call gets when massgen-hook
    cannot give a verdict (missing binary, timeout, crash, unreadable answer).

Only the standard library is used, so the file can be copied anywhere on
MassGen's import path.
"""

import json
import os
import shutil
import signal
import subprocess
import sys

__all__ = ["handle", "Adapter"]

_SUBCOMMANDS = {"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use"}


class Adapter:
    """A massgen-hook call with its settings; ``handle`` uses the environment's."""

    def __init__(self, binary=None, project=None, timeout=None, on_error=None, environ=None):
        env = os.environ if environ is None else environ
        self.binary = binary or env.get("MASSGEN_HOOK_BIN") or "massgen-hook"
        self.project = project or env.get("MASSGEN_HOOK_PROJECT") or os.getcwd()
        self.timeout = float(timeout or env.get("MASSGEN_HOOK_TIMEOUT") or 25)
        self.on_error = on_error or env.get("MASSGEN_HOOK_ON_ERROR") or "deny"
        if self.on_error not in ("deny", "allow"):
            raise ValueError("MASSGEN_HOOK_ON_ERROR must be deny or allow, not %r" % self.on_error)
        self.environ = dict(env)

    def __call__(self, event):
        ev = _event_dict(event)
        hook_type = ev.get("hook_type") or "PreToolUse"
        sub = _SUBCOMMANDS.get(hook_type)
        if sub is None:
            return {"allowed": True}
        path = self.binary if os.sep in self.binary else shutil.which(self.binary, path=self.environ.get("PATH"))
        if not path or not os.path.isfile(path):
            return self._failed(hook_type, "massgen-hook not found (%s); install it or set MASSGEN_HOOK_BIN" % self.binary)
        env = dict(self.environ)
        env["CLAUDE_PROJECT_DIR"] = self.project
        if ev.get("agent_id"):
            # massgen-hook's name for an orchestrated agent: its inbox and
            # per-agent rules follow it.
            env["MASSGEN_AGENT_ID"] = ev["agent_id"]
        try:
            # Its own session, so a timeout kills massgen-hook and every
            # handler it started, not massgen-hook alone.
            proc = subprocess.Popen(
                [path, sub],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.project,
                env=env,
                start_new_session=True,
            )
        except OSError as e:
            return self._failed(hook_type, "massgen-hook could not start: %s" % e)
        try:
            stdout, stderr = proc.communicate(json.dumps(_claude_event(ev, self.project)).encode(), timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return self._failed(hook_type, "massgen-hook timed out after %gs; it was killed" % self.timeout)
        done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
        stderr = done.stderr.decode("utf-8", "replace").strip()
        if done.returncode == 2:
            return {"allowed": False, "decision": "deny", "reason": stderr or "denied by massgen-hook (exit 2)"}
        if done.returncode != 0:
            return self._failed(hook_type, "massgen-hook exited with status %d: %s" % (done.returncode, _first_line(stderr)))
        if stderr:
            _warn(stderr)
        try:
            return _hook_result(done.stdout)
        except ValueError as e:
            return self._failed(hook_type, "massgen-hook answered with unreadable output: %s" % e)

    def _failed(self, hook_type, why):
        _warn(why)
        if self.on_error == "allow" or hook_type == "PostToolUse":
            # After the tool ran there is nothing left to deny.
            return {"allowed": True, "hook_errors": [why]}
        return {"allowed": False, "decision": "deny", "reason": why + " (MASSGEN_HOOK_ON_ERROR=deny)", "hook_errors": [why]}


def handle(event):
    """MassGen's handler: ``handler: massgen_hook_adapter.handle``."""
    return Adapter()(event)


def _event_dict(event):
    if isinstance(event, dict):
        return event
    if hasattr(event, "to_dict"):
        return event.to_dict()
    return dict(vars(event))


def _claude_event(ev, project):
    """The Claude Code event for a MassGen HookEvent."""
    out = {
        "hook_event_name": ev.get("hook_type") or "PreToolUse",
        "session_id": ev.get("session_id") or "",
        "cwd": project,
        "tool_name": ev.get("tool_name") or "",
        "tool_input": ev.get("tool_input") if ev.get("tool_input") is not None else {},
    }
    if out["hook_event_name"] == "PostToolUse":
        out["tool_response"] = ev.get("tool_output") if ev.get("tool_output") is not None else ""
    return out


def _hook_result(stdout):
    """MassGen's HookResult, as a dict, for Claude Code's hook output."""
    text = stdout.decode("utf-8", "replace").strip()
    if not text:
        return {"allowed": True}
    out = json.loads(text)  # a ValueError when it is not JSON
    if not isinstance(out, dict):
        raise ValueError("not a JSON object")
    result = {"allowed": True}
    specific = out.get("hookSpecificOutput") or {}
    decision = specific.get("permissionDecision")
    reason = specific.get("permissionDecisionReason")
    if out.get("decision") == "block":
        decision, reason = "deny", out.get("reason")
    if decision == "deny":
        result.update(allowed=False, decision="deny", reason=reason or "denied by massgen-hook")
    elif decision == "ask":
        result.update(decision="ask", reason=reason)
    if isinstance(specific.get("updatedInput"), dict):
        result["updated_input"] = specific["updatedInput"]
    if specific.get("additionalContext"):
        # massgen-hook has already framed the content (separator block,
        # reminders): tool_result appends it to the tool output as is.
        result["inject"] = {"content": specific["additionalContext"], "strategy": "tool_result"}
    if specific.get("updatedToolOutput") is not None or out.get("continue") is False:
        _warn("massgen-hook asked to replace the tool output or stop the agent; a MassGen hook cannot, so it was not done")
    if out.get("systemMessage"):
        _warn(out["systemMessage"])
        result["metadata"] = {"system_message": out["systemMessage"]}
    return result


def _first_line(text):
    return text.splitlines()[0] if text else ""


def _warn(message):
    """Tell the user: MassGen shows a hook's stderr in its log and terminal."""
    print("massgen-hook adapter: " + message, file=sys.stderr)
