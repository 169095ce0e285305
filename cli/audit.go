package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/state"
)

func (a *app) auditCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "audit",
		Short:   "Read the audit trail of hook decisions",
		Example: "  massgen-hook audit tail -n 50\n  massgen-hook audit tail --from nats -f | jq .",
		Args:    noArgs(a),
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.auditTailCommand())
	return cmd
}

type tailOptions struct {
	n       int
	follow  bool
	from    string
	project string
	text    bool
}

func (a *app) auditTailCommand() *cobra.Command {
	var o tailOptions
	var format *formatFlag
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Print the last lines of the audit trail, and follow it with -f",
		Long: `Prints the last lines of the project's audit trail
(.claude/massgen-hook/audit.jsonl, then audit.jsonl.1 before it when more
are asked for), one JSON object a line as written, so the output pipes to
jq. With -f it keeps printing lines as hooks write them, until interrupted.

--from nats reads the JetStream stream that audit.sink: nats copies every
line to, on the server of audit: (else inbox:, or $MASSGEN_HOOK_NATS_URL):
the lines of every project, or of one with --project (a project key as in
the subjects, such as myrepo-1a2b3c4d, or a project folder: "." is this
one). --format text prints one summary line a decision instead.

Exit status: 0 done (or interrupted while following), 1 the trail cannot
be read or the broker cannot be reached or has no audit stream, 2 a usage
mistake.`,
		Example: `  massgen-hook audit tail -n 100 | jq 'select(.decision == "deny")'
  massgen-hook audit tail -f --format text
  massgen-hook audit tail --from nats --project . -f`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			o.text = f == "text"
			if o.n < 0 {
				return a.usage(cmd, fmt.Errorf("-n %d: give a count of lines, 0 or more", o.n))
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			switch o.from {
			case "local":
				if o.project != "" {
					return a.usage(cmd, errors.New("--project goes with --from nats (the local trail is this project's)"))
				}
				return a.tailLocal(ctx, o)
			case "nats":
				return a.tailNATS(ctx, o)
			}
			return a.usage(cmd, fmt.Errorf("--from %q: use local or nats", o.from))
		},
	}
	cmd.Flags().IntVarP(&o.n, "lines", "n", 20, "how many of the last lines to print")
	cmd.Flags().BoolVarP(&o.follow, "follow", "f", false, "keep printing new lines until interrupted")
	cmd.Flags().StringVar(&o.from, "from", "local", "where to read: local (this project's file) or nats (the shared stream)")
	cmd.Flags().StringVar(&o.project, "project", "", `with --from nats, only this project: its key, or its folder ("." for this one)`)
	format = addFormatFlag(cmd, false, "json", "text")
	return cmd
}

// auditPoll is how often tail -f looks for new lines in the local trail.
const auditPoll = 200 * time.Millisecond

