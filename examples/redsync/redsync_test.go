// Package redsync_test runs the real github.com/go-redsync/redsync/v4
// against lockstep's bundled scenarios, with what a reader of redsync's
// source predicts for each.
package redsync_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	lsgoredis "github.com/lockstep-sim/lockstep/harness/goredis"
)

// mutex is a redsync Mutex over one go-redis pool per master, as a
// Redlock deployment builds it.
type mutex struct {
	m       *redsync.Mutex
	clients []*redis.Client
}

func factory(opts ...redsync.Option) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		var pools []rsredis.Pool
		m := &mutex{}
		for _, node := range c.Nodes() {
			rc := redis.NewClient(lsgoredis.Options(c, node))
			m.clients = append(m.clients, rc)
			pools = append(pools, goredis.NewPool(rc))
		}
		m.m = redsync.New(pools...).NewMutex(c.Key(), opts...)
		return m
	}
}

func (m *mutex) Lock(ctx context.Context) error { return m.m.LockContext(ctx) }

func (m *mutex) Unlock(ctx context.Context) error {
	_, err := m.m.UnlockContext(ctx)
	return err
}

// Until is redsync's own belief: when the lock's validity ends.
func (m *mutex) Until() time.Time { return m.m.Until() }

func (m *mutex) Close() error {
	for _, rc := range m.clients {
		rc.Close()
	}
	return nil
}

// Kleppmann's GC pause: client1 freezes for 15s inside its critical
// section. redsync's lock has a TTL and no fencing, so nothing stops
// client2 from taking it once the keys expire, nor client1's stale
// write when it wakes. (The scenario's 10s TTL is passed as the expiry;
// redsync's default 32 tries at 50-250ms would give up before the keys
// expire, so client2 gets more.) Its release script checks the value:
// no wrong release.
func TestGCPause(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "redlock-k1-gc-pause",
		Expect: "safe: false\nviolations: \">= 1\"\nlost_updates: \">= 1\"\nwrong_releases: 0"},
		factory(redsync.WithExpiry(10*time.Second), redsync.WithTries(200)))
}

// Kleppmann's clock jump: redis-3's wall clock jumps 40s and its key
// expires; client2 then gets a majority (3, 4, 5) while client1 still
// holds one (1, 2, 3). redsync trusts each node's expiry as Redlock does.
func TestClockJump(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "redlock-k3-clock-jump",
		Expect: "safe: false\nviolations: \">= 1\"\nwrong_releases: 0"},
		factory(redsync.WithExpiry(30*time.Second), redsync.WithTries(200)))
}

// A failover before the lock reached the replica: lockstep's own recipe
// (SET on an open connection) gets the lock onto redis-1 at 1ms, before
// its 5ms crash, and two clients hold it. A real go-redis client first
// dials and sends HELLO (two round trips on this 1ms network), so A's SET
// reaches redis-1 at 5.26ms, after the crash, and gets no reply. B dials
// the shard after the 12ms failover, reaches the promoted replica and
// takes the lock; A's retries get it when B is done. Safe, by a whisker.
// One node, so a quorum of one.
func TestFailover(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "failover-before-replication", Quorum: 1,
		Expect: "safe: true\nacquired: 2\nwrong_releases: 0"},
		factory(redsync.WithExpiry(30*time.Second), redsync.WithTries(200)))
}

// The fencing scenario: the resource refuses writes with a stale token,
// but redsync hands out no token (its value is random), so client1's
// write after its pause is accepted and client2's update is lost.
func TestFencing(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "fencing-token-kleppmann", Quorum: 1,
		Expect: "safe: false\nlost_updates: \">= 1\"\nfencing_rejections: 0"},
		factory(redsync.WithExpiry(10*time.Second), redsync.WithTries(200)))
}
