package inbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// Snapshot limits: a peer's workspace is copied once at send and once per
// recipient, by hooks the agents wait on.
const (
	maxSnapshotFiles = 20000
	maxSnapshotBytes = 256 << 20
)

// snapshot copies the sender's workspace into the inbox, under the
// message's id, as it is now (seed 000: "Agent A's workspace is
// snapshotted"). Symbolic links are not copied: one could point a
// recipient at files outside every workspace.
func (ib *Inbox) snapshot(id, workspace string) error {
	info, err := os.Stat(workspace)
	if err != nil {
		return draftErrorf("--workspace %s: %v", workspace, unwrapPath(err))
	}
	if !info.IsDir() {
		return draftErrorf("--workspace %s: not a directory", workspace)
	}
	dir, err := ib.ensure(snapshotsDir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".tmp-")
	if err != nil {
		return err
	}
	skipped, err := copyTree(workspace, tmp, ib.State.Path)
	if err != nil {
		_ = os.RemoveAll(tmp)
		var lim *limitError
		if errors.As(err, &lim) {
			return draftErrorf("--workspace %s: %v", workspace, err)
		}
		return fmt.Errorf("snapshotting %s: %w", workspace, err)
	}
	if skipped > 0 {
		ib.note("snapshot of %s: %d symbolic link(s) or special file(s) not copied", workspace, skipped)
	}
	return os.Rename(tmp, filepath.Join(dir, id))
}

// limitError says a workspace is too big to snapshot.
type limitError struct{ what string }

func (e *limitError) Error() string { return e.what }

// copyTree copies the regular files and folders of src into dst (which
// exists), owner-only, and counts what it left out. The folder leave (the
// runtime directory, when a peer shares the whole project) is not copied:
// it holds the inbox itself, and the snapshot being written. The tree is
// measured first, so a folder over the limits is refused at once, not
// after twenty thousand copies; the copy checks the limits again, for a
// tree that grew in between.
func copyTree(src, dst, leave string) (skipped int, err error) {
	if _, err := walkTree(src, leave, nil); err != nil {
		return 0, err
	}
	return walkTree(src, leave, func(path, rel string, d fs.DirEntry, info fs.FileInfo) error {
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.Mkdir(target, 0o700)
		}
		return copyFile(path, target, info.Mode().Perm()&0o700|0o600)
	})
}

// walkTree walks src as copyTree copies it, calling each (when not nil)
// on every folder (info nil) and regular file, and stops with a
// *limitError when the files pass the snapshot limits. It counts the
// symbolic links, special files and the folder leave it passes over.
func walkTree(src, leave string, each func(path, rel string, d fs.DirEntry, info fs.FileInfo) error) (skipped int, err error) {
	files, bytes := 0, int64(0)
	leaveInfo, _ := os.Stat(leave)
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		switch {
		case rel == ".":
			return nil
		case d.IsDir():
			if info, err := d.Info(); err == nil && leaveInfo != nil && os.SameFile(info, leaveInfo) {
				skipped++
				return filepath.SkipDir
			}
			if each == nil {
				return nil
			}
			return each(path, rel, d, nil)
		case !d.Type().IsRegular():
			skipped++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files, bytes = files+1, bytes+info.Size()
		if files > maxSnapshotFiles || bytes > maxSnapshotBytes {
			return &limitError{fmt.Sprintf("more than %d files or %d MiB; send a smaller folder", maxSnapshotFiles, maxSnapshotBytes>>20)}
		}
		if each == nil {
			return nil
		}
		return each(path, rel, d, info)
	})
	return skipped, err
}

