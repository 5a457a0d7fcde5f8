package redlock

import (
	"slices"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// TestRedlockArgsPerToken: a client's retries of one token share one
// command slice each (no allocation per attempt), and a new token gets new
// slices while the old ones, which a late request may still read, keep
// their contents.
func TestRedlockArgsPerToken(t *testing.T) {
	for _, fencing := range []string{"", "token"} {
		r := newRedlock(model.LockConfig{Key: "lock", TTL: 10 * time.Second, Fencing: fencing})
		c1, c2 := &model.Client{Name: "c1"}, &model.Client{Name: "c2"}
		a1 := r.acquireArgs(c1, "t1")
		if again := r.acquireArgs(c1, "t1"); &again[0] != &a1[0] {
			t.Errorf("fencing %q: a retry of the same token built its acquire command again", fencing)
		}
		rel1 := r.releaseArgs(c1, "t1")
		if again := r.releaseArgs(c1, "t1"); &again[0] != &rel1[0] {
			t.Errorf("fencing %q: the release command was built again for the same token", fencing)
		}
		keep := slices.Clone(a1)
		other := r.acquireArgs(c2, "t9")
		if !slices.Contains(other, "t9") || slices.Contains(other, "t1") {
			t.Errorf("fencing %q: c2's command %q is not its own", fencing, other)
		}
		a2 := r.acquireArgs(c1, "t2")
		if &a2[0] == &a1[0] || !slices.Contains(a2, "t2") {
			t.Errorf("fencing %q: a new token reused the old command: %q", fencing, a2)
		}
		if !slices.Equal(a1, keep) {
			t.Errorf("fencing %q: the old token's command changed to %q (was %q)", fencing, a1, keep)
		}
		if !slices.Contains(a1, "10000") || !slices.Contains(r.renewArgs(c1, "t2"), "10000") {
			t.Errorf("fencing %q: the TTL argument is not 10000 ms: %q", fencing, a1)
		}
	}
}
