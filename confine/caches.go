package confine

import (
	"os"
	"path/filepath"
	"strings"
)

// DefaultCaches are the build caches a confined command may write, so that
// everyday builds work: Go's module and build caches, npm, yarn, pnpm,
// pip, uv, poetry, cargo's registry and git checkouts, Maven, Gradle and
// ccache. Each honours the variable its tool reads, else the tool's
// default place. docs/confine.md lists them; confine.writable adds more.
//
// Each entry names the tools that fill it: a missing cache is created
// before a command only when one of them is installed (see Plan), so a
// machine without cargo gets no ~/.cargo/registry.
func DefaultCaches(home string, env map[string]string) []Cache {
	cache := env["XDG_CACHE_HOME"]
	if !filepath.IsAbs(cache) && home != "" {
		cache = filepath.Join(home, ".cache")
	}
	var out []Cache
	add := func(variable, fallback string, tools ...string) {
		if v := env[variable]; variable != "" && filepath.IsAbs(v) {
			out = append(out, Cache{filepath.Clean(v), tools})
			return
		}
		if fallback != "" {
			out = append(out, Cache{fallback, tools})
		}
	}
	under := func(base string, parts ...string) string {
		if base == "" {
			return ""
		}
		return filepath.Join(append([]string{base}, parts...)...)
	}
	gopath := ""
	if g := env["GOPATH"]; g != "" {
		gopath, _, _ = strings.Cut(g, string(filepath.ListSeparator))
	} else if home != "" {
		gopath = filepath.Join(home, "go")
	}
	cargo := env["CARGO_HOME"]
	if !filepath.IsAbs(cargo) {
		cargo = under(home, ".cargo")
	}
	add("GOCACHE", under(cache, "go-build"), "go")
	add("GOMODCACHE", under(gopath, "pkg", "mod"), "go")
	add("npm_config_cache", under(home, ".npm"), "npm", "npx")
	add("YARN_CACHE_FOLDER", under(cache, "yarn"), "yarn")
	add("", under(cache, "pnpm"), "pnpm")
	// pnpm's store, not the folder that holds it: that folder is also
	// PNPM_HOME, pnpm's global bin folder, which its installer puts on
	// PATH, and a program planted there would run outside the sandbox.
	data := env["XDG_DATA_HOME"]
	if !filepath.IsAbs(data) {
		data = under(home, ".local", "share")
	}
	add("", under(data, "pnpm", "store"), "pnpm")
	add("PIP_CACHE_DIR", under(cache, "pip"), "pip", "pip3")
	add("UV_CACHE_DIR", under(cache, "uv"), "uv")
	add("", under(cache, "pypoetry"), "poetry")
	add("", under(cargo, "registry"), "cargo")
	add("", under(cargo, "git"), "cargo")
	add("", under(home, ".m2", "repository"), "mvn")
	add("", under(home, ".gradle", "caches"), "gradle")
	add("CCACHE_DIR", under(cache, "ccache"), "ccache")
	return out
}

// Cache is a build cache and the tools that fill it.
type Cache struct {
	Dir   string
	Tools []string
}

// installed reports whether one of c's tools is on PATH.
func (c Cache) installed(path string) bool {
	for _, t := range c.Tools {
		for _, dir := range filepath.SplitList(path) {
			if info, err := os.Stat(filepath.Join(dir, t)); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
				return true
			}
		}
	}
	return false
}
