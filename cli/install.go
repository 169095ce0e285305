package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/install/doctor"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

type installOptions struct {
	scope, agent, binary, only string
	dryRun, noBinary           bool
	// massgen is init --massgen's MassGen config; noStarterConfig keeps
	// init from writing a starter config beside it.
	massgen         string
	noStarterConfig bool
	// purge, for uninstall, also removes what it keeps as the user's: the
	// config, the scratchpads and the runtime folder.
	purge bool
	// confineMCP, for init --agent gemini or cursor, starts the project's stdio MCP
	// servers confined (install_mcp.go).
	confineMCP bool
}

func (a *app) initCommand() *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Wire massgen-hook into an agent CLI's settings, keeping every other hook",
		Long: `Adds massgen-hook's hooks to the settings file of the scope (project:
.claude/settings.json, local: .claude/settings.local.json, user:
~/.claude/settings.json), or with --agent to Cursor's, Gemini CLI's, Codex's
or Copilot CLI's hook file. Only massgen-hook's own entries are added or
updated; every other hook, key and the file's layout stay as they are, and a
second run changes nothing. The previous file is kept as FILE.bak.

OpenCode and pi run no command hooks: --agent opencode or pi writes
massgen-hook's plugin, a small shim that hands each event to the binary
(.opencode/plugins/massgen-hook.js, ~/.config/opencode/plugins/ for the
user; .pi/extensions/massgen-hook.ts, ~/.pi/agent/extensions/). The file
is massgen-hook's own: init rewrites it whole and uninstall removes it.

For the project and local scopes it also copies the binary to
.claude/hooks/massgen-hook (the hooks run it as
"$CLAUDE_PROJECT_DIR"/.claude/hooks/massgen-hook, so a cd in the session
cannot break them), writes a starter .claude/massgen-hook.yaml if there is
none, and creates the scratchpad folders.

--only wires some parts, a comma list: guards (pre-tool-use: the guards
and PreToolUse rules), scratchpad (session-start, subagent-start,
subagent-stop, stop, permission-request) and inbox (post-tool-use,
post-tool-use-failure: messages and the PostToolUse rules). The hooks of the
other parts are taken out, so running init again with another --only (or
none: every part) adjusts the wiring.

--massgen FILE reads a MassGen config as the hooks will and wires, in the
scope given, each agent CLI its agents run (claude_code: Claude Code,
codex: Codex, gemini_cli: Gemini CLI), saying for each agent what MassGen
does with that CLI's settings; no starter config is written beside it.

Exit status: 0 done (or nothing to do), 1 a file could not be written,
2 usage error, a settings file that is not valid JSON (left untouched), or
a --massgen file that is not a usable MassGen config.`,
		Example: `  massgen-hook init --dry-run            # show the diff, change nothing
  massgen-hook init                      # .claude/settings.json, committed with the project
  massgen-hook init --scope local        # .claude/settings.local.json, only for you
  massgen-hook init --agent cursor       # .cursor/hooks.json
  massgen-hook init --agent opencode     # .opencode/plugins/massgen-hook.js
  massgen-hook init --only guards        # the guards alone
  massgen-hook init --massgen massgen.yaml  # the agent CLIs a MassGen config runs`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.massgen != "" {
				return a.runInitMassGen(cmd, o)
			}
			return a.runInstall(cmd, o, false)
		},
	}
	a.installFlags(cmd, &o)
	cmd.Flags().StringVar(&o.massgen, "massgen", "", "a MassGen config: wire the agent CLIs its agents run (claude_code, codex, gemini_cli)")
	cmd.Flags().StringVar(&o.binary, "binary", "", "the massgen-hook binary the hooks run (default: this one)")
	cmd.Flags().BoolVar(&o.noBinary, "no-binary", false, "do not copy the binary into the project (you put it there yourself)")
	cmd.Flags().StringVar(&o.only, "only", "", "wire only these parts, a comma list of "+strings.Join(partNames(), ", ")+" (default: all)")
	cmd.Flags().BoolVar(&o.confineMCP, "confine-mcp", false, "with --agent gemini or cursor: start the project's stdio MCP servers confined (Claude Code starts them through its shell prefix, confined already)")
	return cmd
}

