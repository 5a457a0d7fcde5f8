// Package scenariotest gives tests the bundled scenarios (scenarios.yaml
// at the module's root) from whichever package directory they run in, so
// that the scenario layer's packages do not each keep a copy of the loader
// and a relative path to the file.
package scenariotest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// Name is the bundled file's name at the module's root.
const Name = "scenarios.yaml"

// maxUp bounds the walk from the test's directory up to the module's root.
const maxUp = 8

// Path is the bundled file's path: the first directory from the working
// directory up (at most maxUp levels) that holds both go.mod and Name.
func Path(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for range maxUp {
		p := filepath.Join(dir, Name)
		if exists(filepath.Join(dir, "go.mod")) && exists(p) {
			return p
		}
		dir = filepath.Dir(dir)
	}
	tb.Fatalf("no %s beside a go.mod within %d directories above the test", Name, maxUp)
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// File is the bundled file, loaded afresh (a test may change what it gets).
func File(tb testing.TB) *scenario.File {
	tb.Helper()
	f, err := scenario.LoadFile(Path(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// Scenario is the bundled scenario name, loaded afresh.
func Scenario(tb testing.TB, name string) *scenario.Scenario {
	tb.Helper()
	s, err := File(tb).Find(name)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
