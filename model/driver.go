package model

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/sim"
)

// The Redis driver under the recipe: a command whose reply did not come in
// time is sent again, as go-redis and Redisson do. go-redis (redis.go,
// baseClient._process) retries up to MaxRetries (default 3, options.go) when
// shouldRetry (error.go) says so, and a read timeout of a command without a
// read timeout of its own is retried (retryTimeout = 1). Redisson retries
// retryAttempts times (4, config/BaseConfig.java) but sends its lock and
// unlock scripts with evalWriteSyncedNoRetryAsync (RedissonLock.java).
//
// The resend is not idempotent for every recipe: a SET NX of our own token
// on a key the first send already took answers nil, so the recipe believes
// it failed while the key is its own (bsm/redislock's obtain.lua accepts its
// own token and is immune; TestDriverResendOfSetNX shows both).

// resends is how many times the driver sends a command of kind op again.
func (c *Client) resends(op Op) int {
	k := &c.w.Cfg.Lock.Knobs
	if k.DriverSkipsLock && (op == OpAcquire || op == OpRelease) {
		return 0
	}
	return k.DriverRetries
}

// Resends is how many commands the client's driver has sent again so far.
func (c *Client) Resends() int { return c.resent }

// traceResend writes the trace line of one resend: the duplicate that
// reaches Redis is the next "cmd" line.
func (c *Client) traceResend(n *Node, args []string, retry int) {
	c.resent++
	b := append(c.w.line(), "driver: no reply in time; sends "...)
	b = appendCommand(b, args)
	b = append(append(b, " to "...), n.Name()...)
	b = strconv.AppendInt(append(b, " again (retry "...), int64(retry), 10)
	b = strconv.AppendInt(append(b, " of "...), int64(c.w.Cfg.Lock.Knobs.DriverRetries), 10)
	c.w.sayLine(c.Name, "resend", "resend", append(b, ')'), sim.S("command", string(appendCommand(nil, args))), sim.S("node", n.Name()),
		sim.I("retry", int64(retry)), sim.I("of", int64(c.w.Cfg.Lock.Knobs.DriverRetries)))
}
