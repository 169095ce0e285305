package guard

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// PathLists are the protected_paths guard's lists as data, so that what
// the kernel enforces (confine) is what the guard judges: one list, read
// by both.
type PathLists struct {
	// Read are the patterns no tool may read; Except those never
	// protected (.env.example ...).
	Read, Except []string
	// Wiring are the guards' own files: every CLI's hook wiring,
	// massgen-hook's config, runtime folder and installed binary, relative
	// to the project or under ~/.
	Wiring []string
}

// ProtectedPathLists decodes the options of a protected_paths rule (nil:
// the defaults) into its lists, with the same defaults and the same
// errors as the guard itself.
func ProtectedPathLists(options *yaml.Node) (PathLists, error) {
	b, err := NewProtectedPaths(options)
	if err != nil {
		return PathLists{}, err
	}
	p := b.(*protectedPaths)
	return PathLists{Read: slices.Clone(p.read), Except: slices.Clone(p.except), Wiring: slices.Clone(defaultWiring)}, nil
}
