package confine

import (
	"path/filepath"
	"strings"
)

// SandboxExec is macOS's sandbox tool, which runs a command under a
// Seatbelt profile: the same plan, in the kernel's other language.
const SandboxExec = "/usr/bin/sandbox-exec"

// Seatbelt is the plan as a Seatbelt profile (SBPL) for sandbox-exec -p.
// In SBPL the last rule that matches an operation decides, so the rules
// follow the bwrap mounts' order: everything may be read and nothing
// written, then the writable places, then the guards' files read-only
// again, then the protected files neither read nor written. Processes,
// the network and the environment are left alone (allow default).
func (pl Plan) Seatbelt() string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write* (subpath \"/\"))\n")
	b.WriteString("(allow file-write*\n  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/dtracehelper\")\n  (regex #\"^/dev/tty\") (regex #\"^/dev/fd/\")")
	for _, w := range pl.Writable {
		b.WriteString("\n  (subpath " + sbString(w) + ")")
	}
	b.WriteString(")\n")
	if len(pl.ReadOnly) > 0 {
		b.WriteString("(deny file-write*")
		for _, r := range pl.ReadOnly {
			b.WriteString("\n  (subpath " + sbString(r) + ")")
		}
		b.WriteString(")\n")
	}
	if len(pl.MaskFiles)+len(pl.MaskDirs) > 0 {
		b.WriteString("(deny file-read* file-write*")
		for _, f := range pl.MaskFiles {
			b.WriteString("\n  (literal " + sbString(f) + ")")
		}
		for _, d := range pl.MaskDirs {
			b.WriteString("\n  (subpath " + sbString(d) + ")")
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// sbString quotes s as an SBPL string literal.
func sbString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// seatbeltArgv runs shell -c command under the plan's profile.
func seatbeltArgv(tool string, pl Plan, shell, command string) []string {
	return []string{tool, "-p", pl.Seatbelt(), shell, "-c", command}
}

// isSandboxExec reports whether tool is sandbox-exec rather than bwrap.
func isSandboxExec(tool string) bool { return filepath.Base(tool) == "sandbox-exec" }

// UsesSeccomp reports whether tool takes bwrap's seccomp filter.
func UsesSeccomp(tool string) bool { return !isSandboxExec(tool) }
