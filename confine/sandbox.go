package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// maskName is the empty file, mode 0, bound over each protected file. It
// lives in the runtime folder, which the sandbox keeps read-only.
const maskName = "masked"

// MaskFile returns the empty, unreadable file in dir that masks protected
// files, creating it when missing. A file found there that is not an
// empty regular file of mode 0 (a link, content) is replaced: a mask that
// showed content would show the wrong content.
func MaskFile(dir string) (string, error) {
	path := filepath.Join(dir, maskName)
	if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() && info.Size() == 0 && info.Mode().Perm() == 0 {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".masked-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	err = errors.Join(tmp.Chmod(0), tmp.Close())
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("cannot create the mask file: %w", err)
	}
	return path, nil
}

// Argv is the whole command line that runs shell -c command confined by
// the plan: bwrap, its arguments, then the shell. --cap-drop ALL matters
// when the user is root: a root shell that kept its capabilities could
// unmount the masks.
func Argv(bwrap string, pl Plan, maskFile, shell, command string) []string {
	argv := append([]string{bwrap, "--cap-drop", "ALL"}, pl.Args(maskFile)...)
	return append(argv, shell, "-c", command)
}
