package scratchpad

import (
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io/fs"
)

// Stamp is what a scratchpad file was at one moment, so that a later look
// can tell whether anyone wrote it since: whether it existed, its size,
// modification time and a hash of its content (a write that keeps the size
// within one tick of a coarse clock still changes the hash; a rewrite with
// the same content changes the time).
type Stamp struct {
	Exists  bool   `json:"exists"`
	Size    int64  `json:"size,omitempty"`
	ModTime int64  `json:"mtime_ns,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// StampOf is path's Stamp, after the checks ReadFile makes. A missing file
// is Stamp{}; a path that is not a regular file exists, with no content.
func (l Layout) StampOf(path string) (Stamp, error) {
	_, stamp, err := l.ReadStamped(path)
	var notFile *NotFileError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Stamp{}, nil
	case errors.As(err, &notFile):
		return Stamp{Exists: true}, nil
	case err != nil:
		return Stamp{}, err
	}
	return stamp, nil
}

// ReadStamped is ReadFile with the Stamp of what it read, taken from the
// file it opened: a hook that judges a file's content and asks whether it
// changed reads it once, and both answers are of one version of it.
func (l Layout) ReadStamped(path string) ([]byte, Stamp, error) {
	content, info, err := l.read(path)
	if err != nil {
		return nil, Stamp{}, err
	}
	return content, stampOf(content, info), nil
}

// stampOf is the Stamp of a regular file read whole: content, and info
// from its fstat.
func stampOf(content []byte, info fs.FileInfo) Stamp {
	// FNV-128a, as state.Key: it only has to tell contents apart, and
	// crypto's start-up would be paid by every hook process.
	h := fnv.New128a()
	h.Write(content)
	return Stamp{Exists: true, Size: int64(len(content)), ModTime: info.ModTime().UnixNano(), Hash: hex.EncodeToString(h.Sum(nil))}
}
