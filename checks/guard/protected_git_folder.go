package guard

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// A git command run in a folder where a tool keeps its credentials
// (~/.ssh, ~/.aws, ~/.config/gcloud: the folders the read list names)
// reads them: if that folder is a repository, git log -p, show, diff and
// grep print what it tracks, keys included. The names git is given
// (git show HEAD:id_rsa) are judged on their own; this is the folder.

// maxFolderEntries bounds the listing of a credential folder: a tool
// keeps a handful of files there, and only that many are looked at.
const maxFolderEntries = 256

// gitInSecretFolder is the denial of c when it is git running in a
// credential folder outside the project that holds a protected file; ""
// otherwise.
func (g *guard) gitInSecretFolder(c *shellcmd.Command) string {
	if c.Dir == "" {
		return "" // where it runs is not known
	}
	gc, ok := c.Git(c.Dir)
	if !ok || gc.Dir == "" || gc.Help {
		return ""
	}
	// git works in its directory, or in the work tree and beside the
	// repository it is told of.
	dirs := []string{gc.Dir}
	for _, r := range append(slices.Clip(gc.Repo), gc.RepoEnv...) {
		name, v, _ := strings.Cut(r, "=")
		switch name {
		case "--work-tree", "GIT_WORK_TREE":
			dirs = append(dirs, v)
		case "--git-dir", "GIT_DIR":
			dirs = append(dirs, filepath.Dir(filepath.Clean(v)))
		}
	}
	for _, d := range dirs {
		if strings.HasPrefix(d, "~/") && g.Home != "" {
			d = filepath.Join(g.Home, d[2:])
		}
		if reason := g.gitFolderHolds(c, g.paths.Resolve(d, gc.Dir)); reason != "" {
			return reason
		}
	}
	return ""
}

// gitFolderHolds is the denial of c running git in dir, when dir is a
// credential folder outside the project that holds a protected file.
func (g *guard) gitFolderHolds(c *shellcmd.Command, dir fspath.Path) string {
	if g.Project.contains(dir.Real, dir.Fold) || g.Project.contains(dir.Lexical, dir.Fold) || !g.credentialFolder(dir.Real, dir.Fold) {
		return ""
	}
	f, err := os.Open(dir.Real)
	if err != nil {
		return "" // a folder the hook cannot list, git cannot read either
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxFolderEntries)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if hit := g.judge(filepath.Join(dir.Real, e.Name()), dir.Real, false, true); hit != nil && hit.pattern != "" {
			return fmt.Sprintf("⚠️ BLOCKED: %s runs git in %s, a folder that holds %s, a protected path (rule %q): git log -p, show, diff and grep print what a repository there tracks. "+
				"Leave that folder alone; if you really need its history, ask the user.", quoteCmd(c), dir.Lexical, hit.path, hit.pattern)
		}
	}
	return ""
}

// credentialFolder reports whether dir is a folder the read list names
// as holding credentials: the folder of a pattern such as ~/.ssh/id_* or
// **/.aws/credentials, or inside one whose whole content is protected
// (~/.config/gcloud/**). The home, the root and "any folder" (**/.env)
// are not.
func (g *guard) credentialFolder(dir string, fold bool) bool {
	for _, pat := range g.read {
		folder := path.Dir(strings.TrimSuffix(pat, "/**"))
		if strings.HasSuffix(pat, "/**") {
			folder = strings.TrimSuffix(pat, "/**")
		}
		switch folder {
		case ".", "/", "~", "**":
			continue
		}
		if g.matchAny([]string{folder}, dir, fold) != "" ||
			strings.HasSuffix(pat, "/**") && g.matchAny([]string{folder + "/**"}, dir, fold) != "" {
			return true
		}
	}
	return false
}
