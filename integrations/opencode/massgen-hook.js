// massgen-hook opencode plugin: massgen-hook init wrote this file; massgen-hook uninstall removes it.
//
// OpenCode runs no hook commands of its own. This plugin hands each tool
// call, tool result and session or subagent moment to the massgen-hook
// binary (one JSON object on its stdin, never in its arguments, never
// through a shell) and applies the answer: a block, changed arguments,
// context, a replaced result. Every judgement is the binary's; this file
// only translates. It uses nothing but OpenCode's plugin API and node:
// built-ins.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BINARY = "@MASSGEN_HOOK_BINARY@";
const SCOPE = "@MASSGEN_HOOK_SCOPE@";
const SUBCOMMANDS = ["@MASSGEN_HOOK_SUBCOMMANDS@"];

const DIALECT = "opencode";
const PROJECT_ENV = "OPENCODE_PROJECT_DIR";
const TIMEOUT_MS = { tool: 60000, start: 15000, other: 10000 };
const FIX = "Run `massgen-hook doctor` to see why, or `massgen-hook init --agent opencode` to install it again.";
// The task tool runs a subagent in a child session and returns its answer.
const TASK_TOOL = "task";
// At most this many times is a subagent sent back before it may stop.
const MAX_SEND_BACKS = 10;

// projectRoot is the project massgen-hook serves. In project scope it is
// the folder two above this file (<project>/.opencode/plugins), so that
// neither OpenCode's idea of the directory nor a cd can move it; in user
// scope it is OpenCode's project (its worktree, "/" outside git).
function projectRoot(directory, worktree) {
  if (SCOPE === "project") {
    return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
  }
  return worktree && worktree !== "/" ? worktree : directory;
}

