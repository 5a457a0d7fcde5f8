package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the simulation and the scenario
// layer may be (issue 12: a function fits on a screen), counted from its
// func line to its closing brace.
const maxFuncLines = 60

// TestFunctionsFitOnAScreen keeps every function of sim, model, faults and
// scenario (their sub-packages too) at most maxFuncLines long, so that the
// redesign's "one screen" stays true as features land.
func TestFunctionsFitOnAScreen(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	for _, root := range []string{"sim", "model", "faults", "scenario"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				seen++
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
					t.Errorf("%s: %s is %d lines, over %d: split it into named steps", fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 500 {
		t.Fatalf("read only %d functions: the walk is broken", seen)
	}
}
