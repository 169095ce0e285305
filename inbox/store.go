package inbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/state"
)

// The inbox's folders, under the runtime directory. A message is one file
// in messages/; where it stands for a recipient is a token file named by
// its id: pending for a tool call, or undelivered (expired first) for a
// turn boundary. Broadcasts have one token for all. Each delivery is a
// receipt, receipts/<id>/<recipient>.json, whose O_EXCL creation is the
// claim.
const (
	dirName        = "inbox"
	messagesDir    = "messages"
	pendingDir     = "pending"     // pending/<recipient>/<id>
	pendingAll     = "pending-all" // pending-all/<id>: broadcasts
	undeliveredDir = "undelivered" // undelivered/<recipient>/<id>
	undeliveredAll = "undelivered-all"
	receiptsDir    = "receipts" // receipts/<id>/<recipient>.json
	snapshotsDir   = "snapshots"
	seenDir        = "seen" // seen/<recipient>.json: the answer labels it has
	// WorkspacesDir, beside the inbox in the runtime directory, holds each
	// recipient's copies of its peers' workspaces.
	WorkspacesDir = "workspaces"
)

// Inbox is one project's inbox.
type Inbox struct {
	// State is the runtime directory; the inbox is its inbox/ folder.
	State *state.Dir
	// Notes receives one line per thing worth telling that does not stop
	// the hook (stderr).
	Notes io.Writer
	// Roster is the configured agents; with every agent a peer answer
	// came from or went to, it numbers peers as MassGen does.
	Roster []string
	// AnonymiseText replaces known peers' real ids in a peer answer's text
	// with their anonymous ids; MassGen does not.
	AnonymiseText bool
}

// Open returns the inbox of a runtime directory. Nothing is created until
// something is sent.
func Open(st *state.Dir) *Inbox { return &Inbox{State: st, Notes: st.Notes} }

func (ib *Inbox) note(format string, args ...any) {
	if ib.Notes != nil {
		fmt.Fprintf(ib.Notes, "massgen-hook: inbox: "+format+"\n", args...)
	}
}

// Caps on what the inbox reads: a message's text is at most MaxText, so
// its file is a few KiB; a receipt or token is one small JSON object or a
// name. A planted giant is refused, not read.
const (
	maxMessageBytes = 1 << 20
	maxSmallBytes   = 64 << 10
)

// folders are the inbox's fixed folders, and the workspace copies beside it.
var folders = []string{dirName + "/" + messagesDir, dirName + "/" + pendingDir, dirName + "/" + pendingAll,
	dirName + "/" + undeliveredDir, dirName + "/" + undeliveredAll, dirName + "/" + receiptsDir,
	dirName + "/" + snapshotsDir, dirName + "/" + seenDir, dirName + "/codex", WorkspacesDir}

// checkLinks refuses an inbox reached through a symbolic link: the inbox
// works by path, so each entry point checks its folders first (and every
// file it opens is opened without following a link at its own name).
func (ib *Inbox) checkLinks() error {
	_, err := ib.State.CheckLinks(folders...)
	return err
}

// checkLinksIfAny is checkLinks for a reader, which has nothing to do
// when the inbox folder is not there: it reports whether it is.
func (ib *Inbox) checkLinksIfAny() (bool, error) {
	found, err := ib.State.CheckLinksIfAny(folders...)
	return found[dirName], err
}

// path is a path in the inbox; parts are fixed names, ids and recipient
// keys, never raw event text.
func (ib *Inbox) path(parts ...string) string {
	return filepath.Join(append([]string{ib.State.Path, dirName}, parts...)...)
}

// ensure creates an inbox folder owner-only (the runtime directory's
// .gitignore included) and returns its path.
func (ib *Inbox) ensure(parts ...string) (string, error) {
	return ib.State.Ensure(filepath.ToSlash(filepath.Join(append([]string{dirName}, parts...)...)))
}

// recipientKey is a recipient's folder name: plain names as they are,
// others hashed (state.Key), so no name can steer a path.
func recipientKey(name string) string { return state.Key(name) }

// tokens lists the ids in folder dir, oldest first. Anything else there
// (temporary files, strays) is ignored.
func tokens(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if ValidID(e.Name()) && e.Type().IsRegular() {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// read loads message id.
func (ib *Inbox) read(id string) (*Message, error) {
	data, err := hookfs.ReadOwnFile(ib.path(messagesDir, id+".json"), maxMessageBytes)
	if err != nil {
		return nil, err
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("message %s is corrupt: %w", id, err)
	}
	if m.ID != id {
		return nil, fmt.Errorf("message %s holds id %q", id, m.ID)
	}
	return &m, nil
}

// publish writes data to path like state.WriteFile with sync, but only if path does not
// exist yet (a hard link, not a rename, puts it in place): two messages
// given one id never overwrite each other. It reports false on a clash.
func publish(path string, data []byte) (bool, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, werr
	}
	err = os.Link(tmp.Name(), path)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

// syncDir makes a folder's new entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// touch creates an empty token; it appears whole or not at all. A link at
// its name is not followed (it would truncate what the link names).
func touch(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// move renames a token from one folder to another, creating the target
// folder. It reports false when the token was already gone: another hook
// moved it first, which is not an error.
func (ib *Inbox) move(from string, to ...string) (bool, error) {
	dir, err := ib.ensure(to[:len(to)-1]...)
	if err != nil {
		return false, err
	}
	err = os.Rename(from, filepath.Join(dir, to[len(to)-1]))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// removeToken deletes a token; one already gone is fine.
func removeToken(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
