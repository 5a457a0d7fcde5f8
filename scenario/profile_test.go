package scenario_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/model/redlock"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// profileScenario is a scenario file of one scenario named p under lock.client,
// with lock lines extra (indented as lock's keys), the clients and faults
// given as YAML lines (indented as the scenario's keys).
func profileScenario(client, extra, rest string) string {
	return fmt.Sprintf(`version: 1
scenarios:
  - name: p
    duration: 30s
    lock:
      key: k
      client: %s
%s
%s
`, client, extra, rest)
}

func loadProfiled(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	f, err := scenario.Load("p.yaml", []byte(src))
	if err != nil {
		t.Fatalf("load: %v\n%s", err, src)
	}
	return f.Scenarios[0]
}

// runTrace runs s and returns its trace events.
func runTrace(t *testing.T, s *scenario.Scenario) ([]sim.Event, *ranRun) {
	t.Helper()
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	var evs []sim.Event
	r.OnEvent(func(e sim.Event) { evs = append(evs, e) })
	log := redlock.WatchAttempts(r.World()) // before the run, to see every attempt
	return evs, &ranRun{r, r.Run(), log}
}

// ranRun is a runner after its run, the run's report and (under Redlock)
// its attempts.
type ranRun struct {
	*runner.Runner
	rep      *runner.Report
	attempts *redlock.AttemptLog
}

// sets are the times client c's acquire commands reached node.
func sets(evs []sim.Event, node, c string) []time.Duration {
	var out []time.Duration
	for _, e := range evs {
		if e.Kind == "cmd" && e.Proc == node && strings.HasPrefix(e.Msg, c+": SET ") {
			out = append(out, e.At)
		}
	}
	return out
}

func firstEvent(evs []sim.Event, proc, kind string) (sim.Event, bool) {
	for _, e := range evs {
		if e.Proc == proc && e.Kind == kind {
			return e, true
		}
	}
	return sim.Event{}, false
}

// Every row parses into a lock the format accepts, cites its source and
// names its library.
func TestProfilesTable(t *testing.T) {
	for _, pr := range scenario.Profiles {
		if pr.Library == "" || pr.Doc == "" || len(pr.Sources) == 0 {
			t.Errorf("%s: library, doc and sources are required", pr.Name)
		}
		ttl := "      ttl: 2s"
		s := loadProfiled(t, profileScenario(pr.Name, ttl, "    clients:\n      - {name: A, work: 1s}"))
		if s.Lock.Client != pr.Name || s.Lock.Strategy != pr.Strategy() {
			t.Errorf("%s: loaded client %q strategy %q", pr.Name, s.Lock.Client, s.Lock.Strategy)
		}
	}
}

// redsync, when the lock is taken, asks every node 32 times (tries 32,
// redsync.go NewMutex) 50-250 ms apart (delayFunc: Intn(200)+50 ms,
// slept before every try but the first, mutex.go lockContext).
func TestProfileRedsyncRetries(t *testing.T) {
	s := loadProfiled(t, profileScenario("redsync", "      ttl: 20s",
		"    clients:\n      - {name: A, work: 25s}\n      - {name: B, start: 100ms, work: 1s}"))
	evs, _ := runTrace(t, s)
	for i := 1; i <= 5; i++ {
		node := fmt.Sprintf("redis-%d", i)
		at := sets(evs, node, "B")
		if len(at) != 32 {
			t.Fatalf("%s got %d SETs from B, want redsync's 32 tries", node, len(at))
		}
		for j := 1; j < len(at); j++ {
			// The pause plus the round trip of the release and the next SET
			// (4 × 1 ms latency).
			if gap := at[j] - at[j-1]; gap < 50*time.Millisecond || gap > 254*time.Millisecond {
				t.Errorf("%s: SETs %d and %d are %s apart, want 50-250ms plus the round trips", node, j, j+1, gap)
			}
		}
	}
	if e, ok := firstEvent(evs, "B", "gave-up"); !ok || !strings.Contains(e.Msg, "after 32 attempt(s)") {
		t.Errorf("B should give up after 32 attempts, got %+v", e)
	}
}

