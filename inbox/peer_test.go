package inbox

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/protocol"
)

// listFiles lists the regular files under root (relative) with their
// content.
func listFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			out[filepath.ToSlash(rel)] = string(data)
		} else if !d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			out[filepath.ToSlash(rel)] = "<" + d.Type().String() + ">"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSnapshotAtSend: send copies the workspace's regular files and
// folders as they are at send; symbolic links and special files are left
// out (noted); later changes to the workspace do not reach recipients.
func TestSnapshotAtSend(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "agent_a_workspace")
	writeFile(t, filepath.Join(ws, "output.py"), "v1")
	writeFile(t, filepath.Join(ws, "sub", "deep", "notes.md"), "notes")
	if err := os.MkdirAll(filepath.Join(ws, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(ws, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "sub"), filepath.Join(ws, "sublink")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "done in " + ws + "/output.py"}, t0)
	if m.Workspace != ws {
		t.Errorf("Workspace %q, want %q", m.Workspace, ws)
	}
	snap := e.inboxPath(snapshotsDir, m.ID)
	want := map[string]string{"output.py": "v1", "sub/deep/notes.md": "notes"}
	if got := listFiles(t, snap); !equalMaps(got, want) {
		t.Errorf("snapshot holds %v, want %v", got, want)
	}
	if !pathExists(t, filepath.Join(snap, "empty")) {
		t.Error("empty folder not copied")
	}
	if n := e.notes.String(); !strings.Contains(n, "3 symbolic link(s) or special file(s) not copied") {
		t.Errorf("notes %q", n)
	}
	// The workspace changes after the send.
	writeFile(t, filepath.Join(ws, "output.py"), "v2")
	writeFile(t, filepath.Join(ws, "later.txt"), "later")
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Second), 8000)
	if len(ids(b)) != 1 {
		t.Fatalf("agent_b got %q", texts(b))
	}
	b.Settle(true)
	copyDir := filepath.Join(e.st.Path, WorkspacesDir, "agent_b", "agent1")
	if b.Items[0].Workspace != copyDir {
		t.Errorf("item workspace %q, want %q", b.Items[0].Workspace, copyDir)
	}
	if got := listFiles(t, copyDir); !equalMaps(got, want) {
		t.Errorf("agent_b's copy holds %v, want the snapshot %v", got, want)
	}
	if got, want := b.Items[0].Text, "done in "+copyDir+"/output.py"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if b.Items[0].Sender != "agent1" {
		t.Errorf("sender shown as %q, want agent1", b.Items[0].Sender)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSnapshotErrors: a workspace that is missing, not a folder, or too
// big is the sender's mistake (a *DraftError), and nothing is queued.
func TestSnapshotErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	writeFile(t, file, "x")
	big := filepath.Join(dir, "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(big, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: over the size limit without taking the disk.
	if err := f.Truncate(maxSnapshotBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := []struct{ ws, want string }{
		{filepath.Join(dir, "missing"), "no such file or directory"},
		{file, "not a directory"},
		{big, "more than 20000 files or 256 MiB; send a smaller folder"},
	}
	for _, c := range cases {
		e := newEnv(t)
		_, err := e.ib.Send(Draft{Source: Peer, From: "agent_a", Workspace: c.ws, Text: "answer"}, t0)
		var de *DraftError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--workspace "+c.ws) {
			t.Errorf("workspace %s: error %v (%T), want a DraftError saying %q", c.ws, err, err, c.want)
		}
		if l := e.list(t0); len(l) != 0 {
			t.Errorf("workspace %s: %d messages queued", c.ws, len(l))
		}
		if b := e.take(e.ib, "agent_b", "Bash", t0, 8000); !b.Empty() {
			t.Errorf("workspace %s: delivered", c.ws)
		}
		entries, _ := os.ReadDir(e.inboxPath(snapshotsDir))
		if len(entries) != 0 {
			t.Errorf("workspace %s: snapshot folder left: %v", c.ws, entries)
		}
	}
}

// TestSnapshotFileLimit: more than maxSnapshotFiles files is refused too.
func TestSnapshotFileLimit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("creates 20001 files")
	}
	ws := t.TempDir()
	for i := range maxSnapshotFiles + 1 {
		if err := os.WriteFile(filepath.Join(ws, "f"+itoa(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t)
	_, err := e.ib.Send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "answer"}, t0)
	var de *DraftError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "more than 20000 files") {
		t.Errorf("error %v, want a DraftError about the limit", err)
	}
}

