package guard

import "os"

// kernelExe is the running binary as Linux names it (/proc/self/exe), and
// whether that name needs no resolving (kernelNamed): then the lookups of
// each of its folders that filepath.EvalSymlinks makes are saved.
func kernelExe() (string, bool) {
	exe, err := os.Readlink("/proc/self/exe")
	return exe, err == nil && kernelNamed(exe)
}
