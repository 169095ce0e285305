// massgen-hook pi plugin: massgen-hook init wrote this file; massgen-hook uninstall removes it.
//
// It hands pi's events to the massgen-hook binary and applies its answers.
// All judgement is the binary's (its pi dialect); this file only
// translates. It imports nothing but Node's built-ins, so it loads as pi
// loads any extension.
import { spawn } from "node:child_process";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Filled in by massgen-hook init.
const BINARY: string = "@MASSGEN_HOOK_BINARY@";
const SCOPE: string = "@MASSGEN_HOOK_SCOPE@";
const SUBCOMMANDS: string[] = ["@MASSGEN_HOOK_SUBCOMMANDS@"];

// How long each run may take before it is killed, by subcommand.
const TIMEOUT_MS: Record<string, number> = {
  "pre-tool-use": 60_000,
  "post-tool-use": 60_000,
  "post-tool-use-failure": 60_000,
  "session-start": 15_000,
  stop: 10_000,
};

// The fix a user can make when the binary cannot be run.
const FIX = "Run `massgen-hook doctor`, or `massgen-hook init --agent pi` to install it again.";

// In project scope the project is the folder two above this file's
// (<project>/.pi/extensions/massgen-hook.ts), so neither pi's idea of the
// directory nor a cd can move it.
const HERE = dirname(fileURLToPath(import.meta.url));

type Ctx = {
  cwd: string;
  signal?: AbortSignal;
  hasUI: boolean;
  isIdle(): boolean;
  ui: { notify(message: string, type?: string): void; confirm(title: string, message: string): Promise<boolean> };
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined };
};

type Outcome =
  | { ran: true; code: number; answer: Record<string, any>; stderr: string }
  | { ran: false; why: string; stderr: string };

function projectRoot(ctx: Ctx): string {
  return SCOPE === "project" ? resolve(HERE, "..", "..") : ctx.cwd;
}

// tell shows the user what massgen-hook says: pi's UI where it has one,
// else stderr (print and JSON mode write their answer to stdout).
function tell(ctx: Ctx, text: string, type = "warning") {
  text = text.trim();
  if (!text) return;
  if (ctx.hasUI) ctx.ui.notify(text, type);
  else process.stderr.write(text + "\n");
}

// run hands event to `massgen-hook <subcommand> --dialect pi`, spawned
// directly (no shell; the event goes on stdin only), and reads its answer.
function run(ctx: Ctx, subcommand: string, event: Record<string, unknown>): Promise<Outcome> {
  const root = projectRoot(ctx);
  const binary = isAbsolute(BINARY) ? BINARY : resolve(root, BINARY);
  const payload = JSON.stringify({
    session_id: ctx.sessionManager.getSessionId(),
    transcript_path: ctx.sessionManager.getSessionFile() ?? "",
    cwd: ctx.cwd,
    ...event,
  });
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child: ReturnType<typeof spawn>;
    // The hooks take CLAUDE_PROJECT_DIR first: one inherited from an
    // outer Claude Code session must not name another project.
    const env: Record<string, string | undefined> = { ...process.env, PI_PROJECT_DIR: root };
    delete env.CLAUDE_PROJECT_DIR;
    try {
      child = spawn(binary, [subcommand, "--dialect", "pi"], {
        cwd: root,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      done({ ran: false, why: `${binary} could not be started: ${String(err)}`, stderr: "" });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, TIMEOUT_MS[subcommand] ?? 10_000);
    // The user stopped the agent (Esc): the run is not waited for.
    let aborted = false;
    const abort = () => {
      aborted = true;
      child.kill("SIGKILL");
    };
    ctx.signal?.addEventListener("abort", abort, { once: true });
    if (ctx.signal?.aborted) abort();
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", (err) => {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", abort);
      done({ ran: false, why: `${binary} could not be run: ${err.message}`, stderr });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", abort);
      if (aborted) {
        done({ ran: false, why: `${subcommand} was stopped: the agent was aborted`, stderr });
        return;
      }
      if (timedOut) {
        done({ ran: false, why: `${subcommand} took longer than ${(TIMEOUT_MS[subcommand] ?? 10_000) / 1000} s and was killed`, stderr });
        return;
      }
      if (code === null) {
        done({ ran: false, why: `${subcommand} was killed by ${signal}`, stderr });
        return;
      }
      let answer: Record<string, any> = {};
      const text = stdout.trim();
      if (code === 0 && text) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          done({ ran: false, why: `${subcommand} answered what is not a JSON object: ${text.slice(0, 200)}`, stderr });
          return;
        }
        answer = parsed as Record<string, any>;
      }
      done({ ran: true, code, answer, stderr });
    });
    // A binary that exits before reading its stdin must not crash pi.
    child.stdin!.on("error", () => {});
    child.stdin!.end(payload);
  });
}

