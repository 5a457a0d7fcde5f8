package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildDir  string
)

// TestMain removes the binary the tests built. The tests expect English
// whatever the locale of the machine they run on (a zh_CN one would turn
// every help text Chinese); the language tests set LOCKSTEP_LANG themselves.
func TestMain(m *testing.M) {
	os.Setenv(i18n.EnvVar, "en")
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// lockstepBinary builds the command once per test binary and returns the
// path of a program named lockstep, for tests that need a real process (a
// signal, a printed command line run by a shell).
func lockstepBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "lockstep-bin-")
		if buildErr != nil {
			return
		}
		builtBin = filepath.Join(buildDir, "lockstep")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return builtBin
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
