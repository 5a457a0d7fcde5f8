// Package ownlock_test runs "our own wrapper", the lock most teams
// actually have, against lockstep's bundled scenarios: a hand-written
// Locker over plain go-redis, SET NX PX with a random token and a Lua
// check-and-delete release, with what a reader of its twenty lines
// predicts for each. fencedLock adds a fencing token from an INCR
// counter, which the scenario's resource checks.
package ownlock_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// ownLock is the wrapper: one Redis, SET key token NX PX ttl, retried
// every retry until ctx ends, released by a script that deletes the key
// only if it still holds our token.
type ownLock struct {
	rc    *redis.Client
	key   string
	ttl   time.Duration
	retry time.Duration
	token string
	until time.Time
}

var errNotHeld = errors.New("ownlock: not held")

var releaseScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func newOwnLock(ttl time.Duration) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		return &ownLock{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key(), ttl: ttl, retry: time.Second}
	}
}

func (l *ownLock) Lock(ctx context.Context) error {
	b := make([]byte, 16)
	rand.Read(b) // crypto/rand, seeded by the harness: the same tokens every run
	token := hex.EncodeToString(b)
	for {
		start := time.Now()
		ok, err := l.rc.SetNX(ctx, l.key, token, l.ttl).Result()
		if err == nil && ok {
			l.token, l.until = token, start.Add(l.ttl)
			return nil
		}
		select {
		case <-time.After(l.retry): // virtual time
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *ownLock) Unlock(ctx context.Context) error {
	if l.token == "" {
		return errNotHeld
	}
	n, err := releaseScript.Run(ctx, l.rc, []string{l.key}, l.token).Int()
	l.token = ""
	if err == nil && n == 0 {
		return errNotHeld // the key had expired, or was another's
	}
	return err
}

// Until is when the wrapper believes its lock ends (the TUI shows it).
func (l *ownLock) Until() time.Time { return l.until }

func (l *ownLock) Close() error { return l.rc.Close() }

// fencedLock is ownLock with a fencing token: INCR of a counter beside
// the key after each grant, handed to the resource through Token.
type fencedLock struct {
	*ownLock
	fence int64
}

func (l *fencedLock) Lock(ctx context.Context) error {
	if err := l.ownLock.Lock(ctx); err != nil {
		return err
	}
	n, err := l.rc.Incr(ctx, l.key+":fence").Result()
	l.fence = n
	return err
}

// Token is the fencing token of the lock just taken.
func (l *fencedLock) Token() int64 { return l.fence }

// Kleppmann's GC pause: A freezes 35s holding a 30s lock. The TTL lets B
// in while A sleeps, so both are in the critical section; the checked
// release keeps A from deleting B's key when it wakes.
func TestGCPause(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release",
		Expect: "safe: false\nviolations: \">= 1\"\nwrong_releases: 0"}, newOwnLock(30*time.Second))
}

// The fencing scenario without a token: the wrapper has none, so
// client1's write after its pause is accepted and client2's update lost.
func TestFencingWithoutToken(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "fencing-token-kleppmann",
		Expect: "safe: false\nlost_updates: \">= 1\"\nfencing_rejections: 0"}, newOwnLock(10*time.Second))
}

// The same with fencedLock: the resource refuses client1's stale token,
// so the overlap remains but no update is lost.
func TestFencingWithToken(t *testing.T) {
	own := newOwnLock(10 * time.Second)
	harness.Run(t, harness.Config{Scenario: "fencing-token-kleppmann",
		Expect: "safe: false\nlost_updates: 0\nfencing_rejections: \">= 1\""},
		func(c *harness.Client) harness.Locker { return &fencedLock{ownLock: own(c).(*ownLock)} })
}

// A failover before the lock reached the replica: the built-in recipe's
// SET reaches redis-1 before its 5ms crash and two clients hold the lock.
// The wrapper's go-redis client first dials and sends HELLO (two round
// trips), so A's SET arrives after the crash and gets no reply; B dials
// the shard after the failover, reaches the promoted replica and takes
// the lock; A's retries get it when B is done. Safe, by a whisker (as for
// redsync: examples/redsync's TestFailover).
func TestFailover(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "failover-before-replication",
		Expect: "safe: true\nacquired: 2\nwrong_releases: 0"}, newOwnLock(30*time.Second))
}
