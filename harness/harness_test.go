package harness_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
)

// setDel is the naive lock of the seeds' §2 over go-redis: SET NX PX with
// a random value, retried every second, released by a blind DEL.
type setDel struct {
	rc    *redis.Client
	key   string
	val   string
	ttl   time.Duration
	blind bool // DEL without checking the value
	n     int
}

func newSetDel(blind bool) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		return &setDel{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key(), ttl: 30 * time.Second, blind: blind, val: c.Name()}
	}
}

var errNotTaken = errors.New("not taken")

func (l *setDel) Lock(ctx context.Context) error {
	l.n++
	v := fmt.Sprintf("%s:%d", l.val, l.n)
	for range 40 {
		ok, err := l.rc.SetNX(ctx, l.key, v, l.ttl).Result()
		if err == nil && ok {
			l.val = v
			return nil
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errNotTaken
}

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func (l *setDel) Unlock(ctx context.Context) error {
	if l.blind {
		return l.rc.Del(ctx, l.key).Err()
	}
	return release.Run(ctx, l.rc, []string{l.key}, l.val).Err()
}

func (l *setDel) Close() error { return l.rc.Close() }

func TestGCPauseBlindDelete(t *testing.T) {
	rep := harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete",
		Expect: "safe: false\nwrong_releases: \">= 1\"\nacquired: 3"}, newSetDel(true))
	t.Logf("%+v", rep.Metrics)
	t.Logf("hash %s events %d", rep.TraceHash, rep.Events)
}

func TestDumpTrace(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	rep := harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete"}, newSetDel(true))
	t.Logf("%s", rep.TraceJSONL())
}
