package harness_test

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	mrand "math/rand"
	randv2 "math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// randomLock draws like the real libraries: its value from crypto/rand
// (redsync, redislock), its retry delay from math/rand's top-level
// functions (redsync's default delay), or, when unseedable, from
// math/rand/v2's top-level functions, which nothing can seed.
type randomLock struct {
	rc         *redis.Client
	key, value string
	unseedable bool
}

func newRandomLock(unseedable bool) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		return &randomLock{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key(), unseedable: unseedable}
	}
}

func (l *randomLock) Lock(ctx context.Context) error {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		return err
	}
	l.value = hex.EncodeToString(b)
	for {
		ok, err := l.rc.SetNX(ctx, l.key, l.value, 10*time.Second).Result()
		if err == nil && ok {
			return nil
		}
		d := time.Duration(mrand.Int63n(int64(50 * time.Millisecond)))
		if l.unseedable {
			d = time.Duration(randv2.Int64N(int64(50 * time.Millisecond)))
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *randomLock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rc, []string{l.key}, l.value).Err()
}

func (l *randomLock) Close() error { return l.rc.Close() }

// runs is how many runs a determinism check makes: 5, or
// LOCKSTEP_HARNESS_RUNS (100 for the full check; at most 10000).
func runs(t *testing.T) int {
	n := 5
	if s := os.Getenv("LOCKSTEP_HARNESS_RUNS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > 10000 {
			t.Fatalf("LOCKSTEP_HARNESS_RUNS=%q: want a number from 1 to 10000", s)
		}
		n = v
	}
	return n
}

// The same test and seed give the same trace, at GOMAXPROCS 1 and 2, run
// after run, although the lock draws its values from crypto/rand and its
// delays from math/rand and three clients contend every 150ms.
func TestSameSeedSameTrace(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	hashes := map[string]int{}
	var first harness.Report
	n := runs(t)
	for i := range n {
		runtime.GOMAXPROCS(1 + i%2)
		rep := harness.Run(t, harness.Config{File: testFile, Scenario: "busy", Seed: 7,
			Expect: "safe: true\nacquired: 30"}, newRandomLock(false))
		hashes[rep.TraceHash]++
		if i == 0 {
			first = rep
		}
	}
	if len(hashes) != 1 {
		t.Fatalf("%d runs at GOMAXPROCS 1 and 2 gave %d traces: %v", n, len(hashes), hashes)
	}
	other := harness.Run(t, harness.Config{File: testFile, Scenario: "busy", Seed: 8}, newRandomLock(false))
	if other.TraceHash == first.TraceHash {
		t.Errorf("seeds 7 and 8 gave the same trace %s: the seed does not reach the libraries' randomness", first.TraceHash)
	}
}

// A lock whose delays come from math/rand/v2's top-level functions cannot
// be made deterministic: Run must say so instead of giving a verdict.
func TestNondeterministicLockIsCaught(t *testing.T) {
	_, div := harness.RunChecked(t, harness.Config{File: testFile, Scenario: "busy"}, newRandomLock(true))
	if !strings.Contains(div, "NONDETERMINISTIC") {
		t.Fatalf("two runs of an unseedable lock were not told apart (%q)", div)
	}
	t.Log(div)
}
