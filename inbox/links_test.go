package inbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// An inbox folder that is a link is refused by every entry point, before
// anything is read or written through it.
func TestInboxThroughALinkIsRefused(t *testing.T) {
	for _, link := range []string{"inbox", "inbox/pending-all", "inbox/messages"} {
		t.Run(link, func(t *testing.T) {
			e := newEnv(t)
			e.send(Draft{Text: "one"}, t0)
			elsewhere := t.TempDir()
			real := e.inboxPath(strings.TrimPrefix(link, "inbox"))
			if err := os.Rename(real, elsewhere+"/moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere+"/moved", real); err != nil {
				t.Fatal(err)
			}
			var le *hookfs.LinkError
			if _, err := e.ib.Take("b", "Read", t0, 10000, Via{Event: "PostToolUse"}); !errors.As(err, &le) {
				t.Errorf("Take = %v, want a *LinkError", err)
			}
			if _, err := e.ib.TakeLate("b", t0, 10000, Via{Event: "Stop"}); !errors.As(err, &le) {
				t.Errorf("TakeLate = %v, want a *LinkError", err)
			}
			if _, err := e.ib.Send(Draft{Text: "two"}, t0); !errors.As(err, &le) {
				t.Errorf("Send = %v, want a *LinkError", err)
			}
			if _, err := e.ib.List(t0); !errors.As(err, &le) {
				t.Errorf("List = %v, want a *LinkError", err)
			}
		})
	}
}

// A message file that is a FIFO is named and skipped at once; the other
// messages are delivered.
func TestInboxMessageThatIsAFIFO(t *testing.T) {
	e := newEnv(t)
	bad := e.send(Draft{Text: "one"}, t0)
	e.send(Draft{Text: "two"}, t0.Add(time.Second))
	path := e.inboxPath(messagesDir, bad.ID+".json")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	b := e.take(e.ib, "b", "Read", t0.Add(2*time.Second), 10000)
	if got := texts(b); len(got) != 1 || !strings.Contains(got[0], "two") {
		t.Errorf("delivered %q, want only two", got)
	}
	if !strings.Contains(e.notes.String(), bad.ID+".json is a FIFO") {
		t.Errorf("notes %q, want the FIFO named", e.notes.String())
	}
}

// A token that is a link is never followed: the file it names keeps its
// content.
func TestInboxTokenLinkNotFollowed(t *testing.T) {
	bashrc := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(bashrc, []byte("# mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := touch(func() string {
		link := filepath.Join(t.TempDir(), "token")
		if err := os.Symlink(bashrc, link); err != nil {
			t.Fatal(err)
		}
		return link
	}()); err == nil {
		t.Error("touch through a link succeeded")
	}
	if got, _ := os.ReadFile(bashrc); string(got) != "# mine\n" {
		t.Errorf("the link's target was truncated: %q", got)
	}
}
