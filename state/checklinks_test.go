package state

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// CheckLinks finds a link at any depth of the folders asked about, each
// folder opened once, and lets folders that are not there yet pass, the
// ones under a missing folder included. It reports the folders it found,
// asked about or on the way to one, and only those.
func TestCheckLinks(t *testing.T) {
	subs := []string{"inbox/messages", "inbox/pending", "inbox/seen", "box/./deep/er", "workspaces"}
	for _, tc := range []struct {
		name        string
		dirs, links []string // folders made, and folders made links to one outside
		wantLink    string   // the link refused, "" for none
		wantFound   []string // the folders found, when none is refused
	}{
		{name: "no runtime directory"},
		{name: "none of them there", dirs: []string{"."}},
		{name: "the parent there, the rest not", dirs: []string{"inbox"}, wantFound: []string{"inbox"}},
		{name: "all there", dirs: []string{"inbox/messages", "inbox/pending", "inbox/seen", "box/deep/er", "workspaces"},
			wantFound: []string{"box", "box/deep", "box/deep/er", "inbox", "inbox/messages", "inbox/pending", "inbox/seen", "workspaces"}},
		{name: "the parent a link", links: []string{"inbox"}, wantLink: "inbox"},
		{name: "a child a link", dirs: []string{"inbox/messages"}, links: []string{"inbox/pending"}, wantLink: "inbox/pending"},
		{name: "the last child a link", dirs: []string{"inbox/messages", "inbox/pending"}, links: []string{"inbox/seen"}, wantLink: "inbox/seen"},
		{name: "a link after a missing folder", links: []string{"workspaces"}, wantLink: "workspaces"},
		{name: "a link through a dot", dirs: []string{"box"}, links: []string{"box/deep"}, wantLink: "box/deep"},
		{name: "a deeper link", dirs: []string{"box/deep"}, links: []string{"box/deep/er"}, wantLink: "box/deep/er"},
		{name: "a link not asked about", dirs: []string{"inbox"}, links: []string{"inbox/other"}, wantFound: []string{"inbox"}},
		{name: "a folder not asked about", dirs: []string{"other", "inbox/other"}, wantFound: []string{"inbox"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Open(t.TempDir())
			for _, dir := range tc.dirs {
				if err := os.MkdirAll(filepath.Join(d.Path, dir), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			for _, link := range tc.links {
				symlink(t, t.TempDir(), filepath.Join(d.Path, link))
			}
			found, err := d.CheckLinks(subs...)
			var le *hookfs.LinkError
			switch {
			case tc.wantLink == "" && err != nil:
				t.Errorf("CheckLinks = %v, want nil", err)
			case tc.wantLink != "" && (!errors.As(err, &le) || le.Path != filepath.Join(d.Path, tc.wantLink)):
				t.Errorf("CheckLinks = %v, want a *LinkError naming %s", err, tc.wantLink)
			case tc.wantLink == "":
				var got []string
				for f := range found {
					got = append(got, f)
				}
				slices.Sort(got)
				if !slices.Equal(got, tc.wantFound) {
					t.Errorf("CheckLinks found %q, want %q", got, tc.wantFound)
				}
			}
		})
	}
}
