//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyGuard bounds the whole test should the binary hang; it is a safety
// net, never the assertion: every wait below ends on what the program
// draws or on its exit.
const ptyGuard = 60 * time.Second

// screen is what the program wrote to the terminal, read as it comes. It
// answers the two queries a real terminal answers (termenv asks for the
// background colour and the cursor position before the TUI starts), so
// the program starts as it does in a terminal, without waiting out its
// query timeout.
type screen struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed and replaced on every write
	answer  io.Writer
	asked   [2]int // queries of each kind answered so far
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	out := s.buf.String()
	for i, q := range []struct{ ask, reply string }{
		{"\x1b]11;?", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"\x1b[6n", "\x1b[36;1R"},
	} {
		for n := strings.Count(out, q.ask); s.asked[i] < n; s.asked[i]++ {
			s.answer.Write([]byte(q.reply)) //nolint:errcheck // a lost answer shows as a slow start
		}
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return len(p), nil
}

// waitFor blocks until the output since from holds want, and returns where
// it ends; it fails when ctx ends first.
func (s *screen) waitFor(ctx context.Context, t *testing.T, from int, want string) int {
	t.Helper()
	for {
		s.mu.Lock()
		out, ch := s.buf.String(), s.changed
		s.mu.Unlock()
		if i := strings.Index(out[from:], want); i >= 0 {
			return from + i + len(want)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("the TUI never drew %q; it wrote:\n%q", want, out[from:])
		}
	}
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// The real binary on a pseudo-terminal: open a scenario, step three times,
// quit with q. It exits 0, prints no panic, leaves the alternate screen and
// gives the terminal back exactly as it found it.
func TestTUIQuitsCleanlyOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it on a pseudo-terminal")
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 36, Cols: 120}); err != nil {
		t.Skipf("cannot size the pseudo-terminal: %v", err)
	}
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Skipf("cannot read the terminal settings: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), ptyGuard)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "lockstep")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	cmd := exec.CommandContext(ctx, bin, "tui", "-s", "gc-pause-lua-release")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	scr := &screen{changed: make(chan struct{}), answer: ptmx}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(scr, ptmx) //nolint:errcheck // ends with EIO when the pty closes
		close(copied)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	at := scr.waitFor(ctx, t, 0, "step 0/")
	for _, want := range []string{"step 1/", "step 2/", "step 3/"} {
		if _, err := ptmx.Write([]byte("n")); err != nil {
			t.Fatal(err)
		}
		at = scr.waitFor(ctx, t, at, want)
	}
	if _, err := ptmx.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-exited:
	case <-ctx.Done():
		t.Fatalf("q did not end the TUI; it wrote:\n%q", scr.String()[at:])
	}
	if err != nil { // exit status ≠ 0, or killed
		t.Fatalf("lockstep tui exited with %v; it wrote:\n%q", err, scr.String())
	}

	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Errorf("terminal settings not restored:\nbefore %+v\nafter  %+v", *before, *after)
	}
	tty.Close() // the last writer: the copy ends
	<-copied
	out := scr.String()
	for _, bad := range []string{"panic", "goroutine "} {
		if strings.Contains(out, bad) {
			t.Errorf("the output holds %q:\n%q", bad, out)
		}
	}
	if i, j := strings.LastIndex(out, "\x1b[?1049h"), strings.LastIndex(out, "\x1b[?1049l"); i < 0 || j < i {
		t.Errorf("the alternate screen was not left (enter at %d, leave at %d)", i, j)
	}
}
