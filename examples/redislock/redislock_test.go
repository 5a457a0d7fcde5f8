// Package redislock_test runs the real github.com/bsm/redislock against
// lockstep's bundled scenarios, with what a reader of redislock's source
// predicts for each.
package redislock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// lock is redislock on the first master: Obtain with a TTL and a linear
// retry, Release (its Lua script checks the token).
type lock struct {
	rc    *redis.Client
	locks *redislock.Client
	key   string
	ttl   time.Duration
	held  *redislock.Lock
	until time.Time
}

func factory(ttl time.Duration) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		rc := redis.NewClient(goredis.Options(c, c.Nodes()[0]))
		return &lock{rc: rc, locks: redislock.New(rc), key: c.Key(), ttl: ttl}
	}
}

func (l *lock) Lock(ctx context.Context) error {
	start := time.Now()
	held, err := l.locks.Obtain(ctx, l.key, l.ttl, &redislock.Options{
		RetryStrategy: redislock.LimitRetry(redislock.LinearBackoff(time.Second), 200),
	})
	if err != nil {
		return err
	}
	l.held, l.until = held, start.Add(l.ttl)
	return nil
}

func (l *lock) Unlock(ctx context.Context) error {
	if l.held == nil {
		return errors.New("not held")
	}
	err := l.held.Release(ctx)
	l.held = nil
	return err
}

// Until is when the TTL set at the start of Obtain runs out, by the
// client's clock.
func (l *lock) Until() time.Time { return l.until }

func (l *lock) Close() error { return l.rc.Close() }

// A GC pause longer than the TTL: A's key expires, B takes the lock while
// A is frozen; A's Release then finds B's token and deletes nothing
// (redislock's release script compares it), so no wrong release, but the
// two overlap and an update is lost.
func TestGCPause(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release",
		Expect: "safe: false\nviolations: \">= 1\"\nwrong_releases: 0\nlost_updates: \">= 1\""},
		factory(30*time.Second))
}

// The node's clock steps 25s forward and A's key expires 25s early: B
// takes it while A works. redislock trusts the node's expiry.
func TestClockJump(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "node-clock-jump-forward",
		Expect: "safe: false\nviolations: \">= 1\"\nwrong_releases: 0"},
		factory(30*time.Second))
}

// The failover scenario: as for redsync, the dial and HELLO before the
// first SET make A's SET arrive after the 5ms crash, so the lock is taken
// only on the promoted replica. Safe.
func TestFailover(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "failover-before-replication", Quorum: 1,
		Expect: "safe: true\nacquired: 2\nwrong_releases: 0"},
		factory(30*time.Second))
}

// The fencing scenario: redislock's token is random, not a number that
// grows, so the resource cannot refuse client1's stale write after its
// pause: the update client2 made is lost.
func TestFencing(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "fencing-token-kleppmann", Quorum: 1,
		Expect: "safe: false\nlost_updates: \">= 1\"\nfencing_rejections: 0"},
		factory(10*time.Second))
}