// TestCopyTreeRefusesBeforeCopying: a tree over the limits is refused
// before anything of it is copied. The destination does not exist, so a
// copy begun would fail on its first file with another error.
func TestCopyTreeRefusesBeforeCopying(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(src, "big"))
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size counts, no disk is used.
	if err := big.Truncate(maxSnapshotBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	_, err = copyTree(src, filepath.Join(t.TempDir(), "missing"), "")
	var lim *limitError
	if !errors.As(err, &lim) {
		t.Fatalf("copyTree: %v, want the limit refused before any copy", err)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestWorkspacePerRecipient: each recipient gets its own copy, at
// workspaces/<recipient>/<alias>, and its own paths in the text.
func TestWorkspacePerRecipient(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "w", "a")
	writeFile(t, filepath.Join(ws, "x.py"), "print(1)")
	text := "Wrote " + ws + "/x.py; the folder is " + ws + ". Not " + ws + "b/y.py, nor " + ws + "_old."
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: text}, t0)
	for _, r := range []string{"agent_b", "agent_c"} {
		b := e.take(e.ib, r, "Bash", t0.Add(time.Second), 8000)
		if len(ids(b)) != 1 {
			t.Fatalf("%s got %q", r, texts(b))
		}
		b.Settle(true)
		cp := filepath.Join(e.st.Path, WorkspacesDir, r, "agent1")
		want := "Wrote " + cp + "/x.py; the folder is " + cp + ". Not " + ws + "b/y.py, nor " + ws + "_old."
		if got := b.Items[0].Text; got != want {
			t.Errorf("%s:\n got %q\nwant %q", r, got, want)
		}
		if data, err := os.ReadFile(filepath.Join(cp, "x.py")); err != nil || string(data) != "print(1)" {
			t.Errorf("%s's copy: %q, %v", r, data, err)
		}
	}
}

// TestWorkspaceSymlinkForm: a workspace given through a symbolic link is
// rewritten in both forms, the link and its target.
func TestWorkspaceSymlinkForm(t *testing.T) {
	e := newEnv(t)
	real := filepath.Join(t.TempDir(), "real")
	writeFile(t, filepath.Join(real, "f.txt"), "x")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: link, Text: link + "/f.txt and " + real + "/f.txt"}, t0)
	b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
	cp := filepath.Join(e.st.Path, WorkspacesDir, "agent_b", "agent1")
	if got, want := b.Items[0].Text, cp+"/f.txt and "+cp+"/f.txt"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReplacePath: the workspace is replaced where it is a whole path or a
