package main

import (
	"strings"
	"testing"
)

// The CLI names client profiles: list shows the profile after the
// strategy, compare and explore take profile names in --strategies, and
// an unknown profile in a file is one FILE:LINE:COL line, exit 2.
func TestCLIProfiles(t *testing.T) {
	if _, out, _ := runCLI(t, "list"); !strings.Contains(out, "redlock (redsync)") {
		t.Errorf("list does not name the redsync profile:\n%s", out)
	}
	code, out, _ := runCLI(t, "compare", "-s", "failover-single-vs-redlock", "--strategies", "redsync,redisson,lua-release", "--json")
	if code != 0 || !strings.Contains(out, `"client": "redsync"`) || !strings.Contains(out, `"client": "redisson"`) {
		t.Errorf("compare with profiles: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "explore", "-s", "failover-single-vs-redlock", "--strategies", "node-redlock", "--runs", "5")
	if code != 0 || !strings.Contains(out, "node-redlock") {
		t.Errorf("explore with a profile: exit %d\n%s", code, out)
	}
	code, _, stderr := runCLI(t, "run", "-f", "testdata/bad/unknown-client-profile.yaml")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "unknown-client-profile.yaml:7:15: unknown lock.client") {
		t.Errorf("unknown profile: exit %d, stderr %q", code, stderr)
	}
}