// deadNodeScenario: five masters, redis-5 down from the start.
const deadNode = `    clients:
      - {name: A, work: 1s}
    faults:
      - at: 0s
        crash: {target: redis-5}`

// redsync without go-redis's ContextTimeoutEnabled: the attempt's context
// deadline (expiry × timeoutFactor, mutex.go lockContext) is not honoured,
// so a dead node holds the attempt for go-redis's 5 s read timeout
// (options.go init), because actOnPoolsAsync waits for every pool's reply;
// the lock is then granted with what is left. With deadline: attempt (the
// ContextTimeoutEnabled case) the attempt ends at 8s × 0.05 = 400 ms.
func TestProfileRedsyncDeadNode(t *testing.T) {
	for _, c := range []struct {
		extra string
		want  time.Duration
	}{
		{"", 5 * time.Second},
		{"      redlock: {deadline: attempt}", 400 * time.Millisecond},
	} {
		s := loadProfiled(t, profileScenario("redsync", c.extra, deadNode))
		evs, r := runTrace(t, s)
		e, ok := firstEvent(evs, "A", "acquired")
		if !ok {
			t.Fatalf("%q: A never acquired", c.extra)
		}
		if e.At < c.want || e.At > c.want+5*time.Millisecond {
			t.Errorf("%q: A acquired at %s, want just after %s", c.extra, e.At, c.want)
		}
		a, _ := r.attempts.Last("A")
		if want := 8*time.Second - a.Elapsed - 80*time.Millisecond; a.Validity != want {
			t.Errorf("%q: validity %s, want 8s - elapsed - 8s×0.01 with no +2ms = %s", c.extra, a.Validity, want)
		}
		// until = now.Add(validity) (lockContext): counted from the count,
		// i.e. start + 8s − 80ms, not start + validity.
		if until := sim.FormatTime(7920 * time.Millisecond); !strings.Contains(e.Msg, "holds until "+until) {
			t.Errorf("%q: %s, want it to hold until %s", c.extra, e.Msg, until)
		}
	}
}

// node-redlock decides at the first quorum: _attemptOperation resolves as
// soon as votesFor reaches quorumSize (src/index.ts), so two slow nodes do
// not delay the grant; redsync's actOnPoolsAsync reads every reply.
func TestProfileNodeRedlockFirstQuorum(t *testing.T) {
	slow := `    clients:
      - {name: A, work: 1s}
    faults:
      - at: 0s
        slow: {target: redis-4, latency: 1s, for: 10s}
      - at: 0s
        slow: {target: redis-5, latency: 1s, for: 10s}`
	for _, c := range []struct {
		client   string
		from, to time.Duration
	}{
		{"node-redlock", 0, 10 * time.Millisecond},
		{"redsync", time.Second, 1100 * time.Millisecond},
	} {
		s := loadProfiled(t, profileScenario(c.client, "      ttl: 10s", slow))
		evs, _ := runTrace(t, s)
		e, ok := firstEvent(evs, "A", "acquired")
		if !ok || e.At < c.from || e.At > c.to {
			t.Errorf("%s: acquired at %s (%v), want within %s-%s", c.client, e.At, ok, c.from, c.to)
		}
	}
}

// A client clock jump during an attempt: node-redlock reads Date.now
// (src/index.ts _attemptOperation), so the jump counts as elapsed time, and
// it grants anyway because acquire never compares the expiration with now;
// redsync's now.Sub(start) (mutex.go lockContext) uses Go's monotonic
// reading, so the jump moves nothing.
func TestProfileClockJumpElapsed(t *testing.T) {
	rest := `    network: {latency: 50ms}
    clients:
      - {name: A, work: 1s}
    faults:
      - at: 20ms
        clock_jump: {target: A, by: 20s}`
	for _, c := range []struct {
		client  string
		elapsed time.Duration // at least
		granted bool
	}{
		{"node-redlock", 20 * time.Second, true},
		{"redsync", 0, true},
	} {
		s := loadProfiled(t, profileScenario(c.client, "      ttl: 10s", rest))
		_, r := runTrace(t, s)
		a, ok := r.attempts.Last("A")
		if !ok || !a.Done {
			t.Fatalf("%s: no attempt", c.client)
		}
		if a.Elapsed < c.elapsed || (c.elapsed == 0 && a.Elapsed > time.Second) {
			t.Errorf("%s: elapsed %s, want at least %s", c.client, a.Elapsed, c.elapsed)
		}
		if a.OK != c.granted {
			t.Errorf("%s: granted %v (validity %s), want %v", c.client, a.OK, a.Validity, c.granted)
		}
		if c.client == "node-redlock" && a.Validity > 0 {
			t.Errorf("node-redlock: validity %s should be used up by the jump, and granted anyway", a.Validity)
		}
	}
}

