// Command deps is the floor plus massgen-hook's libraries: it does what
// bench/floor does (reads the event, checks it is JSON, prints "{}") and
// links every package massgen-hook links except massgen-hook's own, so the
// libraries' start-up (their package initialisation, a larger binary to map)
// is paid and nothing else.
//
// It is not a target but a yardstick: `make bench` times it against the
// floor, and the ratio is the part of every subcommand's ratio that comes
// from the chosen libraries rather than from massgen-hook's code. A test
// (deps_test.go) keeps its imports equal to the binary's.
package main

import (
	"encoding/json"
	"io"
	"os"

	_ "bufio"
	_ "crypto/ed25519"
	_ "crypto/sha256"
	_ "embed"
	_ "encoding/base32"
	_ "encoding/csv"
	_ "encoding/hex"
	_ "hash/fnv"
	_ "math/rand/v2"
	_ "os/exec"
	_ "os/signal"
	_ "os/user"
	_ "regexp"
	_ "runtime/debug"
	_ "sort"
	_ "text/tabwriter"
	_ "time/tzdata"

	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/google/jsonschema-go/jsonschema"
	_ "github.com/pelletier/go-toml/v2"
	_ "github.com/rogpeppe/go-internal/diff"
	_ "github.com/spf13/cobra"
	_ "github.com/tidwall/gjson"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/sys/unix"
	_ "mvdan.cc/sh/v3/syntax"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	_ = json.Valid(in)
	_, _ = os.Stdout.WriteString("{}\n")
}
