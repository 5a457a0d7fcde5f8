package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/lockstep-sim/lockstep"

// scenarioFloors are the scenario layer's packages, bottom up: each one
// imports only those before it (the positioned YAML reader, the format,
// the bundled file prebuilt as Go, the bundled file for tests, running it,
// playing a run back, playing a recorded trace back).
var scenarioFloors = []string{"scenario/yamlfile", "scenario", "scenario/prebuilt", "scenario/build", "scenario/scenariotest", "scenario/runner", "scenario/player", "scenario/tracefile"}

// layer is a package's floor in the house (docs/architecture.md): a
// package imports only packages on lower floors. internal/ packages are
// tools anyone may use; they import no package of the project.
func layer(pkg string) (int, bool) {
	top := 3 + len(scenarioFloors) // the floor above the scenario layer
	switch {
	case pkg == "internal" || strings.HasPrefix(pkg, "internal/"):
		return -1, true
	case pkg == "sim":
		return 0, true
	case pkg == "model" || strings.HasPrefix(pkg, "model/"):
		return 1, true
	case pkg == "faults":
		return 2, true
	case pkg == "scenario" || strings.HasPrefix(pkg, "scenario/"):
		i := slices.Index(scenarioFloors, pkg)
		return 3 + i, i >= 0
	case pkg == "explore", pkg == "views", pkg == "harness":
		return top, true
	case strings.HasPrefix(pkg, "views/"): // the TUI's parts: views' floor
		return top, true
	case pkg == ".", strings.HasPrefix(pkg, "harness/"): // harness/goredis: an adapter above the harness
		return top + 1, true
	}
	return 0, false
}

// forbidden are outside libraries a floor must not know: the simulation
// knows nothing of YAML or terminals, and the kernel nothing of Redis.
var forbidden = map[string][]string{
	"sim":      {"github.com/alicebob/miniredis", "gopkg.in/yaml", "github.com/charmbracelet"},
	"model":    {"gopkg.in/yaml", "github.com/charmbracelet"},
	"faults":   {"gopkg.in/yaml", "github.com/charmbracelet"},
	"scenario": {"github.com/charmbracelet"},
	"harness":  {"github.com/charmbracelet"},
}

// TestImportDirection keeps the architecture true: dependencies point one
// way, views/main → scenario (its sub-packages in scenarioFloors' order)
// → faults → model → sim, with explore beside views, read from every
// non-test Go file's imports.
func TestImportDirection(t *testing.T) {
	imports := projectImports(t)
	if len(imports) < 6 {
		t.Fatalf("read only %d packages: the walk is broken", len(imports))
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		from, ok := layer(p)
		if !ok {
			t.Errorf("package %s has no floor in the house: add it to layer() and docs/architecture.md", p)
			continue
		}
		for _, imp := range imports[p] {
			if rel, ours := strings.CutPrefix(imp, module+"/"); ours {
				to, ok := layer(rel)
				sameFloorModel := from == 1 && to == 1 // model's own packages order themselves
				// views uses its parts (views/...), which may use one another
				// but never views itself; explore and harness use none of them.
				viewsPart := strings.HasPrefix(rel, "views/") && (p == "views" || strings.HasPrefix(p, "views/"))
				if ok && to >= from && !sameFloorModel && !viewsPart {
					t.Errorf("%s (floor %d) imports %s (floor %d): dependencies point down only", p, from, rel, to)
				}
				continue
			}
			top, _, _ := strings.Cut(p, "/")
			for _, bad := range forbidden[top] {
				if strings.HasPrefix(imp, bad) {
					t.Errorf("%s imports %s: %s must not know it", p, imp, top)
				}
			}
		}
	}
}

// projectImports maps each package directory (relative, "." for the root)
// to the imports of its non-test files.
func projectImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, s := range f.Imports {
			out[dir] = append(out[dir], strings.Trim(s.Path.Value, `"`))
		}
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
