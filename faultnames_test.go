package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
)

// TestFaultKindsSpelledOnce: a fault kind's YAML name is a string literal
// in one Go file, its own faults/<kind>.go; loader, validator, exporter,
// explorer and TUI read it from faults' table (issue 12: adding a kind is
// one new file). The trace message catalogue (model/tracemsg) is the one
// other place such a word stands, as a trace line's id ("pause" is also
// the id of the line a GC pause writes): another vocabulary, the trace
// format's, which only the emitters and the catalogue spell.
func TestFaultKindsSpelledOnce(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range faults.Kinds {
		kinds[string(k)] = true
	}
	if len(kinds) < 8 {
		t.Fatalf("only %d fault kinds: the table is not read right", len(kinds))
	}
	where := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "examples" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			if err == nil {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.HasPrefix(p, "model/tracemsg/") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil || ast.IsGenerated(f) { // scenario/prebuilt/table.go: scenarios.yaml's data, as Go
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				if v, _ := strconv.Unquote(bl.Value); kinds[v] {
					if where[v] == nil {
						where[v] = map[string]bool{}
					}
					where[v][p] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range kinds {
		own := filepath.Join("faults", k+".go")
		if !where[k][own] {
			t.Errorf("fault kind %q is not spelled in %s", k, own)
		}
		for p := range where[k] {
			if p != own {
				t.Errorf("%s spells the fault kind %q: take it from faults' table (faults.Kinds, Spec.Kind)", p, k)
			}
		}
	}
}
