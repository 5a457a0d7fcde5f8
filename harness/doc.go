// Package harness runs a real, unmodified Go lock client (redsync,
// bsm/redislock, your own wrapper) inside a lockstep scenario, on virtual
// time, deterministically, from go test, and judges it with lockstep's own
// checker.
//
//	func TestMyLockSurvivesGCPause(t *testing.T) {
//		harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release", Expect: "wrong_releases: 0"},
//			func(c *harness.Client) harness.Locker {
//				rc := redis.NewClient(goredis.Options(c, c.Nodes()[0]))
//				return &myLock{client: redislock.New(rc), key: c.Key()}
//			})
//	}
//
// The scenario gives the world (nodes, replicas, network, sentinels), the
// clients (names, starts, holds, work) and the faults; its lock design
// (strategy, ttl, retry, watchdog, reentrant, fair, nested) and its
// expect: block describe lockstep's built-in recipe and are ignored: the
// Locker replaces the one, Config.Expect the other. For each hold the
// harness calls Lock once, reads the resource, sleeps work on the virtual
// clock, writes, and calls Unlock; the judge sees every command each
// connection sent, so a release that deleted another client's key is a
// wrong release.
//
// # How it works
//
// Run makes a testing/synctest bubble. The user's goroutines run on the
// bubble's clock; lockstep's kernel decides the order of everything else.
// The harness acts only when every goroutine is durably blocked
// (synctest.Wait): it runs one kernel event (which wakes at most one
// client goroutine, with a reply or a Lock to make), or it collects the
// bytes the connections wrote, in a fixed order, and sends each command
// through lockstep's network to lockstep's node, or it lets the bubble's
// clock run to the next event. Run runs the world twice and fails if the
// two traces differ.
//
// # Determinism
//
// Run seeds crypto/rand (testing/cryptotest; the libraries' lock values)
// and math/rand's top-level functions (GODEBUG=randseednop=0 set with
// t.Setenv, then probed; redsync's retry delays), and starts each client
// at a seeded offset below MaxStagger, since goroutines woken at one
// instant draw from those sources in the scheduler's order. Library error
// texts (whose order errors.Join varies) stay out of the trace: they are
// in the test log. math/rand/v2's top-level functions cannot be seeded: a
// client that draws from them (rand.N, rand.IntN) is not reproducible,
// and Run says so (checked: go-redsync/redsync v4.18.1 uses math/rand,
// bsm/redislock v0.9.4 and go-redis v9.23.0 neither). goredis.Options
// turns off go-redis's random retry backoff for the same reason. A
// connection's read deadline is kept by the harness, not by a timer: at
// the instant it passes, the goroutines the clients' own timers woke (a
// context deadline go-redis copied onto the socket) settle first, then the
// read times out. Two timers of the client's own that fire at one instant
// wake two goroutines at once: when their order matters, Run reports it.
//
// # Limits
//
//   - A GC pause (fault pause) freezes the client's connections (nothing
//     is sent, nothing is read) and the harness's own code for that client
//     (its hold loop), but not the library's timers: a Lock sleeping
//     between retries keeps counting, and a context deadline passes during
//     the pause. Lock may thus return in the middle of a pause; the hold
//     loop acts on it when the pause ends.
//   - Clock faults on a client (clock_jump, clock_drift) are refused: a Go
//     client measures intervals with the monotonic clock. Clock faults on
//     nodes act as for every strategy.
//   - hang stalls the hold loop only: a Lock or Unlock in progress goes on.
//   - A crashed node closes its connections (EOF) and refuses dials; a
//     partition is silence, dials included.
//   - Commands lockstep cannot simulate get an error that names them:
//     SUBSCRIBE and other pushes, blocking commands (BLPOP, WAITAOF, XREAD; WAIT is simulated, with
//     the replicas' acknowledgements),
//     transactions (MULTI, EXEC, WATCH), per-connection state (SELECT,
//     CLIENT), HELLO 3 (only RESP2 is spoken).
//   - Connections carry the client's name on the node: commands of two
//     connections of one client share its per-connection state.
//   - What a client believes is what its Locker says: without Until the
//     trace's "acquired" line says "no expiry" (the harness cannot know),
//     and the TUI shows no lease end.
//   - A goroutine still running LeakBound after the run ended fails the
//     test with its stack; if it never ends (blocked for good, not on a
//     timer), synctest itself then panics ("deadlock: main bubble goroutine
//     has exited but blocked goroutines remain"): a bubble cannot be left
//     with goroutines in it. The harness's message, with the stacks, comes
//     first.
//   - Config.File "" finds lockstep's scenarios.yaml beside this package's
//     source; a binary built with -trimpath must name a file.
//
// # Stability
//
// Config, Run, Report (its fields and WriteTrace), Client (Name, Key,
// Nodes, Dial, DialContext, Context), Locker and its optional Tokener,
// Untiler and io.Closer, Factory, and goredis.Options are the stable API:
// they change only compatibly. The trace's format (TraceJSONL), the
// wording of messages, the constants' values and anything not named here
// may change.
package harness