// path's leading folders, including before a sentence's full stop, never
// inside a longer name.
func TestReplacePath(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/w/a", "/C"},
		{"/w/a/x.py", "/C/x.py"},
		{"see /w/a.", "see /C."},
		{"see /w/a.\nnext", "see /C.\nnext"},
		{"(/w/a) and '/w/a/'", "(/C) and '/C/'"},
		{"/w/ab", "/w/ab"},
		{"/w/a_b /w/a-b /w/a.py /w/a9", "/w/a_b /w/a-b /w/a.py /w/a9"},
		{"/w/a, /w/a: /w/a\t/w/a", "/C, /C: /C\t/C"},
		{`C:\w\a or /w/a\x`, `C:\w\a or /C\x`},
		{"/w/ab /w/a", "/w/ab /C"},
	}
	for _, c := range cases {
		if got := replacePath(c.in, "/w/a", "/C"); got != c.want {
			t.Errorf("replacePath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestReplacePathStart: a workspace path is replaced only where it starts
// a path, not at the end of a longer one that merely ends the same way.
func TestReplacePathStart(t *testing.T) {
	// Regression, a bug found and fixed: peer.go replacePath checks only what follows a match, never
	// what precedes it, so the sender's workspace "/w/a" inside another
	// absolute path such as "/srv/w/a/x.py" (or "/var/tmp/ws" for a
	// workspace "/tmp/ws") is rewritten to "/srv<copy>/x.py": a broken
	// path pointing nowhere. Fix: also require the byte before the match
	// to be the start of the text or one that cannot continue a path
	// (not a word byte, '-', '.', '/' or '\\').
	for _, in := range []string{"/srv/w/a/x.py", "ls /var/w/a", "~/w/a/x", "/w/ax/w/a"} {
		if got := replacePath(in, "/w/a", "/C"); got != in {
			t.Errorf("replacePath(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestNumberingSharedByReaders: peers are numbered by the sorted roster
// (the configured agents, and every agent a peer answer came from or went
// to), the same for every recipient, as MassGen's vote tool takes them;
// the text is left as written.
func TestNumberingSharedByReaders(t *testing.T) {
	e := newEnv(t)
	send := func(from string, to []string, text string, at time.Duration) {
		e.send(Draft{Source: Peer, From: from, To: to, Text: text}, t0.Add(at))
	}
	send("agent_c", []string{"agent_b"}, "agent_c here; agent_a is wrong", 0)
	send("agent_a", []string{"agent_b", "agent_d"}, "agent_a here", time.Second)
	send("agent_c", []string{"agent_b", "agent_d"}, "agent_c again", 2*time.Second)
	seen := func(to string) []string {
		b := e.take(e.ib, to, "Bash", t0.Add(time.Minute), 8000)
		var got []string
		for _, it := range b.Items {
			got = append(got, it.Sender+" "+it.Label+": "+it.Text)
		}
		b.Settle(true)
		return got
	}
	// Roster: agent_a, agent_b, agent_c, agent_d.
	if got, want := seen("agent_b"), []string{"agent3 agent3.1: agent_c here; agent_a is wrong", "agent1 agent1.1: agent_a here", "agent3 agent3.2: agent_c again"}; !sameStrings(got, want) {
		t.Errorf("agent_b sees %q\nwant %q", got, want)
	}
	if got, want := seen("agent_d"), []string{"agent1 agent1.1: agent_a here", "agent3 agent3.2: agent_c again"}; !sameStrings(got, want) {
		t.Errorf("agent_d sees %q\nwant %q", got, want)
	}
}

// TestNumberingConfiguredRoster: the configured roster numbers agents that
// have not spoken yet, so the numbers never shift when they do.
func TestNumberingConfiguredRoster(t *testing.T) {
	e := newEnv(t)
	e.ib.Roster = []string{"zed", "beta", "alpha"}
	e.send(Draft{Source: Peer, From: "zed", To: []string{"beta"}, Text: "z"}, t0)
	b := e.take(e.ib, "beta", "Bash", t0, 8000)
	if it := b.Items[0]; it.Sender != "agent3" || it.Label != "agent3.1" || it.Update {
		t.Errorf("zed is %q (%q, update %v), want agent3 (agent3.1)", it.Sender, it.Label, it.Update)
	}
	b.Settle(true)
	e.send(Draft{Source: Peer, From: "zed", To: []string{"beta"}, Text: "z2"}, t0.Add(time.Second))
	b = e.take(e.ib, "beta", "Bash", t0.Add(time.Minute), 8000)
	if it := b.Items[0]; it.Label != "agent3.2" || it.OldLabel != "agent3.1" || !it.Update {
		t.Errorf("zed's second answer: %q from %q (update %v), want agent3.1 -> agent3.2", it.Label, it.OldLabel, it.Update)
	}
}

// TestAnonymiseTextOption: with AnonymiseText, known peers' real ids in
// an answer's text become their roster ids, whether or not the recipient
// has heard from them; the recipient's own id is left as it is.
func TestAnonymiseTextOption(t *testing.T) {
	e := newEnv(t)
	e.ib.AnonymiseText = true
	e.send(Draft{Source: Peer, From: "agent_a", To: []string{"agent_x"}, Text: "first"}, t0)
	e.send(Draft{Source: Peer, From: "agent_b", To: []string{"agent_z"}, Text: "b's answer"}, t0.Add(time.Second))
	e.send(Draft{Source: Peer, From: "agent_c", To: []string{"agent_b"}, Text: "I build on agent_a's answer; agent_b and agent_c agree"}, t0.Add(2*time.Second))
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Minute), 8000)
	// Roster: agent_a, agent_b, agent_c, agent_x, agent_z.
	if got, want := texts(b), []string{"I build on agent1's answer; agent_b and agent3 agree"}; !sameStrings(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAnonymiseWordBoundaries: agent_a is replaced as a whole word only:
// not inside agent_ab or agent_abc; the longer id gets its own alias.
func TestAnonymiseWordBoundaries(t *testing.T) {
	names := map[string]string{"agent_a": "agent1", "agent_ab": "agent2"}
	cases := []struct{ in, want string }{
		{"agent_ab and agent_a", "agent2 and agent1"},
		{"agent_abc xagent_a agent_a9 agent_a.", "agent_abc xagent_a agent_a9 agent1."},
		{"(agent_a)/agent_ab-x", "(agent1)/agent2-x"},
		{"agent_aé", "agent_aé"},
	}
	for _, c := range cases {
		if got := anonymise(c.in, names); got != c.want {
			t.Errorf("anonymise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAnonymiseSinglePass: each real id is replaced by its own alias once;
// an alias written into the text is never taken for a real id. Real
// MassGen agents are often called agent1, agent2...
func TestAnonymiseSinglePass(t *testing.T) {
	// Regression, a bug found and fixed: peer.go anonymise replaces the ids one after the other (longest
	// first) over the text the earlier passes already rewrote, so when a
	// real id equals another peer's alias (agent_b heard first from
	// agent2, so agent2 is "agent1" for it, and then from agent_s, which
	// is "agent2") a later pass renames what an earlier one wrote: agent_s
	// is introduced as "agent1", the name of another agent, and in the
	// swap case both agents end up with one name. MassGen's own agents are
	// often called agent1, agent2... Fix: replace all ids in one pass over
	// the original text (at each position the longest id that matches
	// with word boundaries, copying its alias out without rescanning it),
	// e.g. one regexp alternation of the quoted ids sorted longest first.
	names := map[string]string{"agent2": "agent1", "agent1": "agent2"}
	if got, want := anonymise("agent2 agrees with agent1", names), "agent1 agrees with agent2"; got != want {
		t.Errorf("swap: got %q, want %q", got, want)
	}
	names = map[string]string{"agent_a": "agent1", "agent1": "agent2"}
	if got, want := anonymise("agent_a and agent1", names), "agent1 and agent2"; got != want {
		t.Errorf("chain: got %q, want %q", got, want)
	}

	// End to end, with AnonymiseText: the roster is agent2, agent_b,
	// agent_s, so the real agent2 is agent1 and agent_s is agent3 (its
	// copy .../agent_b/agent3).
	e := newEnv(t)
	e.ib.AnonymiseText = true
	ws := filepath.Join(t.TempDir(), "ws1")
	writeFile(t, filepath.Join(ws, "f.txt"), "s's file")
	e.send(Draft{Source: Peer, From: "agent2", To: []string{"agent_b"}, Text: "hello"}, t0)
	e.send(Draft{Source: Peer, From: "agent_s", To: []string{"agent_b"}, Workspace: ws, Text: "agent_s and agent2 wrote " + ws + "/f.txt"}, t0.Add(time.Second))
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Minute), 8000)
	if len(ids(b)) != 2 {
		t.Fatalf("got %q", texts(b))
	}
	it := b.Items[1]
	cp := filepath.Join(e.st.Path, WorkspacesDir, "agent_b", "agent3")
	if it.Sender != "agent3" || it.Workspace != cp {
		t.Fatalf("agent_s is %q for agent_b, its copy %q; want agent3, %s", it.Sender, it.Workspace, cp)
	}
	if want := "agent3 and agent1 wrote " + cp + "/f.txt"; it.Text != want {
		t.Errorf("agent_s's answer reads\n %q\nwant %q", it.Text, want)
	}
}

// TestNewerWorkspaceKept: an older answer delivered after a newer one
// (its matcher waited) does not replace the newer answer's files.
func TestNewerWorkspaceKept(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "f.txt"), "old")
	e.send(Draft{Source: Peer, From: "agent_a", To: []string{"agent_b"}, Matcher: "Edit", Workspace: ws, Text: "old answer"}, t0)
	writeFile(t, filepath.Join(ws, "f.txt"), "new")
	writeFile(t, filepath.Join(ws, "g.txt"), "only new")
	e.send(Draft{Source: Peer, From: "agent_a", To: []string{"agent_b"}, Workspace: ws, Text: "new answer"}, t0.Add(time.Second))
	cp := filepath.Join(e.st.Path, WorkspacesDir, "agent_b", "agent1")
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"new answer"}) {
		t.Fatalf("Bash: %q", got)
	}
	b.Settle(true)
	b = e.take(e.ib, "agent_b", "Edit", t0.Add(2*time.Minute), 8000)
	if got := texts(b); !sameStrings(got, []string{"old answer"}) {
		t.Fatalf("Edit: %q", got)
	}
	b.Settle(true)
	if got := listFiles(t, cp); !equalMaps(got, map[string]string{"f.txt": "new", "g.txt": "only new"}) {
		t.Errorf("copy holds %v, want the newer answer's files", got)
	}
	// A newer answer still replaces an older copy, removing deleted files.
	if err := os.Remove(filepath.Join(ws, "g.txt")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, "f.txt"), "newest")
	e.send(Draft{Source: Peer, From: "agent_a", To: []string{"agent_b"}, Workspace: ws, Text: "newest"}, t0.Add(3*time.Second))
	e.take(e.ib, "agent_b", "Bash", t0.Add(3*time.Minute), 8000).Settle(true)
	if got := listFiles(t, cp); !equalMaps(got, map[string]string{"f.txt": "newest"}) {
		t.Errorf("copy holds %v after the newest answer", got)
	}
}

// TestWorkspaceOfProjectRoot: an agent whose workspace is the project
// itself (send --workspace .) can share it; the snapshot and the copies
// hold the project's files, never massgen-hook's runtime directory (the
// inbox with everyone's messages, other agents' copies).
func TestWorkspaceOfProjectRoot(t *testing.T) {
	e := newEnv(t)
	writeFile(t, filepath.Join(e.project, "main.go"), "package main")
	e.send(Draft{To: []string{"agent_c"}, Text: "a private note for agent_c"}, t0)
	_, err := e.ib.Send(Draft{Source: Peer, From: "agent_a", Workspace: e.project, Text: "see " + e.project + "/main.go"}, t0.Add(time.Second))
	// Regression, a bug found and fixed: peer.go snapshot walks the workspace while writing the snapshot
	// into the runtime directory inside it (<project>/.claude/massgen-hook/
	// inbox/snapshots/.tmp-*), so a workspace that holds the runtime
	// directory either fails or copies the inbox itself (every agent's
	// messages, receipts, other agents' workspace copies) into what each
	// recipient gets. Fix: skip the runtime directory (ib.State.Path, by
	// os.SameFile on each folder) in copyTree.
	if err != nil {
		msg := err.Error()
		if len(msg) > 300 {
			msg = msg[:150] + " … " + msg[len(msg)-150:]
		}
		t.Fatalf("send --workspace <project>: %s", msg)
	}
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Minute), 8000)
	if len(ids(b)) != 1 {
		t.Fatalf("agent_b got %q", texts(b))
	}
	b.Settle(true)
	files := listFiles(t, b.Items[0].Workspace)
	for name := range files {
		if strings.HasPrefix(name, ".claude/massgen-hook/") {
			t.Errorf("agent_b's copy of the project holds the runtime directory: %s (and %d files in all)", name, len(files))
			break
		}
	}
	if files["main.go"] != "package main" {
		t.Errorf("main.go not in the copy: %v", keys(files))
	}
}

// TestRewrittenTextFitsOutput: a peer answer is delivered whole: once its
// paths are rewritten to the (longer) copy path and its banner added it
// still fits in one hook output, whose strings Claude Code cuts at
// protocol.MaxStringLen.
func TestRewrittenTextFitsOutput(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "w")
	writeFile(t, filepath.Join(ws, "f.py"), "x")
	var sb strings.Builder
	for protocol.UTF16Len(sb.String())+len(ws)+10 < MaxText {
		sb.WriteString(ws + "/f.py\n")
	}
	// Under MaxText as sent, over it once every path points at a copy
	// (each line grows from ~55 to ~130 characters): refused at send,
	// where the sender can act, never cut on delivery.
	_, err := e.ib.Send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: sb.String()}, t0)
	var de *DraftError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "once its paths point at the recipients' copies") {
		t.Fatalf("Send of a text too long once rewritten = %v, want a DraftError saying so", err)
	}
	if l := e.list(t0); len(l) != 0 {
		t.Fatalf("a refused answer was queued: %+v", l)
	}
	// One that fits once rewritten is delivered whole, under the cap.
	text := strings.Repeat(ws+"/f.py\n", 20)
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: text}, t0)
	b := e.take(e.ib, "agent_b", "Bash", t0.Add(time.Second), 8000)
	if len(ids(b)) != 1 {
		t.Fatalf("got %d items", len(ids(b)))
	}
	total := 0
	for _, p := range b.Parts() {
		total += protocol.UTF16Len(p.Text)
	}
	if total > protocol.MaxStringLen {
		t.Errorf("the delivered answer is %d UTF-16 units, over the hook output cap %d: it will be cut", total, protocol.MaxStringLen)
	}
}

// TestSeenLabelsSurviveARetry: a delivery whose answer could not be
// written is made again with the same header, not as an update of itself.
func TestSeenLabelsSurviveARetry(t *testing.T) {
	e := newEnv(t)
	e.send(Draft{Source: Peer, From: "agent_a", To: []string{"agent_b"}, Text: "one"}, t0)
	b := e.take(e.ib, "agent_b", "Bash", t0, 8000)
	b.Settle(false)
	b = e.take(e.ib, "agent_b", "Bash", t0.Add(time.Second), 8000)
	if len(b.Items) != 1 {
		t.Fatalf("retry: %q", texts(b))
	}
	if it := b.Items[0]; it.Update || it.OldLabel != "" || it.Label != "agent1.1" {
		t.Errorf("retried answer: label %q, old %q, update %v; want a new agent1.1", it.Label, it.OldLabel, it.Update)
	}
}
