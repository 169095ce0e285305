package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"debug/gosym"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A hook process answers one event and exits, so whatever massgen-hook's
// packages do during initialisation is paid on every tool call, used or
// not: even a package the hook never calls has its code and data paged in
// for its init. Tables and compiled patterns are built on first use
// instead (internal/lazy), and package-level values are ones the linker
// lays out. This holds that: no package of massgen-hook's runs any code
// before main, and the libraries' share stays where it is (a new
// dependency with a heavy initialisation would show here first;
// docs/performance.md says what each costs).
const totalInitBudget = 192 << 10 // bytes: the runtime, the standard library and the libraries

func TestStartupInitialisesLittle(t *testing.T) {
	bin := buildHook(t)
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("massgen-hook version: %v\n%s", err, stderr.String())
	}
	total := 0
	var ownLines []string
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/x/y @0.5 ms, 0.01 ms clock, 1024 bytes, 3 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		total += n
		if strings.HasPrefix(f[1], "github.com/massgen/massgen-hook/") {
			ownLines = append(ownLines, sc.Text())
		}
	}
	if total == 0 {
		t.Fatalf("no inittrace lines read from:\n%s", stderr.String())
	}
	if len(ownLines) > 0 {
		t.Errorf("massgen-hook's packages run code at start-up: build what they compute on first use (internal/lazy), or make it a constant or a switch\n%s",
			strings.Join(ownLines, "\n"))
	}
	if total > totalInitBudget {
		t.Errorf("start-up allocates %d bytes, over the budget of %d: a dependency's initialisation grew", total, totalInitBudget)
	}
}

// Once anything linked calls a method by a name known only at run time
// (reflect's Method and MethodByName: text/template's executor does), the
// linker can no longer drop unused exported methods: it keeps every one of
// every type in the binary, in case it is called that way. That made the
// binary 1.75 MB larger, and a hook pays for a larger binary in page
// faults at start-up. The function table (kept in a stripped binary too)
// says whether any of them is linked.
func TestLinksNoMethodCallByName(t *testing.T) {
	bin := buildHook(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		t.Fatalf("%s: no .gopclntab or .text section", bin)
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	if table.LookupFunc("main.main") == nil {
		t.Fatal("main.main not found: the function table is not read right")
	}
	for _, name := range []string{
		"reflect.Value.Method", "reflect.Value.MethodByName",
		"reflect.(*rtype).Method", "reflect.(*rtype).MethodByName",
	} {
		if table.LookupFunc(name) != nil {
			t.Errorf("%s is linked: the linker now keeps every exported method (go build -ldflags=-dumpdep shows who reaches it)", name)
		}
	}
}