// failed is the message for a run that could not decide.
function failed(why: string): string {
  return `massgen-hook could not run (${why}). ${FIX}`;
}

export default function (pi: any) {
  const wired = new Set(SUBCOMMANDS);
  // The stop hook's answer that is still to be judged or acted on, and
  // whether the agent is going on because of one (Claude Code's
  // stop_hook_active).
  let stopping: Promise<string | undefined> | undefined;
  let stopActive = false;
  let shuttingDown = false;
  let agentEnded: (() => void) | undefined;

  pi.on("session_start", async (event: any, ctx: Ctx) => {
    if (!wired.has("session-start")) return;
    const out = await run(ctx, "session-start", { hook_event_name: "session_start", reason: event.reason });
    if (!out.ran) {
      tell(ctx, `massgen-hook: session start went on without it: ${failed(out.why)}\n${out.stderr}`);
      return;
    }
    tell(ctx, out.stderr);
    tell(ctx, String(out.answer.systemMessage ?? ""));
    if (typeof out.answer.context === "string" && out.answer.context) {
      // Given to the model with the first prompt of the session.
      pi.sendMessage({ customType: "massgen-hook", content: out.answer.context, display: false }, { deliverAs: "nextTurn" });
    }
  });

  pi.on("tool_call", async (event: any, ctx: Ctx) => {
    if (!wired.has("pre-tool-use")) return;
    const out = await run(ctx, "pre-tool-use", {
      hook_event_name: "tool_call",
      toolName: event.toolName,
      toolCallId: event.toolCallId,
      input: event.input,
      hasUI: ctx.hasUI,
    });
    if (!out.ran) {
      const reason = failed(out.why);
      tell(ctx, `massgen-hook blocked ${event.toolName}: ${reason}\n${out.stderr}`, "error");
      return { block: true, reason };
    }
    if (out.code === 2) {
      // A failure under fail_closed: the call must not run.
      const reason = out.stderr.trim() || "massgen-hook blocked this call (it failed, and fails closed).";
      tell(ctx, out.stderr, "error");
      return { block: true, reason };
    }
    tell(ctx, out.stderr);
    const a = out.answer;
    tell(ctx, String(a.systemMessage ?? ""));
    if (typeof a.context === "string" && a.context) {
      // Read by the model before its next call.
      pi.sendMessage({ customType: "massgen-hook", content: a.context, display: false }, { deliverAs: "steer" });
    }
    if (a.block) return { block: true, reason: String(a.reason ?? "Blocked by massgen-hook.") };
    if (typeof a.ask === "string") {
      const ok = ctx.hasUI && (await ctx.ui.confirm("massgen-hook asks", a.ask));
      if (!ok) return { block: true, reason: `Blocked by massgen-hook: the user did not allow it: ${a.ask}` };
    }
    if (a.input && typeof a.input === "object" && !Array.isArray(a.input)) {
      // pi runs the call with event.input, changed in place.
      for (const key of Object.keys(event.input)) delete event.input[key];
      Object.assign(event.input, a.input);
    }
    return undefined;
  });

  pi.on("tool_result", async (event: any, ctx: Ctx) => {
    const subcommand = event.isError ? "post-tool-use-failure" : "post-tool-use";
    if (!wired.has(subcommand)) return;
    const out = await run(ctx, subcommand, {
      hook_event_name: "tool_result",
      toolName: event.toolName,
      toolCallId: event.toolCallId,
      input: event.input,
      content: event.content,
      details: event.details,
      isError: event.isError,
    });
    if (!out.ran) {
      tell(ctx, `massgen-hook: the result of ${event.toolName} went to the model unchecked: ${failed(out.why)}\n${out.stderr}`, "error");
      return undefined;
    }
    tell(ctx, out.stderr);
    const a = out.answer;
    tell(ctx, String(a.systemMessage ?? ""));
    let content = Array.isArray(a.content) ? a.content : undefined;
    let note = typeof a.context === "string" ? a.context : "";
    if (out.code === 2) note = [note, out.stderr.trim()].filter(Boolean).join("\n\n");
    if (note) content = [...(content ?? event.content ?? []), { type: "text", text: note }];
    return content ? { content } : undefined;
  });

  // agent_end runs after pi has ended the agent's run. Where pi stays
  // (interactive, RPC), a block sends the reason as the next user
  // message once pi is idle; in print and JSON mode pi is exiting by then,
  // and session_shutdown, which pi awaits, does it (see below).
  pi.on("agent_end", async (event: any, ctx: Ctx) => {
    const ended = agentEnded;
    agentEnded = undefined;
    if (!wired.has("stop")) {
      ended?.();
      return;
    }
    stopping = judgeStop(event, ctx);
    ended?.();
    if (shuttingDown) return;
    const reason = await stopping;
    if (reason === undefined || shuttingDown) return;
    await idle(ctx);
    // pi began to exit meanwhile: session_shutdown, awaiting stopping,
    // sends it.
    if (shuttingDown) return;
    stopping = undefined;
    stopActive = true;
    // Still busy (a next prompt of the user's already running): it goes
    // after that run, as a follow-up.
    if (ctx.isIdle()) pi.sendUserMessage(reason);
    else pi.sendUserMessage(reason, { deliverAs: "followUp" });
  });

  async function judgeStop(event: any, ctx: Ctx): Promise<string | undefined> {
    const out = await run(ctx, "stop", {
      hook_event_name: "agent_end",
      stop_hook_active: stopActive,
      last_assistant_message: lastText(event.messages),
    });
    if (!out.ran) {
      tell(ctx, `massgen-hook: the agent stopped unchecked: ${failed(out.why)}\n${out.stderr}`);
      stopActive = false;
      return undefined;
    }
    tell(ctx, out.stderr);
    tell(ctx, String(out.answer.systemMessage ?? ""));
    if (out.answer.block && typeof out.answer.reason === "string") return out.answer.reason;
    stopActive = false;
    return undefined;
  }

  // In print and JSON mode pi has printed its answer and awaits this
  // before it exits: a stop hook's block still sends the agent on, and
  // the files and the session show its work (the printed answer does not).
  pi.on("session_shutdown", async (event: any, ctx: Ctx) => {
    if (event.reason !== "quit") return;
    shuttingDown = true;
    while (stopping) {
      const reason = await stopping;
      stopping = undefined;
      if (reason === undefined) return;
      let ended = false;
      const next = new Promise<void>((r) => (agentEnded = r)).then(() => (ended = true));
      stopActive = true;
      pi.sendUserMessage(reason);
      await Promise.race([next, neverStarted(ctx, () => ended)]);
    }
  });
}

// idle waits until pi has finished the run whose end fired agent_end.
async function idle(ctx: Ctx) {
  for (let i = 0; i < 200 && !ctx.isIdle(); i++) await new Promise((r) => setTimeout(r, 25));
}

// neverStarted resolves when pi stays idle for 5 s after a message was
// sent: the message started no run (pi refused it), so no agent_end will
// come to wait for.
async function neverStarted(ctx: Ctx, ended: () => boolean) {
  for (let quiet = 0; quiet < 200 && !ended(); quiet = ctx.isIdle() ? quiet + 1 : 0) {
    await new Promise((r) => setTimeout(r, 25));
  }
}

// lastText is the text of the last assistant message of the run.
function lastText(messages: any[] | undefined): string {
  for (const m of [...(messages ?? [])].reverse()) {
    if (m?.role !== "assistant" || !Array.isArray(m.content)) continue;
    return m.content
      .filter((c: any) => c?.type === "text")
      .map((c: any) => c.text)
      .join("\n");
  }
  return "";
}
