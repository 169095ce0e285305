package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// Sample is the measurement of one run of one command.
type Sample struct {
	// Wall is the time from just before the process is started to just after
	// it has been waited for and its output drained.
	Wall time.Duration
	// MaxRSSKiB is the peak resident set size of the process in KiB, as
	// reported by the kernel when it was waited for (see rss_unix.go for
	// what that figure includes).
	MaxRSSKiB int64
	// StdoutBytes is how many bytes the process wrote to its standard
	// output.
	StdoutBytes int64
	// ExitCode is the exit status of the process, or -1 if a signal ended
	// it.
	ExitCode int
	// StderrLine is the first line the process wrote to its standard error,
	// if any.
	StderrLine string
}

// Runner runs a command once and measures it. An error means the command
// could not be run at all; a command that runs and fails is a Sample with a
// non-zero ExitCode.
type Runner interface {
	Run(c *Command) (Sample, error)
}

// execRunner runs commands as real processes. It keeps the buffers its
// output is read through from one run to the next, so that the harness makes
// little garbage and its own RSS, which every child inherits as a floor (see
// rss_unix.go), stays low. It is not safe for concurrent use.
type execRunner struct {
	stdoutBuf, stderrBuf []byte
}

// newExecRunner returns an execRunner with its buffers allocated.
func newExecRunner() *execRunner {
	return &execRunner{
		stdoutBuf: make([]byte, 32<<10),
		stderrBuf: make([]byte, 4<<10),
	}
}

// Run starts c with its stdin file opened afresh, discards its output while
// counting the bytes of its standard output and keeping the first line of its
// standard error, and waits for it.
func (r *execRunner) Run(c *Command) (Sample, error) {
	var stdin *os.File
	if c.Stdin != "" {
		f, err := os.Open(c.Stdin)
		if err != nil {
			return Sample{}, err
		}
		defer f.Close()
		stdin = f
	}
	// Collect the harness's garbage before the clock starts, so that the
	// collector does not run while a child is being timed and the harness's
	// heap never grows far beyond what is live.
	runtime.GC()

	stdout := countingWriter{buf: r.stdoutBuf}
	stderr := firstLineWriter{readBuf: r.stderrBuf}
	cmd := &exec.Cmd{
		Path:   c.path,
		Args:   c.Argv,
		Env:    c.environ,
		Dir:    c.Dir,
		Stdout: &stdout,
		Stderr: &stderr,
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Sample{}, err
	}
	err := cmd.Wait()
	wall := time.Since(start)

	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return Sample{}, fmt.Errorf("%s: %w", c.Argv[0], err)
	}
	return Sample{
		Wall:        wall,
		MaxRSSKiB:   maxRSSKiB(cmd.ProcessState),
		StdoutBytes: stdout.n,
		ExitCode:    cmd.ProcessState.ExitCode(),
		StderrLine:  stderr.line(),
	}, nil
}

// countingWriter discards what is written to it and counts the bytes.
type countingWriter struct {
	n int64
	// buf is what ReadFrom reads through.
	buf []byte
}

// Write counts p and discards it.
func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// ReadFrom counts and discards what it reads from src until EOF. os/exec
// copies the process's output through it, so no copy buffer is allocated
// per run.
func (w *countingWriter) ReadFrom(src io.Reader) (int64, error) {
	return readThrough(src, w.buf, w.Write)
}

// maxStderrLine bounds how much of the first stderr line is kept.
const maxStderrLine = 512

// firstLineWriter discards what is written to it except the start of its
// first non-empty line.
type firstLineWriter struct {
	buf  []byte
	done bool
	// readBuf is what ReadFrom reads through.
	readBuf []byte
}

// ReadFrom writes what it reads from src until EOF to w; see
// countingWriter.ReadFrom.
func (w *firstLineWriter) ReadFrom(src io.Reader) (int64, error) {
	return readThrough(src, w.readBuf, w.Write)
}

// Write keeps the part of p that belongs to the first non-empty line and
// discards the rest.
func (w *firstLineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for !w.done && len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		room := maxStderrLine - len(w.buf)
		w.buf = append(w.buf, chunk[:min(len(chunk), room)]...)
		if i < 0 {
			break
		}
		p = p[i+1:]
		if len(bytes.TrimSpace(w.buf)) > 0 {
			w.done = true
		} else {
			w.buf = w.buf[:0]
		}
	}
	return n, nil
}

// line returns the first non-empty line seen, without surrounding space.
func (w *firstLineWriter) line() string {
	return string(bytes.TrimSpace(w.buf))
}

// readThrough reads src until EOF through buf, passing each chunk to write,
// and returns how many bytes it read. A nil buf gets a small one.
func readThrough(src io.Reader, buf []byte, write func([]byte) (int, error)) (int64, error) {
	if len(buf) == 0 {
		buf = make([]byte, 512)
	}
	var total int64
	for {
		n, err := src.Read(buf)
		if n > 0 {
			total += int64(n)
			if _, werr := write(buf[:n]); werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