func (a *app) uninstallCommand() *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove exactly the hooks init added",
		Long: `Removes massgen-hook's own hook entries from the scope's settings file (and
the groups and events only they filled), and the binary init copied, unless
another scope or agent CLI's hook file in sight still runs it: then the
binary stays, and uninstall says which files use it. Every other hook stays.
No backup is left: the settings file is restored as it was before init
(init's FILE.bak goes when the file is back to it byte for byte), a file
that held nothing but massgen-hook's hooks is removed, and so is every
folder init made that is now empty.

Once nothing in the project runs massgen-hook any more, the starter config
goes too while it is still init's text, and so do empty scratchpad folders.
What holds your work stays and is listed: an edited config, scratchpads
with notes, and .claude/massgen-hook/ (the audit trail and the inbox; git
ignores it). --purge removes those as well.

Exit status as for init.`,
		Example: `  massgen-hook uninstall --dry-run
  massgen-hook uninstall --scope local
  massgen-hook uninstall --purge         # also the config, scratchpads, audit trail`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runInstall(cmd, o, true) },
	}
	a.installFlags(cmd, &o)
	cmd.Flags().BoolVar(&o.purge, "purge", false, "also remove the config, the scratchpads and the runtime folder (audit trail, inbox)")
	return cmd
}

func (a *app) installFlags(cmd *cobra.Command, o *installOptions) {
	cmd.Flags().StringVar(&o.scope, "scope", "project", "settings to change: project, local or user")
	cmd.Flags().StringVar(&o.agent, "agent", "claude", "agent CLI to wire: "+strings.Join(targetNames(), ", "))
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "print what would change as a diff, change nothing")
}

// placement is where one init puts things.
type placement struct {
	project string
	scope   string
	// settings is the file to wire; binary where the binary goes ("" when
	// the hooks run it where it is); command how the hooks name it, and
	// program, in the user scope, its absolute path.
	settings, binary, command, program string
}

func (a *app) runInstall(cmd *cobra.Command, o installOptions, uninstall bool) error {
	t, ok := targets.Get()[o.agent]
	if !ok {
		return a.usage(cmd, fmt.Errorf("--agent %q: use %s", o.agent, strings.Join(targetNames(), ", ")))
	}
	ps, err := parseParts(o.only)
	if err != nil {
		return a.usage(cmd, err)
	}
	project, err := a.resolveProjectHere()
	if err != nil {
		return &usageError{err: err}
	}
	p, err := a.place(t, project, o)
	if err != nil {
		return a.usage(cmd, err)
	}
	// A settings file that is a link (dotfiles) is edited where it points,
	// so the link stays and its target gets the hooks.
	if target, err := filepath.EvalSymlinks(p.settings); err == nil {
		p.settings = target
	}
	w := &installer{app: a, project: project, dryRun: o.dryRun, uninstall: uninstall}
	if t.plugin {
		if err := w.pluginFile(t, p, ps); err != nil {
			return err
		}
		return w.afterWiring(t, p, o, ps)
	}
	f, err := wiring.Read(p.settings)
	if err != nil {
		return a.settingsError(err)
	}
	var out []byte
	empty := false
	if uninstall {
		out, empty = wiring.Uninstall(f, t.specFor(p.command))
	} else if out, err = wiring.Install(f, t.specFor(p.command), t.entries(p.command, ps)); err != nil {
		return a.settingsError(err)
	}
	if t.name == "gemini" {
		if out, err = w.projectMCP(f, out, p, o, uninstall); err != nil {
			return err
		}
	}
	if err := w.settings(f, out, empty && uninstall); err != nil {
		return err
	}
	if t.name == "cursor" {
		if err := w.cursorMCP(p, o, uninstall); err != nil {
			return err
		}
	}
	if t.name == "codex" && !uninstall {
		w.codexTrust(o.scope, out, t.specFor(p.command))
	}
	if t.name == "gemini" && o.scope == "project" && !uninstall && !o.dryRun {
		w.say(p.settings, "%s", strings.Replace(geminiSubfolderNote, "these hooks", "its project hooks", 1))
	}
	return w.afterWiring(t, p, o, ps)
}

