package harness_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// myLock is a user's own lock on one Redis: SET NX PX with a random
// token, retried every 100ms, released by a check-and-delete script.
type myLock struct {
	rc    *redis.Client
	key   string
	token string
}

func (l *myLock) Lock(ctx context.Context) error {
	b := make([]byte, 16)
	rand.Read(b) // seeded by the harness: the same tokens every run
	l.token = hex.EncodeToString(b)
	for {
		if ok, err := l.rc.SetNX(ctx, l.key, l.token, 30*time.Second).Result(); err == nil && ok {
			return nil
		}
		select {
		case <-time.After(100 * time.Millisecond): // virtual time
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *myLock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rc, []string{l.key}, l.token).Err()
}

func (l *myLock) Close() error { return l.rc.Close() }

// A test of one's own lock in the bundled GC-pause scenario: its checked
// release never deletes another client's key, but nothing can stop a
// paused holder's overlap.
func ExampleRun() {
	test := func(t *testing.T) {
		rep := harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release", Expect: "wrong_releases: 0"},
			func(c *harness.Client) harness.Locker {
				return &myLock{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key()}
			})
		t.Logf("violations: %d, first: %s", rep.Violations, rep.FirstViolation)
	}
	_ = test // in a _test.go file: func TestMyLock(t *testing.T) { ... }
}

// The example's lock, run for real.
func TestExampleLock(t *testing.T) {
	rep := harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release", Expect: "wrong_releases: 0\nsafe: false"},
		func(c *harness.Client) harness.Locker {
			return &myLock{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key()}
		})
	if rep.Violations == 0 {
		t.Errorf("the 35s pause of a 30s lock gave no violation")
	}
}