// RedissonRedLock asks the masters one after another (RedissonMultiLock
// tryLock's loop), each for at most waitTime/N = 1500 ms
// (RedissonRedLock.calcLockWaitTime with lock()'s N × 1500 ms).
func TestProfileRedissonRedlockSequential(t *testing.T) {
	s := loadProfiled(t, profileScenario("redisson-redlock", "", deadNode))
	if s.Lock.Redlock.Parallel || s.Lock.Redlock.RequestTimeout != 1500*time.Millisecond || !s.Lock.Redlock.NoValidityCheck {
		t.Fatalf("resolved redlock block %+v", s.Lock.Redlock)
	}
	evs, _ := runTrace(t, s)
	var last time.Duration
	for i := 1; i <= 4; i++ {
		at := sets(evs, fmt.Sprintf("redis-%d", i), "A")
		if len(at) != 1 || at[0] <= last {
			t.Fatalf("redis-%d: SETs %v, want one, after redis-%d's", i, at, i-1)
		}
		last = at[0]
	}
	if e, ok := firstEvent(evs, "A", "acquired"); !ok || e.At < 1500*time.Millisecond {
		t.Errorf("A acquired at %s, want after redis-5's 1500ms", e.At)
	}
}

// Redisson's RLock: with no leaseTime the watchdog renews a 30 s lease
// every 10 s (Config.lockWatchdogTimeout, renewal at internalLockLeaseTime/3,
// RedissonLock.tryAcquireAsync); lock(leaseTime) schedules no renewal, so
// an explicit ttl turns the watchdog off — unless the file writes one too.
func TestProfileRedissonLeaseDisablesWatchdog(t *testing.T) {
	rest := "    clients:\n      - {name: A, work: 25s}\n      - {name: B, start: 6s, work: 1s}"
	for _, c := range []struct {
		extra    string
		watchdog bool
		safe     bool
	}{
		{"", true, true},
		{"      ttl: 5s", false, false},
		{"      ttl: 5s\n      watchdog: {every: 1s}", true, true},
	} {
		s := loadProfiled(t, profileScenario("redisson", c.extra, rest))
		if (s.Lock.Watchdog != nil) != c.watchdog || !s.Lock.Reentrant {
			t.Fatalf("%q: watchdog %+v reentrant %v", c.extra, s.Lock.Watchdog, s.Lock.Reentrant)
		}
		_, r := runTrace(t, s)
		if rep := r.rep; rep.Safe != c.safe {
			t.Errorf("%q: safe %v, want %v", c.extra, rep.Safe, c.safe)
		}
	}
}

// redislock: Obtain with the default RetryStrategy (Options.getRetryStrategy:
// NoRetry(), redislock.go)
// tries once and fails when the key is taken.
func TestProfileRedislockNoRetry(t *testing.T) {
	s := loadProfiled(t, profileScenario("redislock", "      ttl: 10s",
		"    clients:\n      - {name: A, work: 5s}\n      - {name: B, start: 1s, work: 1s}"))
	evs, _ := runTrace(t, s)
	e, ok := firstEvent(evs, "B", "gave-up")
	if !ok || !strings.Contains(e.Msg, "after 1 attempt(s)") || e.At > 1100*time.Millisecond {
		t.Errorf("B should give up after its one attempt, got %+v", e)
	}
}

