package redlock

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// redlockArgs is one client's commands for its current token. A contended
// lock fails most attempts and every retry of a hold sends the same token,
// so the acquire, release and renew commands are built once per token
// instead of once per attempt (a quarter of an explore run's allocated
// bytes was these slices).
//
// A slice handed to a round is never written again: a request still in
// flight when the client moves on (a late reply, a timed-out node) reads it
// when it is delivered. A new token gets new slices.
type redlockArgs struct {
	token                   string
	acquire, release, renew []string
}

// argsFor returns c's command cache, emptied if it was for another token.
func (r *Redlock) argsFor(c *model.Client, token string) *redlockArgs {
	a := r.args[c]
	if a == nil {
		a = &redlockArgs{}
		mapSet(&r.args, c, a)
	}
	if a.token != token {
		*a = redlockArgs{token: token}
	}
	return a
}

// ttlArg is the lock's TTL in milliseconds, as the commands send it.
func (r *Redlock) ttlArg() string {
	if r.ttl == "" {
		r.ttl = msArg(r.cfg.TTL)
	}
	return r.ttl
}

// acquireArgs is step 2's command: SET NX PX, or with fencing: token the
// script that also increments the fence counter (store.ScriptFencedAcquire).
func (r *Redlock) acquireArgs(c *model.Client, token string) []string {
	a := r.argsFor(c, token)
	if a.acquire == nil {
		key, ttl := r.cfg.Key, r.ttlArg()
		if r.cfg.Fencing == "token" {
			a.acquire = []string{"EVAL", store.ScriptFencedAcquire, "2", key, key + ":fence", token, ttl}
		} else {
			a.acquire = []string{"SET", key, token, "NX", "PX", ttl}
		}
	}
	return a.acquire
}

// releaseArgs is the compare-and-delete script for token.
func (r *Redlock) releaseArgs(c *model.Client, token string) []string {
	a := r.argsFor(c, token)
	if a.release == nil {
		a.release = []string{"EVAL", store.ScriptRelease, "1", r.cfg.Key, token}
	}
	return a.release
}

// renewArgs is the renewal's script (renewScript) for token.
func (r *Redlock) renewArgs(c *model.Client, token string) []string {
	a := r.argsFor(c, token)
	if a.renew == nil {
		a.renew = []string{"EVAL", r.renewScript(), "1", r.cfg.Key, token, r.ttlArg()}
	}
	return a.renew
}

// msArg is d in whole milliseconds, as a command argument.
func msArg(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// mapSet sets (*m)[k] = v, making the map on first use (a world that
// never runs an attempt makes none).
func mapSet[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}
