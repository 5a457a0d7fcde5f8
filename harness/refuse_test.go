package harness_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// The refusals end the test with t.Fatalf; each runs in a child test
// process (selected by LOCKSTEP_HARNESS_CHILD) whose output is checked.
func child(t *testing.T, name string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
	cmd.Env = append(os.Environ(), "LOCKSTEP_HARNESS_CHILD="+name)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("child %s passed; it should have failed:\n%s", name, out)
	}
	return string(out)
}

func TestChild(t *testing.T) {
	switch os.Getenv("LOCKSTEP_HARNESS_CHILD") {
	case "":
		t.Skip("only run as a child of the refusal tests")
	case "parallel":
		t.Parallel()
		harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete"}, newSetDel(true))
	case "bubble":
		synctest.Test(t, func(t *testing.T) {
			harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete"}, newSetDel(true))
		})
	case "client-clock":
		harness.Run(t, harness.Config{File: testFile, Scenario: "client-clock"}, newSetDel(true))
	case "expect":
		harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete", Expect: "safe: true\nacquired: 3"}, newSetDel(true))
	case "leak":
		harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
			return lockFunc{redis.NewClient(goredis.Options(c, c.Nodes()[0])), func(context.Context) error { blockForever(); return nil }}
		})
	case "leak-background":
		// Not a Lock that hangs: a goroutine of the Locker's own that
		// ignores the end of the run.
		harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
			go backgroundForever()
			return newSetDel(false)(c)
		})
	case "outside":
		// A Locker that never talks through the harness (its client made
		// elsewhere): every Lock "succeeds" unseen.
		harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
			return lockFunc{redis.NewClient(goredis.Options(c, c.Nodes()[0])), func(context.Context) error { return nil }}
		})
	case "stale":
		var kept *harness.Client
		harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
			kept = c
			return newSetDel(false)(c)
		})
		harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
			return newSetDel(false)(kept) // the first run's client, kept outside
		})
	case "bad-expect":
		harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete", Expect: "safe: true\nviolatoins: 0"}, newSetDel(true))
	}
}

// blockForever and backgroundForever never return: the leak children's
// stacks must name them.
func blockForever() { select {} }

func backgroundForever() { select {} }

func TestRefusals(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"parallel", "Run cannot be used in a parallel test"},
		{"bubble", "Run cannot be called inside a synctest bubble"},
		{"client-clock", "harness.yaml:41:9: scenario client-clock: fault 1 (clock_jump on client A): the harness cannot apply clock faults to a Go client"},
		{"expect", "gc-pause-wrong-delete: safe is false, expected true"},
		{"bad-expect", "harness.Config.Expect:2:1: unknown"},
		{"outside", "A's Locker took the lock 1 time(s) without sending a command through Client.Dial"},
		{"stale", "this client's run is over"},
		{"leak", "goroutines still running 1m0s after the run ended (1 of the clients'"},
		// The harness's message carries the stack of the goroutine left
		// over (synctest's own deadlock panic, which follows, has them too:
		// so the stack must come right after the message, indented as
		// t.Errorf's continuation lines).
		{"leak", "client not closed?):\n        goroutine "},
		{"leak", "\n        github.com/lockstep-sim/lockstep/harness_test.blockForever("},
		{"leak-background", "goroutines still running 1m0s after the run ended (0 of the clients'"},
		{"leak-background", "\n        github.com/lockstep-sim/lockstep/harness_test.backgroundForever("},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := child(t, c.name)
			if !strings.Contains(out, c.want) {
				t.Errorf("the output does not say %q:\n%s", c.want, out)
			}
			if c.name == "expect" && strings.Contains(out, "acquired is") {
				t.Errorf("a met expectation was reported:\n%s", out)
			}
		})
	}
}
