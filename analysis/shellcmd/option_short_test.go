package shellcmd

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every OptionTable literal in the package lists each short option once:
// a letter listed twice with two arities ("i" and "i:") reads as the first.
func TestShortOptionsListedOnce(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := gotoken.NewFileSet()
	tables := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if key, ok := kv.Key.(*ast.Ident); !ok || key.Name != "Short" {
				return true
			}
			lit, ok := kv.Value.(*ast.BasicLit)
			if !ok || lit.Kind != gotoken.STRING {
				return true
			}
			short, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			tables++
			seen := map[rune]bool{}
			for _, c := range strings.ReplaceAll(short, ":", "") {
				if seen[c] {
					t.Errorf("%s: %q lists -%c twice", fset.Position(lit.Pos()), short, c)
				}
				seen[c] = true
			}
			return true
		})
	}
	if tables < 50 {
		t.Errorf("found %d option tables; the search no longer sees them", tables)
	}
}

// shortArity reads the notation: a letter alone, "x:", "x::", and a
// letter not listed (":" is never an option).
func TestShortArity(t *testing.T) {
	o := &OptionTable{Short: "ab:c::d"}
	for c, want := range map[byte]arity{'a': noArg, 'b': needArg, 'c': attachedArg, 'd': noArg, 'e': noOption, ':': noOption} {
		if got := o.shortArity(c); got != want {
			t.Errorf("-%c: %d, want %d", c, got, want)
		}
	}
}
