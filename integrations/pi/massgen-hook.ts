// massgen-hook pi plugin: massgen-hook init wrote this file; massgen-hook uninstall removes it.
const BINARY = "@MASSGEN_HOOK_BINARY@";
const SCOPE = "@MASSGEN_HOOK_SCOPE@";
const SUBCOMMANDS = ["@MASSGEN_HOOK_SUBCOMMANDS@"];

export default function massgenHook(): void {}