func copyFile(src, dst string, perm fs.FileMode) error {
	// Non-blocking: a FIFO swapped in after the walk saw a file is an
	// error, not a hang.
	in, _, err := hookfs.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// peersRecord lists the agents peer answers came from or went to, and how
// many answers each sender has sent: the agents known without a
// configured roster, and each answer's revision number (agent1.2).
type peersRecord struct {
	// Names are the senders: the real ids an answer may mention.
	Names []string `json:"names"`
	// Recipients are the agents named as a peer answer's recipients.
	Recipients []string `json:"recipients,omitempty"`
	// Answers counts each sender's answers.
	Answers map[string]int `json:"answers,omitempty"`
}

const peersFile = dirName + "/peers.json"

// addPeer records a peer answer from name to recipients and returns its
// revision: 1 for the sender's first answer, 2 for the next...
func (ib *Inbox) addPeer(name string, recipients []string) (int, error) {
	var rec peersRecord
	err := ib.State.UpdateJSON(peersFile, &rec, func() (bool, error) {
		if !slices.Contains(rec.Names, name) {
			rec.Names = append(rec.Names, name)
		}
		for _, r := range recipients {
			if !slices.Contains(rec.Recipients, r) {
				rec.Recipients = append(rec.Recipients, r)
			}
		}
		if rec.Answers == nil {
			rec.Answers = map[string]int{}
		}
		rec.Answers[name]++
		return true, nil
	})
	return rec.Answers[name], err
}

// notePeer records a peer answer's sender and recipients without counting
// an answer: one fetched from a broker was counted where it was sent.
func (ib *Inbox) notePeer(name string, recipients []string) error {
	var rec peersRecord
	return ib.State.UpdateJSON(peersFile, &rec, func() (bool, error) {
		changed := false
		for _, n := range append([]string{name}, recipients...) {
			list := &rec.Recipients
			if n == name {
				list = &rec.Names
			}
			if !slices.Contains(*list, n) {
				*list = append(*list, n)
				changed = true
			}
		}
		return changed, nil
	})
}

// numbering is MassGen's anonymous ids: the roster (the configured agents
// and every agent a peer answer came from or went to) sorted, agent1 for
// the first, the same for every recipient. These are the ids MassGen's
// vote tool takes. It also returns the senders, whose ids an answer's text
// may mention.
func (ib *Inbox) numbering() (names map[string]string, senders []string, err error) {
	var peers peersRecord
	if _, err := ib.State.ReadJSON(peersFile, &peers); err != nil {
		return nil, nil, err
	}
	roster := slices.Concat(ib.Roster, peers.Names, peers.Recipients)
	slices.Sort(roster)
	roster = slices.Compact(roster)
	names = make(map[string]string, len(roster))
	for i, id := range roster {
		if id != "" {
			names[id] = fmt.Sprintf("agent%d", i+1)
		}
	}
	return names, peers.Names, nil
}

// seenRecord is, for one recipient, the answer label each sender last
// had, as MassGen keeps each agent's context labels: an answer from a
// sender already seen is an update (agent1.1 -> agent1.2).
type seenRecord struct {
	Senders map[string]seenEntry `json:"senders"`
}

// seenEntry remembers the label before Message too, so a delivery that
// could not be written and is made again reads the same.
type seenEntry struct {
	Label   string `json:"label"`
	Message string `json:"message"`
	Before  string `json:"before,omitempty"`
	Had     bool   `json:"had,omitempty"`
}

// see records that recipient now has m's label from its sender, returning
// the label it had before and whether it had one.
func (ib *Inbox) see(recipient string, m *Message, label string) (old string, had bool, err error) {
	var rec seenRecord
	name := dirName + "/" + seenDir + "/" + recipientKey(recipient) + ".json"
	err = ib.State.UpdateJSON(name, &rec, func() (bool, error) {
		if rec.Senders == nil {
			rec.Senders = map[string]seenEntry{}
		}
		e, ok := rec.Senders[m.From]
		if ok && e.Message == m.ID {
			old, had = e.Before, e.Had
			return false, nil
		}
		old, had = e.Label, ok
		rec.Senders[m.From] = seenEntry{Label: label, Message: m.ID, Before: old, Had: had}
		return true, nil
	})
	return old, had, err
}

// prepare makes m ready for recipient. A peer answer gets its sender's
// anonymous id and answer label, a copy of the sender's workspace, and its
// workspace paths pointing at the copy; with AnonymiseText, also every
// known peer's real id in its text replaced by its anonymous id (MassGen
// leaves the text as written). The paths are set aside while ids are
// replaced, so an id that happens to be part of the copy's path (a peer
// named "claude") never corrupts it.
func (ib *Inbox) prepare(m *Message, recipient string) (Item, error) {
	item := Item{Message: m, Sender: m.From, Text: m.Text}
	if m.Source != Peer || m.From == "" {
		return item, nil
	}
	names, senders, err := ib.numbering()
	if err != nil {
		return item, err
	}
	item.Sender = names[m.From]
	if item.Sender == "" {
		// Sent before the roster knew it (an older inbox): it still gets
		// a name, after the roster's.
		item.Sender = fmt.Sprintf("agent%d", len(names)+1)
	}
	if m.Revision > 0 {
		item.Label = fmt.Sprintf("%s.%d", item.Sender, m.Revision)
	}
	if item.OldLabel, item.Update, err = ib.see(recipient, m, item.Label); err != nil {
		return item, err
	}
	text, placeholder := m.Text, ""
	if m.Workspace != "" {
		ws, err := ib.workspaceCopy(m, recipient, item.Sender)
		if err != nil {
			// The answer still matters more than its files: deliver it,
			// saying the files could not be shared.
			ib.note("could not copy %s's workspace for %s: %v", m.From, recipient, err)
		} else {
			item.Workspace = ws
			placeholder = unusedMarker(text)
			text = rewritePaths(text, m.Workspace, placeholder)
		}
	}
	if ib.AnonymiseText {
		known := map[string]string{}
		for _, id := range senders {
			if id != recipient && names[id] != "" {
				known[id] = names[id]
			}
		}
		known[m.From] = item.Sender
		delete(known, recipient)
		text = anonymise(text, known)
	}
	if placeholder != "" {
		text = strings.ReplaceAll(text, placeholder, item.Workspace)
	}
	item.Text = text
	return item, nil
}

// unusedMarker is a string that occurs nowhere in text and holds no word
// an agent id could match.
func unusedMarker(text string) string {
	marker := "\x00\x01"
	for strings.Contains(text, marker) {
		marker += "\x01"
	}
	return marker
}

// workspaceRecord remembers which answer a recipient's copy of a peer's
// workspace holds, so an older answer delivered late never replaces a
// newer one's files.
type workspaceRecord struct {
	Message string `json:"message"`
}

// workspaceCopy copies m's snapshot to recipient's copy of the sender's
// workspace, workspaces/<recipient>/<alias>, replacing the older copy.
func (ib *Inbox) workspaceCopy(m *Message, recipient, alias string) (string, error) {
	rk := recipientKey(recipient)
	target := filepath.Join(ib.State.Path, WorkspacesDir, rk, alias)
	var rec workspaceRecord
	err := ib.State.UpdateJSON(WorkspacesDir+"/"+rk+"/"+alias+".json", &rec, func() (bool, error) {
		if rec.Message >= m.ID {
			return false, nil
		}
		if ib.State.ReadOnly {
			return true, nil
		}
		parent := filepath.Dir(target)
		tmp, err := os.MkdirTemp(parent, ".tmp-")
		if err != nil {
			return false, err
		}
		if _, err := copyTree(ib.path(snapshotsDir, m.ID), tmp, ""); err != nil {
			_ = os.RemoveAll(tmp)
			return false, err
		}
		if err := os.RemoveAll(target); err != nil {
			_ = os.RemoveAll(tmp)
			return false, err
		}
		if err := os.Rename(tmp, target); err != nil {
			return false, err
		}
		rec.Message = m.ID
		return true, nil
	})
	return target, err
}

// rewritePaths points the sender's workspace paths in text at the
// recipient's copy (seed 000, "Path Normalization"): the path as sent, and
// its symlink-free form.
func rewritePaths(text, workspace, copyPath string) string {
	forms := []string{filepath.Clean(workspace)}
	if real, err := filepath.EvalSymlinks(workspace); err == nil && real != forms[0] {
		forms = append(forms, real)
	}
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	for _, f := range forms {
		text = replacePath(text, f, copyPath)
	}
	return text
}

// replacePath replaces old with new where old is a whole path or a path's
// leading folders: "/w/a" in "/w/a/x.py" but not in "/w/ab".
func replacePath(text, old, new string) string {
	if old == "" {
		return text
	}
	var b strings.Builder
	last := 0 // text[:last] is written
	for from := 0; ; {
		i := strings.Index(text[from:], old)
		if i < 0 {
			break
		}
		i += from
		end := i + len(old)
		if (i == 0 || isPathStart(text[i-1])) && (end == len(text) || isPathEnd(text[end:])) {
			b.WriteString(text[last:i])
			b.WriteString(new)
			last, from = end, end
		} else {
			from = i + 1
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// isPathStart reports whether c, just before a match, cannot be part of
// the same path: "/w/a" in "see /w/a" but not in "/srv/w/a".
func isPathStart(c byte) bool {
	return !(isWordByte(c) || strings.IndexByte("./-_~", c) >= 0)
}

// isPathEnd reports whether rest, what follows a match, starts outside the
// path: a separator, or anything that cannot continue a file name (a full
// stop only when a name does not go on after it, as in "see /w/a.").
func isPathEnd(rest string) bool {
	c := rest[0]
	switch {
	case c == '/' || c == '\\':
		return true
	case c == '.':
		return len(rest) == 1 || !(rest[1] == '_' || rest[1] == '-' || isWordByte(rest[1]))
	}
	return !(c == '_' || c == '-' || isWordByte(c))
}

// anonymise replaces each real agent id in text with its alias, as a whole
// word, in one pass: an alias written is never read again, so an agent
// really named "agent2" cannot be renamed twice, and at each place the
// longest id wins ("agent_ab" over "agent_a").
func anonymise(text string, names map[string]string) string {
	ids := make([]string, 0, len(names))
	for id := range names {
		if id != "" {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	var b strings.Builder
	for i := 0; i < len(text); {
		if wordStart(text, i) {
			if id := wordAt(text, i, ids); id != "" {
				b.WriteString(names[id])
				i += len(id)
				continue
			}
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

// wordAt is the first of ids that stands as a whole word at text[i:], or "".
func wordAt(text string, i int, ids []string) string {
	for _, id := range ids {
		if strings.HasPrefix(text[i:], id) && wordEnd(text, i+len(id)) {
			return id
		}
	}
	return ""
}

// indexWord is where word first occurs in text as a whole word, or -1.
func indexWord(text, word string) int {
	for from := 0; word != ""; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		if wordStart(text, i) && wordEnd(text, i+len(word)) {
			return i
		}
		from = i + 1
	}
	return -1
}

// wordStart and wordEnd report whether a word can start or end at text[i].
func wordStart(text string, i int) bool { return i == 0 || !isWordByte(text[i-1]) }
func wordEnd(text string, i int) bool   { return i == len(text) || !isWordByte(text[i]) }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