// afterWiring does what follows the hook file's wiring for every CLI: the
// shell's confinement, and the binary and starter files in a project (or,
// uninstalling, their removal once nothing runs them).
func (w *installer) afterWiring(t target, p placement, o installOptions, ps partSet) error {
	project, uninstall := w.project, w.uninstall
	if err := w.confinement(t.name, p, o, uninstall || !ps.has("pre-tool-use")); err != nil {
		return err
	}
	if uninstall {
		w.removeEmptyParents(p.settings)
	}
	if p.binary == "" {
		return nil
	}
	if uninstall {
		if users := w.binaryUsers(project, p.binary, p.settings); len(users) > 0 {
			w.say(p.binary, "binary kept: still run by %s; uninstall there too to remove it", strings.Join(users, ", "))
			return nil
		}
		if err := w.unignoreBinary(p.binary); err != nil {
			return err
		}
		if err := w.removeBinary(p.binary); err != nil {
			return err
		}
		return w.tidyProject(p.settings, o.purge)
	}
	if !o.noBinary {
		if err := w.copyBinary(o.binary, p.binary); err != nil {
			return err
		}
		if err := w.ignoreBinary(p.binary); err != nil {
			return err
		}
	}
	return w.starterFiles(ps.has("stop"), !o.noStarterConfig)
}

// parseParts reads --only: "" is every part.
func parseParts(only string) (partSet, error) {
	if only == "" {
		return nil, nil
	}
	ps := partSet{}
	for _, name := range strings.Split(only, ",") {
		name = strings.TrimSpace(name)
		if _, ok := parts.Get()[name]; !ok {
			hint := ""
			if s := doctor.Suggest(name, partNames()); s != "" {
				hint = fmt.Sprintf("did you mean %q? ", s)
			}
			return nil, fmt.Errorf("--only %q: unknown part; %sthe parts are %s", name, hint, strings.Join(partNames(), ", "))
		}
		ps[name] = true
	}
	return ps, nil
}

// binaryUsers are the hook files other than settings that still run bin,
// as "FILE (scope)": uninstall keeps a binary they need.
func (a *app) binaryUsers(project, bin, settings string) []string {
	var out []string
	for _, wf := range a.wiredFiles(project) {
		if sameFile(wf.path, settings) {
			continue
		}
		for _, h := range wf.ours {
			if p := a.wiredProgram(h.Command, project); p != "" && sameFile(p, bin) {
				out = append(out, fmt.Sprintf("%s (%s)", relTo(project, wf.path), wf.name()))
				break
			}
		}
	}
	return out
}