// What the file writes overrides the profile, key by key (inside a block
// too), and export writes a lock that reads back to the same.
func TestProfileOverridesAndExport(t *testing.T) {
	s := loadProfiled(t, profileScenario("redsync", `      ttl: 3s
      retry: {attempts: 5}
      redlock: {drift_slack: true, elapsed: wall}`, "    clients:\n      - {name: A, work: 1s}"))
	l := s.Lock
	if l.TTL != 3*time.Second || l.Retry.Attempts != 5 || l.Retry.Delay != 250*time.Millisecond ||
		l.Redlock.NoDriftSlack || l.Redlock.Elapsed != scenario.ElapsedWall || l.Redlock.Deadline != "none" || !l.Redlock.Parallel {
		t.Fatalf("resolved %+v retry %+v", l, l.Retry)
	}
	out, err := scenario.Export(s, scenario.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := loadProfiled(t, string(out))
	if !reflect.DeepEqual(back.Lock, l) {
		t.Errorf("export round trip:\n%s\n got %+v\nwant %+v", out, back.Lock, l)
	}
}

// Bad profiles are one FILE:LINE:COL line at the offending spot.
func TestProfileErrors(t *testing.T) {
	clients := "    clients:\n      - {name: A, work: 1s}"
	for _, c := range []struct{ client, extra, want string }{
		{"jedis", "", `p.yaml:7:15: unknown lock.client "jedis" (profiles: redsync, redisson, redisson-redlock, node-redlock, redislock, redis-py, shedlock)`},
		{"redsync", "      reentrant: true", "p.yaml:8:18: lock.client: redsync cannot take lock.reentrant: redsync's Mutex is not reentrant"},
		{"redislock", "      ttl: 1s\n      watchdog: {every: 1s}", "p.yaml:9:7: lock.client: redislock cannot take lock.watchdog"},
		{"node-redlock", "      ttl: 1s\n      strategy: lua-release", "p.yaml:9:17: lock.client: node-redlock runs strategy redlock, not \"lua-release\""},
		{"node-redlock", "", "p.yaml:5:5: lock.ttl is required"},
		{"redsync", "      redlock: {timeout_factor: 2}", "p.yaml:8:33: redlock.timeout_factor must be more than 0 and at most 1"},
		{"redsync", "      redlock: {decide: majority}", `p.yaml:8:25: unknown redlock.decide "majority" (allowed: all, first-quorum)`},
	} {
		_, err := scenario.Load("p.yaml", []byte(profileScenario(c.client, c.extra, clients)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q:\n got %v\nwant %s", c.client, c.extra, err, c.want)
		}
	}
}

// compare takes profiles where it takes strategies.
func TestCompareProfiles(t *testing.T) {
	s := loadProfiled(t, `version: 1
scenarios:
  - name: c
    duration: 30s
    lock: {key: k, strategy: lua-release, ttl: 10s}
    clients:
      - {name: A, work: 1s}
`)
	cmp, err := runner.Compare(s, []string{"redsync", "redisson", "lua-release"}, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"redsync/redlock", "redisson/lua-release", "/lua-release"}
	for i, col := range cmp.Columns {
		if got := col.Client + "/" + col.Strategy; got != want[i] || col.Nodes != map[bool]int{true: 5, false: 1}[i == 0] {
			t.Errorf("column %d: %s on %d nodes, want %s", i, got, col.Nodes, want[i])
		}
	}
	if err := runner.CheckStrategies([]string{"redsync", "jedis"}); err == nil || !strings.Contains(err.Error(), "profiles") {
		t.Errorf("an unknown name should list the profiles too: %v", err)
	}
}

// Extensions of a lease that ran out during a pause: node-redlock's
// extend() throws "Cannot extend an already-expired lock" before sending
// anything (src/index.ts extend: existing.expiration < Date.now();
// node-redlock#283); redsync's ExtendContext (mutex.go) just touches, and
// its touchWithSetNXScript (scripts.go, WithSetNXOnExtend) SETs the keys
// that expired meanwhile, so the lock comes back.
func TestProfileExtendExpired(t *testing.T) {
	rest := `    clients:
      - {name: A, work: 6s}
    faults:
      - at: 500ms
        pause: {target: A, for: 3s}`
	wd := "      ttl: 2s\n      watchdog: {every: 1s}"
	for _, c := range []struct {
		client, extra   string
		sent, refusedBy string // the renewal commands after the pause; what the refusal says ("" none)
		sentCount       int
	}{
		{"node-redlock", wd, "", "already-expired", 0},
		{"redsync", wd, "<renew>", "extended on 0 of 5", 5},
		{"redsync", wd + "\n      redlock: {extend_sets_missing: true}", "<touch-or-set>", "", 5},
	} {
		s := loadProfiled(t, profileScenario(c.client, c.extra, rest))
		evs, _ := runTrace(t, s)
		var sent int
		var refused string
		for _, e := range evs {
			if e.At < 3500*time.Millisecond {
				continue
			}
			if e.Kind == "cmd" && strings.HasPrefix(e.Msg, "A: EVAL <") && !strings.Contains(e.Msg, "<release>") {
				sent++
				if !strings.Contains(e.Msg, c.sent) || (c.refusedBy == "" && !strings.HasSuffix(e.Msg, "=> (integer) 1")) {
					t.Errorf("%s %q: %s", c.client, c.extra, e.Msg)
				}
			}
			if e.Kind == "renew-refused" && refused == "" {
				refused = e.Msg
			}
		}
		// One renewal right after the pause (a refused one ends the watchdog).
		if sent < c.sentCount || (c.sentCount == 0 && sent != 0) || !strings.Contains(refused, c.refusedBy) || (c.refusedBy == "") != (refused == "") {
			t.Errorf("%s %q: %d renewal command(s) after the pause, refusal %q; want %d, %q", c.client, c.extra, sent, refused, c.sentCount, c.refusedBy)
		}
	}
}

// node-redlock v5 releases a failed acquisition only in acquire()'s catch,
// after _execute has spent every retry (src/index.ts); in between, the
// keys of a failed attempt stay, and ACQUIRE_SCRIPT (0 if any key exists)
// counts them against the client's own next attempt. Here A's first
// attempt gets redis-1 and redis-2 while redis-3..5 are down; redis-3 and
// redis-4 are back at 500ms, but A's own keys (5s) outvote it on every
// retry, and it gives up after its 11 attempts. Releasing after each
// attempt, it wins on its second.
func TestProfileNodeRedlockKeepsFailedKeys(t *testing.T) {
	rest := `    clients:
      - {name: A, work: 1s}
    faults:
      - {at: 0s, crash: {target: redis-3, restart_after: 500ms}}
      - {at: 0s, crash: {target: redis-4, restart_after: 500ms}}
      - {at: 0s, crash: {target: redis-5}}`
	s := loadProfiled(t, profileScenario("node-redlock", "      ttl: 5s", rest))
	evs, _ := runTrace(t, s)
	if e, ok := firstEvent(evs, "A", "acquired"); ok {
		t.Errorf("A acquired at %s; its own keys should outvote it", e.At)
	}
	if e, ok := firstEvent(evs, "A", "gave-up"); !ok || !strings.Contains(e.Msg, "after 11 attempt(s)") {
		t.Errorf("A should give up after 11 attempts: %+v", e)
	}
	if rel := countCmds(evs, "A: EVAL <release>"); rel != 4 {
		t.Errorf("A released %d times, want once on each live node, after its last try", rel)
	}
	s = loadProfiled(t, profileScenario("node-redlock", "      ttl: 5s\n      redlock: {release_failed: attempt}", rest))
	evs, _ = runTrace(t, s)
	if e, ok := firstEvent(evs, "A", "acquired"); !ok || e.At > 2500*time.Millisecond {
		t.Errorf("releasing after each attempt, A should win its second: %+v", e)
	}
}

// countCmds counts the commands the nodes ran whose line starts with prefix.
func countCmds(evs []sim.Event, prefix string) int {
	n := 0
	for _, e := range evs {
		if e.Kind == "cmd" && strings.HasPrefix(e.Msg, prefix) {
			n++
		}
	}
	return n
}

// The reports name the profile: the text after the strategy, the JSON as
// "client" (absent without one, so older reports read the same).
func TestReportsNameTheClient(t *testing.T) {
	s := loadProfiled(t, profileScenario("redislock", "      ttl: 1s", "    clients:\n      - {name: A, work: 100ms}"))
	_, r := runTrace(t, s)
	var txt strings.Builder
	r.rep.WriteText(&txt)
	js, err := r.rep.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "strategy lua-release (client redislock), seed") || !strings.Contains(string(js), `"strategy":"lua-release","client":"redislock","seed"`) {
		t.Errorf("text:\n%s\njson: %s", txt.String(), js)
	}
	s.Lock.Client = ""
	_, r = runTrace(t, s)
	if js, _ := r.rep.MarshalJSON(); strings.Contains(string(js), `"client"`) {
		t.Errorf("a run without a profile has a client key: %s", js)
	}
	if got := scenario.StrategyLabel("redlock", "redsync"); got != "redlock (redsync)" {
		t.Errorf("StrategyLabel = %q", got)
	}
}

// A run under a profile named as the strategy (compare's columns, the TUI)
// reports that profile, and its export replays it.
func TestRunAndExportUnderAProfile(t *testing.T) {
	s := loadProfiled(t, `version: 1
scenarios:
  - name: c
    duration: 30s
    lock: {key: k, strategy: lua-release, ttl: 10s}
    clients:
      - {name: A, work: 1s}
`)
	o := scenario.Options{Strategy: "redsync"}
	r, err := runner.New(s, o, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	if rep.Client != "redsync" || rep.Strategy != "redlock" || len(r.World().Shards) != 5 {
		t.Errorf("report client %q strategy %q on %d masters", rep.Client, rep.Strategy, len(r.World().Shards))
	}
	out, err := scenario.Export(s, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := loadProfiled(t, string(out))
	r2, err := runner.New(back, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if rep2 := r2.Run(); rep2.TraceHash != rep.TraceHash || rep2.Client != "redsync" {
		t.Errorf("the export replays as %s %s, the run was %s", rep2.Client, rep2.TraceHash, rep.TraceHash)
	}
}

// Redisson's fenced and fair locks under the redisson profile: the design
// runs without the reentrant count lockstep cannot combine with them,
// unless the file asks for both (then the design rules refuse it).
func TestProfileRedissonFencedAndFair(t *testing.T) {
	clients := "    clients:\n      - {name: A, work: 1s}"
	for _, extra := range []string{"      fencing: token", "      fair: true"} {
		s := loadProfiled(t, profileScenario("redisson", extra, clients))
		if s.Lock.Reentrant || (s.Lock.Fencing != "token" && !s.Lock.Fair) || s.Lock.Watchdog == nil {
			t.Errorf("%q: %+v", extra, s.Lock)
		}
	}
	_, err := scenario.Load("p.yaml", []byte(profileScenario("redisson", "      fair: true\n      reentrant: true", clients)))
	if err == nil || !strings.Contains(err.Error(), "cannot be combined") {
		t.Errorf("fair and reentrant written together: %v", err)
	}
}

// node-redlock's using(): when an extension fails the routine's
// AbortSignal fires (src/index.ts using(): controller.abort() when extend
// throws) and a routine that heeds it stops. A is paused past its lease;
// its first extension after the pause is refused (already expired), the
// work stops before its write, and B's update is not lost. Without
// abort_work A writes its stale counter.
func TestProfileNodeRedlockAbortSignal(t *testing.T) {
	rest := `    clients:
      - {name: A, work: 5s}
      - {name: B, start: 1600ms, work: 5s}
    faults:
      - at: 600ms
        pause: {target: A, for: 2s}`
	for _, c := range []struct {
		abort bool
		lost  int64
	}{{true, 0}, {false, 1}} {
		extra := fmt.Sprintf("      ttl: 1s\n      watchdog: {every: 500ms, abort_work: %v}", c.abort)
		s := loadProfiled(t, profileScenario("node-redlock", extra, rest))
		evs, r := runTrace(t, s)
		_, aborted := firstEvent(evs, "A", "aborted")
		if aborted != c.abort || r.rep.LostUpdates != c.lost || r.rep.Safe {
			t.Errorf("abort_work %v: aborted %v, lost_updates %d, safe %v; want %v, %d, unsafe", c.abort, aborted, r.rep.LostUpdates, r.rep.Safe, c.abort, c.lost)
		}
	}
	_, err := scenario.Load("p.yaml", []byte(profileScenario("redisson", "      watchdog: {every: 1s, abort_work: true}", "    clients:\n      - {name: A, work: 1s}")))
	if err == nil || !strings.Contains(err.Error(), "lock.watchdog.abort_work needs strategy redlock") {
		t.Errorf("abort_work under lua-release: %v", err)
	}
}

// node-redlock's extend() also resolves at the first quorum
// (_attemptOperation): two slow nodes do not hold up a renewal.
func TestProfileNodeRedlockExtendsAtFirstQuorum(t *testing.T) {
	rest := `    clients:
      - {name: A, work: 1s}
    faults:
      - {at: 100ms, slow: {target: redis-4, latency: 2s, for: 10s}}
      - {at: 100ms, slow: {target: redis-5, latency: 2s, for: 10s}}`
	s := loadProfiled(t, profileScenario("node-redlock", "      ttl: 2s\n      watchdog: {every: 500ms}", rest))
	evs, _ := runTrace(t, s)
	e, ok := firstEvent(evs, "A", "renewed")
	if !ok || e.At > 510*time.Millisecond {
		t.Errorf("first renewal %+v (%v), want it at about 504ms, not after the slow nodes", e, ok)
	}
}

// redis-py's Lock tries again every 0.1 s for as long as it takes
// (redis/lock.py: Lock.__init__ sleep=0.1, blocking_timeout=None; acquire
// loops on do_acquire, SET NX PX, then mod_time.sleep(sleep)), and never
// renews on its own: B's SETs reach redis-1 100 ms plus a round trip apart
// until A's release, and B never gives up.
func TestProfileRedisPyPolls(t *testing.T) {
	s := loadProfiled(t, profileScenario("redis-py", "      ttl: 10s",
		"    clients:\n      - {name: A, work: 3s}\n      - {name: B, start: 100ms, work: 1s}"))
	if s.Lock.Watchdog != nil || s.Lock.Retry == nil || s.Lock.Retry.Delay != 100*time.Millisecond {
		t.Fatalf("redis-py: want no watchdog and a 100ms retry, got %+v", s.Lock)
	}
	evs, ran := runTrace(t, s)
	at := sets(evs, "redis-1", "B")
	// A holds from 2ms to about 3.004s: B tries at 100ms and then every
	// 102ms (the sleep plus the SET's round trip) until it wins.
	if len(at) < 28 || len(at) > 30 {
		t.Fatalf("B sent %d SETs, want one every 102ms for A's 3s", len(at))
	}
	for j := 1; j < len(at); j++ {
		if gap := at[j] - at[j-1]; gap != 102*time.Millisecond {
			t.Errorf("SETs %d and %d are %s apart, want redis-py's 0.1s sleep plus a 2ms round trip", j, j+1, gap)
		}
	}
	if _, ok := firstEvent(evs, "B", "gave-up"); ok || ran.rep.Metrics.Acquired != 2 {
		t.Errorf("B should wait until it wins (blocking_timeout None): acquired %d", ran.rep.Metrics.Acquired)
	}
	if _, ok := firstEvent(evs, "A", "renewed"); ok {
		t.Error("redis-py has no watchdog: nothing should renew A's lock")
	}
}

// ShedLock's lockAtLeastFor (InternalRedisLockProvider.RedisLock.doUnlock:
// keepLockFor = lockAtLeastUntil − now; positive: setKeyExpiration, else
// deleteLock): A's 1s job ends 1.006s after its lock() began, so its
// unlock sets the key to expire 3994ms later, by setIfPresent (SET XX PX)
// under the default builder and by updLuaScript (check, then PEXPIRE) with
// safeUpdate (strategy lua-release). B's run at 2s finds the lock and is
// skipped (no retry: DefaultLockingTaskExecutor's "Not executing"); C's at
// 6s, after lockAtLeastFor, runs. A job longer than lockAtLeastFor is
// deleted as usual: a blind DEL by default.
func TestProfileShedLockAtLeast(t *testing.T) {
	three := "    clients:\n      - {name: A, work: 1s}\n      - {name: B, start: 2s, work: 1s}\n      - {name: C, start: 6s, work: 1s}"
	for _, c := range []struct{ extra, release string }{
		{"      ttl: 30s\n      hold_at_least: 5s", "A: SET k A-1 XX PX 3994 => OK"},
		{"      ttl: 30s\n      hold_at_least: 5s\n      strategy: lua-release", "A: EVAL <renew> 1 k A-1 3994 => (integer) 1"},
	} {
		s := loadProfiled(t, profileScenario("shedlock", c.extra, three))
		evs, ran := runTrace(t, s)
		if !hasCmd(evs, "redis-1", c.release) {
			t.Errorf("%q: A's unlock should keep the key for the rest of lockAtLeastFor: %q", c.extra, c.release)
		}
		if e, ok := firstEvent(evs, "B", "gave-up"); !ok || !strings.Contains(e.Msg, "after 1 attempt(s)") {
			t.Errorf("%q: B's run should be skipped at once, got %+v", c.extra, e)
		}
		if m := ran.rep.Metrics; m.Acquired != 2 || m.FailedAcquires != 1 {
			t.Errorf("%q: want A and C to run, B skipped; acquired %d failed %d", c.extra, m.Acquired, m.FailedAcquires)
		}
	}
	s := loadProfiled(t, profileScenario("shedlock", "      ttl: 30s\n      hold_at_least: 5s",
		"    clients:\n      - {name: A, work: 6s}"))
	if evs, _ := runTrace(t, s); !hasCmd(evs, "redis-1", "A: DEL k") {
		t.Error("a job longer than lockAtLeastFor should be deleted with ShedLock's default blind DEL")
	}
}

// hasCmd reports whether node ran a command whose trace line starts with msg.
func hasCmd(evs []sim.Event, node, msg string) bool {
	for _, e := range evs {
		if e.Kind == "cmd" && e.Proc == node && strings.HasPrefix(e.Msg, msg) {
			return true
		}
	}
	return false
}

// What ShedLock and the hold_at_least knob refuse, one line each at the key.
func TestShedLockErrors(t *testing.T) {
	clients := "    clients:\n      - {name: A, work: 1s}"
	for _, c := range []struct{ client, extra, want string }{
		{"shedlock", "      ttl: 5s\n      hold_at_least: 6s", "p.yaml:9:22: lock.hold_at_least 6s is longer than lock.ttl 5s"},
		{"shedlock", "      ttl: 5s\n      retry: {attempts: 3, delay: 1s}", "p.yaml:9:7: lock.client: shedlock cannot take lock.retry: ShedLock does not wait"},
		{"shedlock", "      ttl: 5s\n      strategy: redlock", `p.yaml:9:17: lock.client: shedlock runs strategy set-del, not "redlock"`},
		{"shedlock", "      ttl: 5s\n      hold_at_least: -1s", "p.yaml:9:22: lock.hold_at_least must be between 0s and 24h"},
	} {
		_, err := scenario.Load("p.yaml", []byte(profileScenario(c.client, c.extra, clients)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q:\n got %v\nwant %s", c.client, c.extra, err, c.want)
		}
	}
	plain := func(lock string) string {
		return "version: 1\nscenarios:\n  - name: p\n    duration: 10s\n    lock: {key: k, ttl: 5s, hold_at_least: 1s, " + lock + "}\n" + clients + "\n"
	}
	for _, c := range []struct{ lock, want string }{
		{"strategy: setnx-expire", "p.yaml:5:"},
		{"strategy: lua-release, reentrant: true", "p.yaml:5:"},
	} {
		_, err := scenario.Load("p.yaml", []byte(plain(c.lock)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), "hold_at_least") {
			t.Errorf("%s: got %v, want a %s... error naming hold_at_least", c.lock, err, c.want)
		}
	}
}

// TestProfileRowsParse: every row's lock block is YAML (rows parse on
// first use, so a broken row would otherwise only panic when named).
func TestProfileRowsParse(t *testing.T) {
	for _, pr := range scenario.Profiles {
		if n := pr.Parsed(); n == nil || n.Kind != yaml.MappingNode {
			t.Errorf("profile %s: the lock block is not a mapping", pr.Name)
		}
	}
}