// run hands event to `massgen-hook <subcommand> --dialect opencode` and
// reads how it ended: {answer} (exit 0, its JSON answer or null), {block}
// (exit 2, the reason on stderr), {error} (exit 1: the hook failed and
// chose to let the action go on), or {failed} when it could not run or
// answer (missing, not executable, killed at the deadline, not JSON).
function run(root, subcommand, event, timeoutMs) {
  const binary = path.resolve(root, BINARY);
  // The hooks take CLAUDE_PROJECT_DIR first: one inherited from an outer
  // Claude Code session must not name another project.
  const env = { ...process.env, [PROJECT_ENV]: root };
  delete env.CLAUDE_PROJECT_DIR;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(binary, [subcommand, "--dialect", DIALECT], {
        cwd: root,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      resolve({ failed: `${binary} could not be started: ${err.message}` });
      return;
    }
    const out = [];
    const errOut = [];
    let timedOut = false;
    let settled = false;
    const finish = (r) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => errOut.push(b));
    child.on("error", (err) => finish({ failed: `${binary} could not be started: ${err.message}` }));
    child.on("close", (code, signal) => {
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(errOut).toString("utf8").trim();
      if (timedOut) return finish({ failed: `${binary} ${subcommand} did not answer within ${timeoutMs / 1000} s`, stderr });
      if (signal) return finish({ failed: `${binary} ${subcommand} was killed (${signal})`, stderr });
      if (code === 2) return finish({ block: stderr || `massgen-hook ${subcommand} blocked this`, stderr: "" });
      if (code !== 0) return finish({ error: code, stderr });
      if (stdout.trim() === "") return finish({ answer: null, stderr });
      try {
        finish({ answer: JSON.parse(stdout), stderr });
      } catch {
        finish({ failed: `${binary} ${subcommand} answered something that is not JSON`, stderr });
      }
    });
    // The hook may exit before reading all of a large event.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

// show tells the user what massgen-hook said to them: OpenCode shows a
// plugin's stderr in the terminal that runs it.
function show(text) {
  if (text) process.stderr.write(text.endsWith("\n") ? text : text + "\n");
}

// withContext is a tool's result text with context after it.
function withContext(output, context) {
  if (!context) return output;
  return output ? `${output}\n\n${context}` : context;
}

// replaceArgs makes args hold exactly next. OpenCode runs the tool with
// the very object it handed the plugin: only a change in place counts.
function replaceArgs(args, next) {
  for (const key of Object.keys(args)) if (!(key in next)) delete args[key];
  Object.assign(args, next);
}

// withTaskResult is the task tool's result with answer in place of the
// subagent's answer; a result of another shape gets it after.
function withTaskResult(output, answer) {
  const re = /(<task_result>\n?)[\s\S]*?(\n?<\/task_result>)/;
  if (re.test(output || "")) return output.replace(re, (_, open, close) => open + answer + close);
  return withContext(output, answer);
}

// taskResult is the subagent's answer in the task tool's result.
function taskResult(output) {
  const m = /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(output || "");
  return m ? m[1] : output || "";
}

export const MassgenHook = async ({ client, directory, worktree }) => {
  const root = projectRoot(directory, worktree);
  const wired = new Set(SUBCOMMANDS);
  // sessions: what each session is (a child session is a subagent's),
  // and the context its start hook gave, put in every request's system
  // prompt, which OpenCode builds anew for each.
  const sessions = new Map();
  // pending: context a pre-tool-use answer gave, added to the call's result.
  const pending = new Map();
  // blocked: calls this plugin blocked, whose error is no tool failure.
  const blocked = new Set();
  const failures = new Set();

  const session = async (id) => {
    let s = sessions.get(id);
    if (s) return s;
    s = { parentID: undefined, agent: undefined };
    try {
      const got = await client.session.get({ path: { id } });
      s.parentID = got?.data?.parentID;
      s.agent = got?.data?.agent;
    } catch {
      // Unknown: taken for a main session.
    }
    sessions.set(id, s);
    return s;
  };
  const base = async (name, sessionID) => {
    const s = await session(sessionID);
    const ev = { hook_event_name: name, session_id: sessionID, cwd: directory };
    if (s.parentID) {
      ev.parent_session_id = s.parentID;
      ev.agent = s.agent;
    }
    return ev;
  };

  // subagentStop runs subagent-stop when the task tool's subagent has
  // ended; while it blocks, the subagent (its child session) is sent back
  // with the reason as its next message, and its new answer becomes the
  // task's result. massgen-hook caps its own blocks; MAX_SEND_BACKS is
  // only a last stop. It returns a note for the user, if any.
  const subagentStop = async (input, output) => {
    const child = output.metadata.sessionId;
    const agent = input.args?.subagent_type;
    let answer = taskResult(output.output);
    for (let round = 0; round <= MAX_SEND_BACKS; round++) {
      const ev = await base("subagent.stop", child);
      ev.parent_session_id = input.sessionID;
      ev.agent = ev.agent || agent;
      ev.last_assistant_message = answer;
      ev.stop_hook_active = round > 0;
      const r = await run(root, "subagent-stop", ev, TIMEOUT_MS.other);
      show(r.stderr);
      if (r.failed) return `massgen-hook: subagent-stop did not run (${r.failed}). ${FIX}`;
      const reason = r.block || r.answer?.block;
      if (!reason) return "";
      if (round === MAX_SEND_BACKS) return `massgen-hook: the subagent was sent back ${round} times; it stops now: ${reason}`;
      try {
        const sent = await client.session.prompt({
          path: { id: child },
          body: { agent, parts: [{ type: "text", text: reason }] },
        });
        const texts = (sent?.data?.parts || []).filter((p) => p.type === "text" && p.text).map((p) => p.text);
        if (texts.length > 0) answer = texts.join("\n");
        output.output = withTaskResult(output.output, answer);
      } catch (err) {
        return `massgen-hook: the subagent could not be sent back (${err.message}); its stop stands: ${reason}`;
      }
    }
    return "";
  };

  return {
    event: async ({ event }) => {
      const p = event.properties || {};
      if (event.type === "session.created" && p.info) {
        const s = sessions.get(p.info.id) || {};
        sessions.set(p.info.id, { ...s, parentID: p.info.parentID, agent: p.info.agent });
        return;
      }
      if (event.type === "message.part.updated" && p.part?.type === "tool" && p.part.state?.status === "error") {
        const part = p.part;
        if (blocked.has(part.callID) || failures.has(part.callID) || !wired.has("post-tool-use-failure")) return;
        failures.add(part.callID);
        const ev = await base("tool.execute.error", part.sessionID);
        Object.assign(ev, { call_id: part.callID, tool: part.tool, args: part.state.input || {}, error: part.state.error || "" });
        const r = await run(root, "post-tool-use-failure", ev, TIMEOUT_MS.other);
        show(r.stderr || (r.failed ? `massgen-hook: ${r.failed}. ${FIX}` : ""));
        return;
      }
      if (event.type === "session.idle" && wired.has("stop")) {
        const s = await session(p.sessionID);
        if (s.parentID) return; // a subagent's end is the task tool's result
        const r = await run(root, "stop", await base("session.idle", p.sessionID), TIMEOUT_MS.other);
        show(r.stderr);
        if (r.failed) show(`massgen-hook: the stop hook did not run (${r.failed}). ${FIX}`);
        if (r.block) show(`massgen-hook would have kept the agent going: ${r.block}`);
      }
    },

    "experimental.chat.system.transform": async (input, output) => {
      if (!input.sessionID) return;
      const s = await session(input.sessionID);
      if (!s.started) {
        s.started = true;
        const sub = s.parentID ? "subagent-start" : "session-start";
        if (wired.has(sub)) {
          const r = await run(root, sub, await base(s.parentID ? "subagent.start" : "session.start", input.sessionID), TIMEOUT_MS.start);
          show(r.stderr);
          if (r.failed) show(`massgen-hook: ${sub} did not run, so this session goes on without its context (${r.failed}). ${FIX}`);
          s.context = r.answer?.context;
        }
      }
      if (s.context) output.system.push(s.context);
    },

    "tool.execute.before": async (input, output) => {
      if (!wired.has("pre-tool-use")) return;
      const ev = await base("tool.execute.before", input.sessionID);
      Object.assign(ev, { call_id: input.callID, tool: input.tool, args: output.args });
      const r = await run(root, "pre-tool-use", ev, TIMEOUT_MS.tool);
      show(r.stderr);
      const refuse = (reason) => {
        blocked.add(input.callID);
        throw new Error(reason);
      };
      if (r.failed) refuse(`massgen-hook could not check this call, so it is blocked: ${r.failed}. ${FIX}`);
      if (r.block) refuse(r.block);
      const a = r.answer || {};
      if (a.block) refuse(a.block);
      if (a.args && typeof a.args === "object") replaceArgs(output.args, a.args);
      if (a.context) pending.set(input.callID, a.context);
    },

    "tool.execute.after": async (input, output) => {
      let context = pending.get(input.callID) || "";
      pending.delete(input.callID);
      const notes = [];
      if (input.tool === TASK_TOOL && wired.has("subagent-stop") && output.metadata?.sessionId) {
        const note = await subagentStop(input, output);
        if (note) notes.push(note);
      }
      if (wired.has("post-tool-use")) {
        const ev = await base("tool.execute.after", input.sessionID);
        Object.assign(ev, { call_id: input.callID, tool: input.tool, args: input.args, result: output });
        const r = await run(root, "post-tool-use", ev, TIMEOUT_MS.tool);
        show(r.stderr);
        if (r.failed) notes.push(`massgen-hook: post-tool-use did not run (${r.failed}). ${FIX}`);
        if (r.block) context = withContext(context, r.block);
        const a = r.answer || {};
        if (typeof a.output === "string") output.output = a.output;
        if (a.context) context = withContext(context, a.context);
      }
      for (const n of notes) show(n);
      if (context) output.output = withContext(output.output, context);
    },
  };
};