// tailLocal prints the last o.n lines of the local trail, then follows it
// across rotations.
func (a *app) tailLocal(ctx context.Context, o tailOptions) error {
	project, err := a.resolveProject("")
	if err != nil {
		return &usageError{err: err}
	}
	st := state.Open(project)
	defer st.Close()
	out := lineWriter{w: a.stdout, text: o.text}
	dir, err := st.FolderIfExists("")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var f *os.File
	if dir != nil {
		defer dir.Close()
		if f, err = openIfThere(dir, state.AuditFile); err != nil {
			return err
		}
	}
	if f == nil && !o.follow {
		fmt.Fprintf(a.stderr, "massgen-hook: no audit trail yet at %s\n", filepath.Join(st.Path, state.AuditFile))
		return nil
	}
	var pos int64
	if f != nil {
		defer func() { f.Close() }()
		var last []byte
		last, pos, err = lastLines(f, o.n)
		if err != nil {
			return err
		}
		if short := o.n - bytes.Count(last, []byte{'\n'}); short > 0 {
			if old, err := openIfThere(dir, state.AuditFile+".1"); err == nil && old != nil {
				before, _, _ := lastLines(old, short)
				old.Close()
				out.write(before, "")
			}
		}
		out.write(last, "")
	}
	if !o.follow {
		return nil
	}
	var partial []byte
	for {
		if f != nil {
			data, err := readFrom(f, pos)
			if err != nil {
				return err
			}
			pos += int64(len(data))
			partial = out.write(append(partial, data...), "")
		}
		// A rotation moved the file we read to audit.jsonl.1: once it is
		// read to its end, go on with the new one from its start.
		if dir == nil {
			if dir, err = st.FolderIfExists(""); err == nil {
				defer dir.Close()
			} else {
				dir = nil
			}
		}
		if dir != nil {
			if cur, err := openIfThere(dir, state.AuditFile); err == nil && cur != nil {
				if f != nil && sameOpenFile(f, cur) {
					cur.Close()
				} else {
					if f != nil {
						// What was appended before the move.
						data, err := readFrom(f, pos)
						if err != nil {
							cur.Close()
							return err
						}
						out.write(append(partial, data...), "")
						f.Close()
					}
					f, pos, partial = cur, 0, nil
					continue
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(auditPoll):
		}
	}
}

// openTrail opens name in dir to read; nil when it is not there.
func openIfThere(dir *hookfs.Dir, name string) (*os.File, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

func sameOpenFile(a, b *os.File) bool {
	ia, err1 := a.Stat()
	ib, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// readFrom reads f from pos to its end.
func readFrom(f *os.File, pos int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil || info.Size() <= pos {
		return nil, err
	}
	buf := make([]byte, info.Size()-pos)
	n, err := f.ReadAt(buf, pos)
	if err == io.EOF {
		err = nil
	}
	return buf[:n], err
}

// lastLines returns the last n whole lines of f and the offset of its
// end, reading back from the end a block at a time.
func lastLines(f *os.File, n int) ([]byte, int64, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	end := info.Size()
	if n == 0 {
		return nil, end, nil
	}
	data := []byte{}
	for start := end; start > 0; {
		step := min(start, 64<<10)
		start -= step
		block := make([]byte, step)
		if _, err := f.ReadAt(block, start); err != nil && err != io.EOF {
			return nil, 0, err
		}
		data = append(block, data...)
		whole := data
		if i := bytes.LastIndexByte(whole, '\n'); i >= 0 {
			whole = whole[:i+1]
		}
		if bytes.Count(whole, []byte{'\n'}) > n {
			break
		}
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		end -= int64(len(data) - i - 1) // a line being written is left for follow
		data = data[:i+1]
	} else {
		return nil, end - int64(len(data)), nil
	}
	for bytes.Count(data, []byte{'\n'}) > n {
		data = data[bytes.IndexByte(data, '\n')+1:]
	}
	return data, end, nil
}

// tailNATS prints the last o.n lines of the audit stream, then follows it.
func (a *app) tailNATS(ctx context.Context, o tailOptions) error {
	project, err := a.resolveProject("")
	if err != nil {
		return &usageError{err: err}
	}
	cfg, _, err := a.loadRules(project, false)
	if err != nil {
		return err
	}
	n := cfg.AuditNATS(a.getenv)
	if len(n.URLs()) == 0 {
		return &usageError{err: fmt.Errorf("--from nats: no server: set audit.url (or inbox.url) in the config, or $%s", config.NATSURLEnv)}
	}
	filter := cfg.AuditSubject() + ".>"
	if o.project != "" {
		key := o.project
		if key == "." || strings.ContainsRune(key, filepath.Separator) {
			abs, err := filepath.Abs(filepath.Join(project, key))
			if key != "." {
				abs, err = filepath.Abs(key)
			}
			if err != nil {
				return &usageError{err: err}
			}
			key = natsaudit.ProjectKey(abs)
		} else if strings.ContainsAny(key, ".*> \t") {
			return &usageError{err: fmt.Errorf("--project %q: give a project key (letters, digits, - and _) or a folder", o.project)}
		}
		filter = cfg.AuditSubject() + "." + key
	}
	base := project
	if cfg.Path != "" {
		base = filepath.Dir(cfg.Path)
	}
	opts, err := n.DialOptions(base, "massgen-hook audit tail")
	if err != nil {
		return &usageError{err: err}
	}
	wait := max(time.Duration(n.Timeout), 5*time.Second)
	dctx, cancel := context.WithTimeout(ctx, wait)
	conn, err := natsclient.Dial(dctx, opts)
	cancel()
	if err != nil {
		return fmt.Errorf("cannot reach the NATS server %s: %s", redactedURLs(n.URLs()), scrubURLs(err.Error(), n.URLs()))
	}
	defer conn.Close()
	stream := cfg.AuditStream()
	out := lineWriter{w: a.stdout, text: o.text, project: true}
	err = natsaudit.Tail(ctx, conn, stream, filter, o.n, o.follow, wait, func(m *natsclient.Msg) error {
		out.write(append(m.Data, '\n'), m.Subject[strings.LastIndexByte(m.Subject, '.')+1:])
		return nil
	})
	switch {
	case ctx.Err() != nil:
		return nil
	case natsclient.IsAPIError(err, natsclient.ErrCodeStreamNotFound):
		return fmt.Errorf("%s has no stream %s: no hook with audit.sink: nats has published to it yet (or audit.stream names another)", conn.Server(), stream)
	case err != nil:
		return fmt.Errorf("reading stream %s on %s: %s", stream, conn.Server(), scrubURLs(err.Error(), n.URLs()))
	}
	return nil
}

// redactedURLs is urls as they may be shown.
func redactedURLs(urls []string) string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = natsclient.Redact(u)
	}
	return strings.Join(out, ",")
}

// scrubURLs replaces, in text, each URL by its redacted form.
func scrubURLs(text string, urls []string) string {
	for _, u := range urls {
		text = strings.ReplaceAll(text, u, natsclient.Redact(u))
	}
	return natsclient.RedactText(text)
}

// lineWriter prints audit lines as they are, or as one summary line each.
type lineWriter struct {
	w       io.Writer
	text    bool
	project bool // text lines name the project key
}

// write prints the whole lines of data and returns what follows the last
// newline (a line not finished yet).
func (l lineWriter) write(data []byte, key string) []byte {
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return data
		}
		line := data[:i+1]
		data = data[i+1:]
		if !l.text {
			l.w.Write(line)
			continue
		}
		fmt.Fprintln(l.w, summary(line[:i], key, l.project))
	}
}

// summary is an audit line in one line of text: time, project (from a
// stream), event, agent, tool, outcome and reason.
func summary(line []byte, key string, project bool) string {
	var r struct {
		Time     string `json:"time"`
		Event    string `json:"event"`
		Agent    string `json:"agent"`
		Tool     string `json:"tool"`
		Decision string `json:"decision"`
		Outcome  string `json:"outcome"`
		Reason   string `json:"reason"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return string(line)
	}
	f := []string{r.Time}
	if project {
		f = append(f, key)
	}
	f = append(f, r.Event)
	if r.Agent != "" {
		f = append(f, "agent="+r.Agent)
	}
	if r.Tool != "" {
		f = append(f, r.Tool)
	}
	what := r.Decision
	if what == "" {
		what = r.Outcome
	}
	if what == "" {
		what = "-"
	}
	f = append(f, what)
	if r.Reason != "" {
		f = append(f, "("+strings.ReplaceAll(r.Reason, "\n", " ")+")")
	}
	return strings.Join(f, " ")
}
