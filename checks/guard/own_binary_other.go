//go:build !linux

package guard

// kernelExe: elsewhere the system's name for the running binary
// (os.Executable) may go through symlinks, and is resolved.
func kernelExe() (string, bool) { return "", false }
