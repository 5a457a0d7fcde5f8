package scenario

import (
	"math"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
)

// What a scenario can be simulated with: a file whose values are each in
// range may still ask for more work than a run can do (a watchdog renewing
// every nanosecond over a network that takes no time, millions of holds
// nested a hundred deep). The engine's event budget ends such a run; the
// loader refuses the ones it can see coming, with the field to change.

// Kernel events per unit of planned work, as measured on the bundled kinds of
// world (a hold on a single instance is 8 events for its 4 requests; a
// renewal is its timer and its request): a request costs at least one event.
const (
	eventsPerCall  = 1
	eventsPerTimer = 1
)

// callsPerRound is how many requests one acquire, release or renewal sends:
// one per master for Redlock, one otherwise.
func callsPerRound(s *Scenario, strategy string) float64 {
	if strategy == model.StrategyRedlock {
		return float64(NodesFor(strategy, s.Redis.Nodes))
	}
	return 1
}

// requestTimeout is how long a client waits for one reply at most.
func requestTimeout(s *Scenario, strategy string) time.Duration {
	if strategy == model.StrategyRedlock {
		return s.Lock.Redlock.RequestTimeout
	}
	return s.Lock.Timeout
}

// minRoundTrip is the least time a request and its reply can take: twice
// the latency (jitter may add nothing), or the request timeout if shorter.
func minRoundTrip(s *Scenario) time.Duration {
	return min(2*s.Network.Latency, requestTimeout(s, s.Lock.Strategy))
}

// renewalCycle is how long one renewal takes on average, from the end of
// the previous one: the period, then a round trip (with the mean jitter of
// both directions) to one master, or to each in turn for a sequential
// Redlock, each bounded by the request timeout.
func renewalCycle(s *Scenario, strategy string) time.Duration {
	rt := min(2*s.Network.Latency+s.Network.Jitter, requestTimeout(s, strategy))
	if strategy == model.StrategyRedlock && !s.Lock.Redlock.Parallel {
		rt *= time.Duration(NodesFor(strategy, s.Redis.Nodes))
	}
	return s.Lock.Watchdog.Every + rt
}

// PlannedEvents estimates the kernel events the clients of s plan for a run
// under strategy ("" = the scenario's own): every hold's acquire, nested
// re-acquires, the resource's read and write and the releases, plus the
// watchdog's renewals while a lock is held (at most the run's duration, as
// holds exclude one another), one per renewalCycle. Retries and faults are not counted: how many
// there are depends on the run. It is a float so that it cannot overflow.
func PlannedEvents(s *Scenario, strategy string) (holds, renewals float64) {
	if strategy == "" {
		strategy = s.Lock.Strategy
	}
	calls := callsPerRound(s, strategy)
	var held, all float64 // nanoseconds of planned work; holds planned
	for _, c := range s.Clients {
		h := float64(max(c.Holds, 0))
		all += h
		rounds := 2 * (1 + float64(max(c.Nested, 0)))   // acquires and releases, to every master
		rounds *= keysPerHold(s, c)                     // several keys per hold: a SET and a release each
		holds += h * (rounds*calls + 2) * eventsPerCall // and the resource's read and write
		held += h * float64(max(c.Work, 0))
	}
	if w := s.Lock.Watchdog; w != nil && w.Every > 0 {
		cycle := float64(renewalCycle(s, strategy))
		n := math.Floor(math.Min(held, float64(s.Duration)) / cycle)
		if w.MaxRenewals > 0 { // a cap per hold
			n = math.Min(n, float64(w.MaxRenewals)*all)
		}
		renewals = n * (eventsPerTimer + calls*eventsPerCall)
	}
	return holds, renewals
}

// simulable refuses loops that cannot advance simulated time and planned
// work beyond the default event budget. It runs once every other check
// passed, so the values it combines are each in range.
func (c *checker) simulable() {
	s := c.s
	rt := minRoundTrip(s)
	need := fmtDur(max(MinCycle-rt, 0)) // the shortest period allowed here
	lat := dot(keyNetwork, keyLatency)
	every, delay := dot(keyWatchdog, keyEvery), dot(keyRetry, keyDelay)
	if w := s.Lock.Watchdog; w != nil && w.Every+rt < MinCycle {
		c.errorf(dot(keyLock, every), "%s %s with a round trip of %s (2 × %s, or the request timeout if shorter) renews more often than every %s, which cannot be simulated in useful time; allowed: %s from %s to 24h here",
			every, fmtDur(w.Every), fmtDur(rt), lat, fmtDur(MinCycle), every, need)
	}
	if r := s.Lock.Retry; r != nil && r.Attempts > 1 && r.Delay+rt < MinCycle {
		c.errorf(dot(keyLock, delay), "%s %s with a round trip of %s (2 × %s, or the request timeout if shorter) retries more often than every %s, which cannot be simulated in useful time; allowed: %s from %s to 24h here",
			delay, fmtDur(r.Delay), fmtDur(rt), lat, fmtDur(MinCycle), delay, need)
	}
	if c.first != nil {
		return
	}
	holds, renewals := PlannedEvents(s, "")
	if total := holds + renewals; total > DefaultEventBudget {
		path, what := keyClients, i18n.M("the clients' holds (%s × (1 + %s) acquires and releases", keyHolds, keyNested)
		if renewals > holds {
			path, what = dot(keyLock, every), i18n.M("the watchdog's renewals (one every %s plus a round trip, while a lock is held", fmtDur(s.Lock.Watchdog.Every))
		}
		if s.Lock.Strategy == model.StrategyRedlock {
			what = i18n.M("%s, each sent to %d masters", what, NodesFor(s.Lock.Strategy, s.Redis.Nodes))
		}
		c.errorf(path, "this scenario plans about %.3g kernel events of work, mostly %s), more than the %d a run may take (scenario.DefaultEventBudget); allowed: at most %d planned events",
			total, what, DefaultEventBudget, DefaultEventBudget)
	}
}
