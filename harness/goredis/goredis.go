// Package goredis makes go-redis (github.com/redis/go-redis/v9) clients
// that talk to a harness world: one line per node for a redsync or
// redislock user.
//
//	rc := redis.NewClient(goredis.Options(c, c.Nodes()[0]))
//
// Other drivers take c.DialContext as their dialer: redigo's
// redis.DialNetDial(func(_, _ string) (net.Conn, error) { return c.Dial(node) })
// (and no handshake beyond RESP2), rueidis's ClientOption.DialCtxFn
// (with AlwaysRESP2 and DisableCache, since the simulated node speaks
// RESP2 only and pushes nothing).
package goredis

import (
	"context"
	"net"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/lockstep-sim/lockstep/harness"
)

// Options are go-redis options for a client of node that work inside the
// harness's bubble:
//
//   - Dialer is c.DialContext: the simulated network, bounded by go-redis's
//     DialTimeout on the bubble's clock;
//   - Protocol 2 and DisableIdentity: no HELLO 3 and no CLIENT SETINFO
//     (RESP2 only; CLIENT is not simulated);
//   - maintenance notifications off: otherwise NewClient resolves the
//     address with net's resolver, whose goroutine outlives the bubble;
//   - ContextTimeoutEnabled: a context deadline (redsync's per-node
//     timeout) reaches the socket; without it each read waits ReadTimeout;
//   - MinRetryBackoff -1: go-redis still retries a command that met a
//     network error, at once. Its backoff is drawn from math/rand's global
//     source on the goroutine that retries, and when several retry at one
//     instant (redsync's per-node goroutines after a partition) the order
//     of their draws is the Go scheduler's: the run would not repeat.
//
// Change what else you like on the result (pool size, timeouts).
func Options(c *harness.Client, node string) *redis.Options {
	return &redis.Options{
		Addr:                     node,
		Dialer:                   func(ctx context.Context, _, _ string) (net.Conn, error) { return c.DialContext(ctx, node) },
		Protocol:                 2,
		DisableIdentity:          true,
		ContextTimeoutEnabled:    true,
		MinRetryBackoff:          -1,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}
