// Drives massgen-hook's OpenCode plugin as OpenCode 1.18.33 calls it: the
// plugin function, then one hook with OpenCode's (input, output) objects.
// argv: the plugin's path, then the step as JSON:
//   {"hook": name, "input": {...}, "output": {...}, "env": {...}, "repeat": n}
// It prints {"thrown": message} or {"output": output, "same": bool}, where
// same says whether output.args is still the object OpenCode handed over.
import { pathToFileURL } from "node:url";

const [plugin, stepJSON] = process.argv.slice(2);
const step = JSON.parse(stepJSON);
Object.assign(process.env, step.env || {});
const mod = await import(pathToFileURL(plugin).href);
const directory = step.directory;
const prompts = [];
const client = {
  session: {
    get: async () => ({ data: step.session || {} }),
    // A subagent sent back answers "note written".
    prompt: async (req) => {
      prompts.push(req);
      return { data: { parts: [{ type: "text", text: "note written" }] } };
    },
  },
};
const hooks = await mod.MassgenHook({ client, directory, worktree: directory });
const output = step.output || {};
const args = output.args;
const result = {};
try {
  for (let i = 0; i < (step.repeat || 1); i++) {
    for (const [name, input] of step.calls || [[step.hook, step.input]]) {
      await hooks[name](input, output);
    }
  }
  result.output = output;
  result.same = output.args === args;
} catch (err) {
  result.thrown = err.message;
}
result.prompts = prompts;
process.stdout.write(JSON.stringify(result));
