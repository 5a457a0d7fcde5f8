package main

import (
	"bufio"
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// longRunYAML is a world each of whose runs takes tens of seconds of CPU
// (a hundred thousand holds, ~3e6 events): a cancel checked only between
// runs would let the first run finish and count it.
const longRunYAML = `version: 1
scenarios:
  - name: long
    title: Each run takes a long while
    duration: 24h
    lock:
      key: k
      strategy: lua-release
      ttl: 1s
      retry: {attempts: 10000, delay: 1ms}
    clients:
` + `      - {name: A, holds: 10000, work: 1ms}
      - {name: B, holds: 10000, work: 1ms}
      - {name: C, holds: 10000, work: 1ms}
      - {name: D, holds: 10000, work: 1ms}
      - {name: E, holds: 10000, work: 1ms}
      - {name: F, holds: 10000, work: 1ms}
      - {name: G, holds: 10000, work: 1ms}
      - {name: H, holds: 10000, work: 1ms}
      - {name: I, holds: 10000, work: 1ms}
      - {name: J, holds: 10000, work: 1ms}
`

// TestExploreStopsOnSignal sends the real SIGINT (and SIGTERM) to the
// built binary in the middle of its first, long run: it exits 130 with the
// partial report printed, in which no run is counted (the one cut off is
// dropped), and writes nothing it should not. The only clock is a generous
// safety deadline against a hang; nothing is asserted about time.
func TestExploreStopsOnSignal(t *testing.T) {
	bin := lockstepBinary(t)
	file := writeFile(t, "long.yaml", longRunYAML)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, "explore", "-f", file, "-s", "long", "--runs", "1000", "--workers", "1",
				"--budget", "2000000000", "--out", out)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The "searching" line comes once the signal handler is in place.
			sc := bufio.NewScanner(stderr)
			var errText strings.Builder
			for sc.Scan() {
				errText.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "explore: searching") {
					break
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
				errText.WriteString(sc.Text() + "\n")
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var werr error
			select {
			case werr = <-done:
			case <-time.After(2 * time.Minute): // a safety net against a hang, not a measurement
				cmd.Process.Kill()
				t.Fatalf("explore did not stop after %v; stdout:\n%s", sig, stdout.String())
			}
			var exit *exec.ExitError
			if !errors.As(werr, &exit) || exit.ExitCode() != exitInterrupted {
				t.Fatalf("exit %v, want %d\nstdout:\n%s\nstderr:\n%s", werr, exitInterrupted, stdout.String(), errText.String())
			}
			rep := stdout.String()
			for _, want := range []string{"explore long:", "interrupted: the rates cover the runs that finished", "lua-release: no violation in 0 runs"} {
				if !strings.Contains(rep, want) {
					t.Errorf("partial report lacks %q:\n%s", want, rep)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(out, "*")); len(m) != 0 {
				t.Errorf("files written without a violation: %v", m)
			}
		})
	}
}
