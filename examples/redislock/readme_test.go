package redislock_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeLock is the reader's own myLock that the README's example names
// (the README leaves it out): redislock's Obtain and Release.
const readmeLock = `package readme_test

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
)

type myLock struct {
	locks *redislock.Client
	key   string
	held  *redislock.Lock
}

func (l *myLock) Lock(ctx context.Context) error {
	held, err := l.locks.Obtain(ctx, l.key, 30*time.Second,
		&redislock.Options{RetryStrategy: redislock.LinearBackoff(100 * time.Millisecond)})
	l.held = held
	return err
}

func (l *myLock) Unlock(ctx context.Context) error {
	if l.held == nil {
		return errors.New("not held")
	}
	return l.held.Release(ctx)
}
`

// TestReadmeExample builds and runs the README's "Test your own lock
// client" example as a reader would paste it (with the myLock it names
// and the testing import it assumes) in a module of its own beside this
// one, so that an API change that breaks it fails here. It compiles a
// module, so -short skips it.
func TestReadmeExample(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a module: not with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippet := readmeSnippet(t, string(readme))
	dir := t.TempDir()
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	mod = bytes.Replace(mod, []byte("module github.com/lockstep-sim/lockstep/examples/redislock"), []byte("module readme"), 1)
	mod = bytes.Replace(mod, []byte("=> ../.."), []byte("=> "+root), 1)
	for name, data := range map[string][]byte{
		"go.mod": mod, "go.sum": sum, "mylock_test.go": []byte(readmeLock),
		"readme_test.go": []byte("package readme_test\n\n" + strings.Replace(snippet, "import (\n", "import (\n\t\"testing\"\n\n", 1)),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-run", "^TestLockSurvivesGCPause$", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's example does not pass: %v\n%s\n--- the example as built:\n%s", err, out, snippet)
	}
	if !bytes.Contains(out, []byte("ok")) {
		t.Fatalf("go test said:\n%s", out)
	}
}

// readmeSnippet is the first Go block of the README's "Test your own lock
// client" section; it must hold the test function the section promises.
func readmeSnippet(t *testing.T, readme string) string {
	t.Helper()
	_, sec, ok := strings.Cut(readme, "\n## Test your own lock client\n")
	if !ok {
		t.Fatal(`README.md has no "## Test your own lock client" section`)
	}
	_, code, ok := strings.Cut(sec, "```go\n")
	if !ok {
		t.Fatal("the README's harness section has no Go block")
	}
	code, _, ok = strings.Cut(code, "```")
	if !ok || !strings.Contains(code, "func TestLockSurvivesGCPause(t *testing.T)") {
		t.Fatalf("the README's Go block is not the example it should be:\n%s", code)
	}
	return code
}