// sameFile reports whether a and b are one file: the same path, or links
// to the same file.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// relTo shows path relative to project when it is inside it.
func relTo(project, path string) string {
	if r, err := filepath.Rel(project, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// settingsError is a settings file init will not touch: exit 2, file:line:col.
func (a *app) settingsError(err error) error {
	var syn *wiring.SyntaxError
	var shape *wiring.ShapeError
	if errors.As(err, &syn) || errors.As(err, &shape) {
		return &usageError{err: fmt.Errorf("%w (left untouched)", err)}
	}
	return err
}

// place decides the files of scope.
func (a *app) place(t target, project string, o installOptions) (placement, error) {
	p := placement{project: project, scope: o.scope}
	switch o.scope {
	case "project", "local":
		file := t.projectFile
		if o.scope == "local" {
			file = t.localFile
		}
		if file == "" {
			return p, fmt.Errorf("--scope local: %s has no personal hook file; use project or user", t.name)
		}
		if o.binary != "" && o.noBinary {
			return p, errors.New("--binary names a binary to copy; --no-binary copies none")
		}
		if t.projectVar == gitRoot {
			if err := checkGitRoot(project, t.name); err != nil {
				return p, err
			}
		}
		p.settings = filepath.Join(project, file)
		p.binary = filepath.Join(project, projectBinary)
		p.command = t.projectVar + "/" + projectBinary
	case "user":
		if p.settings = a.hookFilePath(t, "user", project); p.settings == "" {
			return p, errors.New("--scope user: $HOME is not set")
		}
		bin, err := a.binaryPath(o.binary)
		if err != nil {
			return p, err
		}
		// User-wide hooks run in every project: they name the binary
		// where it is, by its absolute path.
		p.program, p.command = bin, shellQuote(bin)
	default:
		return p, fmt.Errorf("--scope %q: use project, local or user", o.scope)
	}
	return p, nil
}

// checkGitRoot makes sure a command anchored on the git top level finds
// what init puts in project: outside a repository, or below its top, it
// would run a binary that is not there (and Copilot denies every call
// whose hook fails).
func checkGitRoot(project, cli string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", project, "rev-parse", "--show-toplevel").Output()
	top := strings.TrimSpace(string(out))
	same := err == nil && sameDir(top, project)
	if !same {
		return fmt.Errorf("--agent %s: its hooks find the project with git rev-parse --show-toplevel, "+
			"but %s is not the top of a git repository; run init there (or git init)", cli, project)
	}
	return nil
}

func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// projectBinary is where init copies the binary in a project.
const projectBinary = ".claude/hooks/massgen-hook"

func (a *app) binaryPath(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this binary (give --binary): %w", err)
	}
	return bin, nil
}

// shellQuote quotes s for sh: one single-quoted word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// installer carries out init and uninstall, printing one line per file.
type installer struct {
	*app
	project   string
	dryRun    bool
	uninstall bool
}

func (w *installer) rel(path string) string {
	if r, err := filepath.Rel(w.project, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func (w *installer) say(path, format string, args ...any) {
	fmt.Fprintf(w.stdout, "%s: %s\n", w.rel(path), fmt.Sprintf(format, args...))
}

// settings writes out over f, keeping the old content as FILE.bak; remove
// deletes the file instead (uninstall left nothing but the skeleton).
func (w *installer) settings(f *wiring.File, out []byte, remove bool) error {
	switch {
	case !f.Exists && w.uninstall:
		w.say(f.Path, "not there, nothing to remove")
		return nil
	case f.Exists && !remove && bytes.Equal(out, f.Data):
		if w.uninstall {
			w.say(f.Path, "no massgen-hook hooks in it, unchanged")
		} else {
			w.say(f.Path, "already wired, unchanged")
		}
		return nil
	case w.dryRun:
		after := out
		if remove {
			after = nil
		}
		w.stdout.Write(diff.Diff(w.rel(f.Path), f.Data, w.rel(f.Path)+" (after)", after))
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return err
	}
	if w.uninstall {
		return w.restore(f, out, remove)
	}
	backup := ""
	if f.Exists {
		backup = f.Path + ".bak"
		if err := state.WriteFileMode(backup, f.Data, f.Mode, true); err != nil {
			return fmt.Errorf("keeping a backup of %s: %w (nothing changed)", f.Path, err)
		}
		backup = " (was kept as " + w.rel(backup) + ")"
	}
	if err := state.WriteFileMode(f.Path, out, f.Mode, true); err != nil {
		return err
	}
	w.say(f.Path, "wired%s", backup)
	return nil
}

// restore is uninstall's write of the settings file: out (every byte but
// massgen-hook's entries, as the user had them), or no file when nothing
// else was in it. It leaves no backup: nothing of the user's is lost, and
// --dry-run shows the change first. init's FILE.bak, the file as it was
// before init, goes once the file is back to it byte for byte (or both
// are gone: init made the file).
func (w *installer) restore(f *wiring.File, out []byte, remove bool) error {
	if remove {
		if err := os.Remove(f.Path); err != nil {
			return err
		}
		w.say(f.Path, "removed: nothing but massgen-hook's hooks was in it")
	} else {
		if err := state.WriteFileMode(f.Path, out, f.Mode, true); err != nil {
			return err
		}
		w.say(f.Path, "massgen-hook's hooks removed")
	}
	backup := f.Path + ".bak"
	old, err := hookfs.ReadFile(backup, 64<<20)
	if err != nil {
		return nil
	}
	if !remove && bytes.Equal(old, out) || remove && isEmptySettings(old) {
		if err := os.Remove(backup); err == nil {
			w.say(backup, "removed: the file is back as it was before init")
		}
	}
	return nil
}

// isEmptySettings reports whether data is a settings file with nothing in
// it (an empty object, or nothing at all): what init's backup holds of a
// file that init filled.
func isEmptySettings(data []byte) bool {
	s := strings.TrimSpace(string(data))
	return s == "" || strings.Join(strings.Fields(s), "") == "{}"
}

// removeEmptyParents removes the folders above a settings file that
// uninstall left empty (.gemini, .codex, .cursor), up to the project.
func (w *installer) removeEmptyParents(settings string) {
	for dir := filepath.Dir(settings); strings.HasPrefix(dir, w.project+string(filepath.Separator)); dir = filepath.Dir(dir) {
		w.removeIfEmpty(dir)
	}
}

// maxBinaryBytes bounds the binary init copies (and the one it compares
// it with): a FIFO or a giant in either place is refused, not read.
const maxBinaryBytes = 512 << 20

// copyBinary puts the binary at dest, unless the same bytes are there.
func (w *installer) copyBinary(from, dest string) error {
	src, err := w.binaryPath(from)
	if err != nil {
		return err
	}
	data, err := hookfs.ReadFile(src, maxBinaryBytes)
	if err != nil {
		return fmt.Errorf("reading the binary to install: %w", err)
	}
	if old, err := hookfs.ReadFile(dest, maxBinaryBytes); err == nil && bytes.Equal(old, data) {
		w.say(dest, "binary already installed, unchanged")
		return nil
	}
	if w.dryRun {
		w.say(dest, "would install the binary (%d bytes) from %s", len(data), src)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	if err := state.WriteFileMode(dest, data, 0o755, true); err != nil {
		return err
	}
	w.say(dest, "binary installed from %s", src)
	return nil
}

func (w *installer) removeBinary(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if w.dryRun {
		w.say(path, "would remove the binary")
		return nil
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	w.say(path, "binary removed")
	_ = os.Remove(filepath.Dir(path)) // .claude/hooks, when nothing else is in it
	return nil
}

// schemaFile writes the config's JSON Schema beside it, where the starter
// config points editors, or brings an older binary's up to date.
func (w *installer) schemaFile() error {
	path := filepath.Join(w.project, filepath.Dir(config.DefaultPath), config.SchemaFile)
	old, err := hookfs.ReadFile(path, 4<<20)
	switch {
	case err == nil && bytes.Equal(old, config.Schema()):
		return nil
	case w.dryRun:
		w.say(path, "would write the config's JSON Schema, for editors")
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := state.WriteFileMode(path, config.Schema(), 0o644, false); err != nil {
		return err
	}
	what := "the config's JSON Schema written, for editors"
	if old != nil {
		what = "the config's JSON Schema updated to this version"
	}
	w.say(path, "%s", what)
	return nil
}

// starterFiles writes the starter config when there is none, and the
// scratchpad folders when the scratchpad part is wired.
func (w *installer) starterFiles(scratchpads, starterConfig bool) error {
	cfgPath := filepath.Join(w.project, config.DefaultPath)
	if _, err := os.Stat(cfgPath); starterConfig && errors.Is(err, fs.ErrNotExist) {
		if w.dryRun {
			w.say(cfgPath, "would write the starter config")
		} else {
			if err := os.MkdirAll(filepath.Dir(cfgPath), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(cfgPath, []byte(config.Starter), 0o644); err != nil {
				return err
			}
			w.say(cfgPath, "starter config written")
		}
	}
	if starterConfig {
		if err := w.schemaFile(); err != nil {
			return err
		}
	}
	if !scratchpads {
		return nil
	}
	cfg, _, err := w.loadConfig(w.project)
	if err != nil {
		return err
	}
	layout := layoutOf(w.project, cfg)
	for _, dir := range []string{scratchpad.CoordinatorDir, scratchpad.EgoDir} {
		path := filepath.Join(layout.Root, dir)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if w.dryRun {
			w.say(path, "would create the scratchpad folder")
			continue
		}
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		w.say(path, "scratchpad folder created")
	}
	return nil
}
