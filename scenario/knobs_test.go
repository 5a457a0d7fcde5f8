package scenario_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/build"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// The real clients' runtime knobs (model.ClientKnobs, scenario/knobs.go),
// each shown on a run whose outcome it decides: every test also runs the
// same file without the knob (the edit) and checks that the outcome differs,
// so each test fails without the knob's code.

// knobRun loads one scenario from yaml (after replacing old by new) and
// runs it to the end.
func knobRun(t *testing.T, yaml, old, new string) (*runner.Report, []sim.Event) {
	t.Helper()
	if old != "" && !strings.Contains(yaml, old) {
		t.Fatalf("the edit %q is not in the file", old)
	}
	f, err := scenario.Load("knobs.yaml", []byte(strings.Replace(yaml, old, new, 1)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(f.Scenarios[0], scenario.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	return rep, r.Events()
}

// eventsOf are the messages of the events of kind (any kind when "") by
// proc (any when "").
func eventsOf(evs []sim.Event, proc, kind string) []string {
	var out []string
	for _, e := range evs {
		if (kind == "" || e.Kind == kind) && (proc == "" || e.Proc == proc) {
			out = append(out, e.Msg)
		}
	}
	return out
}

func countWith(msgs []string, sub string) int {
	n := 0
	for _, m := range msgs {
		if strings.Contains(m, sub) {
			n++
		}
	}
	return n
}

const waitYAML = `version: 1
scenarios:
  - name: wait
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 30s
      retry: {attempts: 1000, delay: 100ms}
      wait: 3s
    clients:
      - {name: A, work: 10s}
      - {name: B, start: 10ms, work: 1s}
`

// lock.wait is tryLock(waitTime): B gives up after 3 s of its own clock,
// though retry.attempts would let it try 1000 times (RedissonLock.tryLock:
// "time -= System.currentTimeMillis() - current; if (time <= 0)
// acquireFailed"); the last pause is cut to what is left, and no attempt
// follows the end of the wait. Without it B waits out A's 10 s hold.
func TestLockWaitBoundsTheAcquire(t *testing.T) {
	rep, evs := knobRun(t, waitYAML, "", "")
	if rep.FailedAcquires != 1 || rep.Acquired != 1 {
		t.Fatalf("acquired %d, failed %d; want A's grant and B's failure", rep.Acquired, rep.FailedAcquires)
	}
	gave := eventsOf(evs, "B", "gave-up")
	if len(gave) != 1 || !strings.Contains(gave[0], "lock.wait 3s ran out after 30 attempt(s)") {
		t.Errorf("B's give-up: %q", gave)
	}
	sets := 0
	for _, e := range evs {
		if e.Kind == "cmd" && strings.HasPrefix(e.Msg, "B: SET") {
			sets++
			if e.At > 3*time.Second+10*time.Millisecond {
				t.Errorf("B sent a command at %s, after its wait ended", sim.FormatTime(e.At))
			}
		}
	}
	if sets != 30 {
		t.Errorf("B sent %d SETs, want 30", sets)
	}
	// The wait runs on the wall clock (System.currentTimeMillis): a clock
	// set forward by 5 s at 1 s ends B's 3 s wait at once.
	jump := "      - {name: B, start: 10ms, work: 1s}\n    faults:\n      - at: 1s\n        clock_jump: {target: B, by: 5s}\n"
	_, evs = knobRun(t, waitYAML, "      - {name: B, start: 10ms, work: 1s}\n", jump)
	for _, e := range evs {
		if e.Kind == "gave-up" && e.Proc == "B" && e.At > 1100*time.Millisecond {
			t.Errorf("after a 5s clock jump B gave up at %s, want within a pause of the jump at 1s", sim.FormatTime(e.At))
		}
	}
	if len(eventsOf(evs, "B", "gave-up")) != 1 {
		t.Errorf("B's give-up after the jump: %q", eventsOf(evs, "B", "gave-up"))
	}
	rep, _ = knobRun(t, waitYAML, "      wait: 3s\n", "")
	if rep.FailedAcquires != 0 || rep.Acquired != 2 {
		t.Errorf("without lock.wait: acquired %d, failed %d; want both to get in", rep.Acquired, rep.FailedAcquires)
	}
}

const resendYAML = `version: 1
scenarios:
  - name: resend
    duration: 40s
    lock:
      key: lock
      strategy: lua-release
      ttl: 30s
      timeout: 1s
      retry: {attempts: 100, delay: 1s}
      driver: {retries: 3}
    clients:
      - {name: A, start: 10ms, work: 1s}
      - {name: B, start: 3s, work: 1s}
    faults:
      - at: 10500us
        slow: {target: redis-1, latency: 2s, for: 500ms}
`

// A driver resend is a duplicate that reaches Redis (go-redis retries a
// read timeout up to MaxRetries 3: redis.go _process, error.go
// shouldRetry). A's SET NX ran and took the key, its reply was slowed past
// the timeout; the driver sends the same SET NX again, which answers nil on
// the key A already holds: the recipe believes it failed while the key is
// its own, and B waits out the whole TTL. Without the driver A sees the
// timeout and gives up just the same, but with one SET only.
func TestDriverResendOfSetNX(t *testing.T) {
	rep, evs := knobRun(t, resendYAML, "", "")
	sets := eventsOf(evs, "", "cmd")
	var mine []string
	for _, m := range sets {
		if strings.HasPrefix(m, "A: SET lock A-1 NX") {
			mine = append(mine, m)
		}
	}
	if len(mine) < 2 || !strings.HasSuffix(mine[0], "=> OK") || !strings.HasSuffix(mine[1], "=> (nil)") {
		t.Fatalf("A's SETs: %q; want the first OK and its resend nil", mine)
	}
	if r := eventsOf(evs, "A", "resend"); len(r) != 1 || !strings.Contains(r[0], "sends SET lock A-1 NX PX 30000 to redis-1 again (retry 1 of 3)") {
		t.Errorf("resend lines: %q", r)
	}
	// A's own retries fail too (SET NX on its own key); nobody gets in
	// before the key A does not know it holds expires at 30 s.
	if g := eventsOf(evs, "", "acquired"); len(g) == 0 || rep.MaxWait < 27*time.Second {
		t.Errorf("grants %q, max wait %s; want the first only when A's key expires", g, rep.MaxWait)
	}
	_, evs = knobRun(t, resendYAML, "      driver: {retries: 3}\n", "")
	if n := len(eventsOf(evs, "A", "resend")); n != 0 {
		t.Errorf("without driver retries A resent %d commands", n)
	}
}

const renewYAML = `version: 1
scenarios:
  - name: renew
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 3s
      timeout: 500ms
      watchdog: {every: 1s, on_failure: retry}
      retry: {attempts: 100, delay: 200ms}
    clients:
      - {name: A, work: 10s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 1500ms
        partition: {groups: [[A], [redis-1, B]], for: 1200ms}
`

// on_failure: retry is Redisson's watchdog: a renewal that timed out (the
// partition drops it at 2 s) is tried again a period later
// (renewal/RenewalTask.java, run: on an error it logs and schedule()s
// again), and at 3 s the partition is over, so the lease never lapses.
// The watchdog that stops at the first failure lets the key expire at 4 s
// while A still works: B gets in, two holders.
func TestWatchdogRetriesAfterAFailedRenewal(t *testing.T) {
	rep, evs := knobRun(t, renewYAML, "", "")
	if !rep.Safe || len(eventsOf(evs, "A", "renew-retry")) != 1 || len(eventsOf(evs, "A", "renew-fail")) != 0 {
		t.Fatalf("with retry: safe %v, retries %q, fails %q", rep.Safe, eventsOf(evs, "A", "renew-retry"), eventsOf(evs, "A", "renew-fail"))
	}
	if n := len(eventsOf(evs, "A", "renewed")); n < 8 {
		t.Errorf("A renewed %d times, want it to go on renewing through its 10 s of work", n)
	}
	rep, _ = knobRun(t, renewYAML, ", on_failure: retry}", "}")
	if rep.Safe {
		t.Errorf("with stop: the run is safe; want the lapsed lease to let B in beside A")
	}
	// It still stops when the key is not ours: no key, no renewal.
	rep, evs = knobRun(t, renewYAML, "    faults:\n", "    faults:\n      - at: 1200ms\n        crash: {target: redis-1, restart_after: 100ms}\n")
	if fails := eventsOf(evs, "A", "renew-fail"); len(fails) != 1 {
		t.Errorf("a renewal the node answered 'not ours' must stop the watchdog; renew-fail events %q", fails)
	}
	_ = rep
}

const fairYAML = `version: 1
scenarios:
  - name: fair
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 30s
      fair: true
      fair_timeout: 500ms
      retry: {attempts: 100, delay: 100ms}
    clients:
      - {name: A, work: 2s}
      - {name: W, start: 100ms, work: 1s}
      - {name: B, start: 200ms, work: 1s}
    faults:
      - at: 150ms
        crash: {target: W}
`

// lock.fair_timeout is Redisson's threadWaitTime (RedissonFairLock: a
// waiter whose timeout in the sorted set has passed is removed from the
// queue by the next acquire script). W queues behind A and dies; with a
// place of 500 ms B, queued behind W, gets the lock as soon as A lets go
// (at 2 s); with the default 5 s B waits until W's place runs out.
func TestFairTimeoutDropsADeadWaiter(t *testing.T) {
	grantAt := func(evs []sim.Event) time.Duration {
		for _, e := range evs {
			if e.Kind == "acquired" && e.Proc == "B" {
				return e.At
			}
		}
		return -1
	}
	_, evs := knobRun(t, fairYAML, "", "")
	if at := grantAt(evs); at < 2*time.Second || at > 2200*time.Millisecond {
		t.Errorf("fair_timeout 500ms: B got the lock at %s, want right after A's release at 2s", sim.FormatTime(at))
	}
	_, evs = knobRun(t, fairYAML, "      fair_timeout: 500ms\n", "")
	if at := grantAt(evs); at < 5*time.Second {
		t.Errorf("default place timeout: B got the lock at %s, want it behind the dead waiter's 5s", sim.FormatTime(at))
	}
}

const checkYAML = `version: 1
scenarios:
  - name: check
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 2s
      check_before_write: true
      retry: {attempts: 100, delay: 100ms}
    clients:
      - {name: A, work: 1s}
      - {name: B, start: 2500ms, work: 2s}
    faults:
      - at: 500ms
        pause: {target: A, for: 3s}
`

// check_before_write is the tutorials' advice: A's GC pause outlasts its
// lease; when it wakes it sees by its clock that the lease ended and skips
// the write, so B's update is not lost (the two still overlapped: the
// check cannot undo the read A made in time).
func TestCheckBeforeWriteSkipsALateWrite(t *testing.T) {
	rep, evs := knobRun(t, checkYAML, "", "")
	skipped := eventsOf(evs, "A", "write-skipped")
	if len(skipped) != 1 || !strings.Contains(skipped[0], "the lease of A-1 ended at") || rep.LostUpdates != 0 {
		t.Fatalf("skips %q, lost updates %d; want A's write skipped and no update lost", skipped, rep.LostUpdates)
	}
	rep, _ = knobRun(t, checkYAML, "      check_before_write: true\n", "")
	if rep.LostUpdates == 0 {
		t.Errorf("without the check no update is lost; want A's late write to clobber B's")
	}
}

const windowYAML = `version: 1
scenarios:
  - name: window
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 1s
      check_before_write: true
      retry: {attempts: 100, delay: 10ms}
    clients:
      - {name: A, work: 990ms}
      - {name: B, start: 500ms, work: 500ms}
    faults:
      - at: 900ms
        slow: {target: A, latency: 100ms, for: 1s}
`

// The window the check leaves: it is made on the client, the write lands
// on the resource later. A checks with a few milliseconds of its lease
// left and sends its write; the write spends 100 ms on a slow link, the
// lease ends meanwhile, B takes the lock and reads the old value, and A's
// write, then B's, land: an update is lost though A checked. (A GC pause
// between the check and the send is the same window; in the simulator the
// two happen at one instant, so the window is the write's transit.)
func TestCheckBeforeWriteWindow(t *testing.T) {
	rep, evs := knobRun(t, windowYAML, "", "")
	if n := len(eventsOf(evs, "A", "write-skipped")); n != 0 || rep.LostUpdates == 0 {
		t.Errorf("skips %d, lost updates %d; want A's checked write to land late and lose an update", n, rep.LostUpdates)
	}
	// A clock that runs slow passes the check too: at half speed A's 900 ms
	// of work end 1.8 s into the run, its clock reads 0.9 s < 1 s, and the
	// write it sends lands after B's and loses it.
	drift := "      - {name: A, work: 900ms}\n      - {name: B, start: 500ms, work: 500ms}\n    faults:\n      - at: 0s\n        clock_drift: {target: A, rate: 0.5}\n"
	rep, evs = knobRun(t, windowYAML[:strings.Index(windowYAML, "      - {name: A")]+drift, "", "")
	if n := len(eventsOf(evs, "A", "write-skipped")); n != 0 || rep.LostUpdates == 0 {
		t.Errorf("slow clock: skips %d, lost updates %d; want the check passed and an update lost", n, rep.LostUpdates)
	}
}

const allKnobsYAML = `version: 1
scenarios:
  - name: knobs
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 2s
      watchdog: {every: 500ms, on_failure: retry}
      fair: true
      retry: {attempts: 10, delay: 100ms}
      wait: 3s
      driver: {retries: 4, lock_commands: false}
      fair_timeout: 700ms
      check_before_write: true
      notify: pubsub
    clients:
      - {name: A, work: 1s}
`

// Every knob survives an export and a load, and reaches the model.
func TestKnobsRoundTrip(t *testing.T) {
	f, err := scenario.Load("knobs.yaml", []byte(allKnobsYAML))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	out, err := scenario.Export(s, scenario.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Load("exported.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := back.Scenarios[0].Lock; !reflect.DeepEqual(got, s.Lock) {
		t.Fatalf("lost in export:\n got %+v\nwant %+v\n%s", got, s.Lock, out)
	}
	k := build.ModelConfig(s, scenario.Options{}).Lock
	want := model.ClientKnobs{Wait: 3 * time.Second, DriverRetries: 4, DriverSkipsLock: true,
		FairTimeout: 700 * time.Millisecond, CheckBeforeWrite: true, Notify: model.NotifyPubSub}
	if k.Knobs != want || !k.Watchdog.RetryOnFailure {
		t.Errorf("model knobs %+v (watchdog %+v), want %+v and RetryOnFailure", k.Knobs, *k.Watchdog, want)
	}
	// lock_commands defaults to true: the driver resends every command.
	f, err = scenario.Load("knobs.yaml", []byte(strings.Replace(allKnobsYAML, ", lock_commands: false", "", 1)))
	if err != nil || !f.Scenarios[0].Lock.Driver.LockCommands {
		t.Errorf("driver without lock_commands: %v, %+v", err, f.Scenarios[0].Lock.Driver)
	}
}

// Each bad knob is one FILE:LINE:COL line naming the field and its range.
func TestKnobErrors(t *testing.T) {
	cases := []struct{ old, new, pos, phrase string }{
		{"      wait: 3s\n", "      wait: -1s\n", "12:13", "lock.wait must be between 0s and 24h (got -1s)"},
		{"      fair: true\n", "", "13:21", "lock.fair_timeout is the place of a waiter of a fair lock"},
		{"      fair_timeout: 700ms\n", "      fair_timeout: 25h\n", "14:21", "lock.fair_timeout must be between 0s and 24h"},
		{"on_failure: retry", "on_failure: again", "9:44", `unknown watchdog.on_failure "again" (allowed: stop, retry)`},
		{"retries: 4", "retries: 17", "13:25", "driver.retries must be between 0 and 16 (got 17)"},
		{"retries: 4, ", "", "13:7", "driver.retries is required"},
		{"notify: pubsub", "notify: push", "16:15", `unknown lock.notify "push" (allowed: poll, pubsub)`},
		{"check_before_write: true", "check_before_write: maybe", "15:27", "lock.check_before_write must be true or false"},
	}
	for _, c := range cases {
		if !strings.Contains(allKnobsYAML, c.old) {
			t.Fatalf("edit %q not in the file", c.old)
		}
		_, err := scenario.Load("knobs.yaml", []byte(strings.Replace(allKnobsYAML, c.old, c.new, 1)))
		scenario.CheckError(t, c.phrase, err, "knobs.yaml:"+c.pos+": ", c.phrase)
	}
	// Two that need a smaller file: without notify: pubsub lock.wait needs
	// lock.retry; notify: pubsub needs the check-and-delete release.
	_, err := scenario.Load("knobs.yaml", []byte(strings.Replace(waitYAML, "      retry: {attempts: 1000, delay: 100ms}\n", "", 1)))
	scenario.CheckError(t, "wait without retry", err, "knobs.yaml:9:13: ", "lock.wait bounds the retries of lock.retry")
	_, err = scenario.Load("knobs.yaml", []byte(strings.Replace(notifyYAML, "strategy: lua-release", "strategy: set-del", 1)))
	scenario.CheckError(t, "notify under set-del", err, "knobs.yaml:9:15: ",
		"lock.notify: pubsub needs strategy lua-release; strategy set-del stores no owner to publish the release of")
	_, err = scenario.Load("knobs.yaml", []byte(strings.Replace(fencedLockYAML, "      fencing: token\n", "      fencing: token\n      regrant: true\n", 1)))
	scenario.CheckError(t, "regrant with a variant", err, "knobs.yaml:11:16: ", "lock.regrant is a variant of the plain SET NX acquire")
	_, err = scenario.Load("knobs.yaml", []byte(strings.Replace(waitYAML, "strategy: lua-release", "strategy: setnx-del\n      regrant: true", 1)))
	scenario.CheckError(t, "regrant under setnx-del", err, "knobs.yaml:8:16: ", "lock.regrant needs strategy set-del or lua-release")
}

const notifyYAML = `version: 1
scenarios:
  - name: notify
    duration: 1m
    lock:
      key: lock
      strategy: lua-release
      ttl: 30s
      notify: pubsub
      wait: 45s
    clients:
      - {name: A, work: 2s}
      - {name: B, start: 100ms, work: 1s}
`

// notify: pubsub is Redisson's wait for the release message (RedissonLock
// .tryLock: subscribe, then latch.tryAcquire(min(ttl, time))): B tries once,
// asks the key's PTTL, waits, and is woken by redis-1's message when A's
// unlock deletes the key; it gets the lock a round trip after the release.
// When a partition drops the message, B waits out the TTL it was given:
// the lock is free from 2 s, B takes it only at about 30 s.
func TestNotifyPubSub(t *testing.T) {
	grant := func(evs []sim.Event) time.Duration {
		for _, e := range evs {
			if e.Kind == "acquired" && e.Proc == "B" {
				return e.At
			}
		}
		return -1
	}
	_, evs := knobRun(t, notifyYAML, "", "")
	if n := countWith(eventsOf(evs, "", "cmd"), "B: SET lock B-1 NX"); n != 2 {
		t.Errorf("B made %d attempts, want 2 (the first, and one after the message)", n)
	}
	if len(eventsOf(evs, "redis-1", "publish")) != 1 || len(eventsOf(evs, "B", "notified")) != 1 {
		t.Errorf("publish %q, notified %q", eventsOf(evs, "redis-1", "publish"), eventsOf(evs, "B", "notified"))
	}
	if at := grant(evs); at < 2*time.Second || at > 2010*time.Millisecond {
		t.Errorf("B got the lock at %s, want a round trip after A's release at about 2s", sim.FormatTime(at))
	}
	cut := "      - {name: B, start: 100ms, work: 1s}\n    faults:\n      - at: 1900ms\n        isolate: {target: B, for: 200ms}\n"
	_, evs = knobRun(t, notifyYAML, "      - {name: B, start: 100ms, work: 1s}\n", cut)
	if at := grant(evs); at < 30*time.Second || at > 30100*time.Millisecond || len(eventsOf(evs, "B", "notified")) != 0 {
		t.Errorf("message dropped: B got the lock at %s (notified %q), want at the end of the TTL B was told, about 30s",
			sim.FormatTime(at), eventsOf(evs, "B", "notified"))
	}
	// Polling (no notify) takes the retry delay instead.
	_, evs = knobRun(t, notifyYAML, "      notify: pubsub\n", "      retry: {attempts: 100, delay: 700ms}\n")
	if at := grant(evs); at < 2100*time.Millisecond {
		t.Errorf("polling every 700ms: B got the lock at %s, want at its first poll after 2s", sim.FormatTime(at))
	}
}

const fencedLockYAML = `version: 1
scenarios:
  - name: fenced-lock
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 10s
      reentrant: true
      fencing: token
      retry: {attempts: 100, delay: 100ms}
    clients:
      - {name: A, work: 1s, nested: 2}
      - {name: B, start: 100ms, work: 1s}
`

// reentrant with fencing: token is Redisson's FencedLock: the acquire
// script INCRs the token on every acquisition, re-entries included
// (RedissonFencedLock.tryLockInnerAsync), so A's hold with two re-entries
// draws tokens 1, 2 and 3 and writes with 3, and B's grant carries 4.
func TestFencedLockCountsReentries(t *testing.T) {
	rep, evs := knobRun(t, fencedLockYAML, "", "")
	if !rep.Safe || rep.FencingRejections != 0 {
		t.Fatalf("safe %v, fencing rejections %d", rep.Safe, rep.FencingRejections)
	}
	if w := eventsOf(evs, "resource", "write"); len(w) != 2 || !strings.Contains(w[0], "A wrote counter = 1 [token 3]") ||
		!strings.Contains(w[1], "B wrote counter = 2 [token 4]") {
		t.Errorf("writes %q; want A's with token 3 (its third acquisition), B's with 4", w)
	}
	if n := countWith(eventsOf(evs, "", "cmd"), "A: EVAL <reentrant-fenced-acquire> 2 lock lock:fence A-1"); n != 3 {
		t.Errorf("A ran the FencedLock acquire %d times, want 3", n)
	}
}

// lock_commands: false is Redisson's driver: its lock and unlock scripts go
// out with evalWriteSyncedNoRetryAsync (RedissonLock.tryLockInnerAsync), so
// a lost acquire reply is not resent; the renewals still are. And why it
// matters for a reentrant lock: a resent acquire of the hash re-enters, so
// the count is 2 after one grant, the one release leaves the key held,
// and B waits for the TTL.
func TestDriverLockCommands(t *testing.T) {
	_, evs := knobRun(t, resendYAML, "driver: {retries: 3}", "driver: {retries: 3, lock_commands: false}")
	if n := len(eventsOf(evs, "A", "resend")); n != 0 {
		t.Errorf("lock_commands: false resent %d lock commands", n)
	}
	reent := strings.Replace(resendYAML, "      timeout: 1s\n", "      timeout: 1s\n      reentrant: true\n", 1)
	rep, evs := knobRun(t, reent, "", "")
	acq := eventsOf(evs, "", "acquired")
	if len(eventsOf(evs, "A", "resend")) != 1 || len(acq) == 0 || !strings.HasPrefix(acq[0], "acquired A-1") {
		t.Fatalf("reentrant resend: resends %q, grants %q; want A granted by its resend", eventsOf(evs, "A", "resend"), acq)
	}
	if n := countWith(eventsOf(evs, "", "cmd"), "A: EVAL <reentrant-release> 1 lock A-1 => (integer) 1"); n != 1 {
		t.Errorf("A's release ran %d times, want once (it counts the hash down from 2 to 1)", n)
	}
	if rep.MaxWait < 25*time.Second {
		t.Errorf("max wait %s: the double-counted hash should keep B out until A's key expires", rep.MaxWait)
	}
}

// lock.regrant is bsm/redislock's obtain.lua: its acquire grants again to
// the token the key already holds, so the driver's resend of A's acquire
// (the first send took the key, its reply came too late) is granted at
// once, where plain SET NX answers nil and costs a whole TTL
// (TestDriverResendOfSetNX).
func TestRegrantMakesTheResendHarmless(t *testing.T) {
	regrant := strings.Replace(resendYAML, "      timeout: 1s\n", "      timeout: 1s\n      regrant: true\n", 1)
	f, err := scenario.Load("regrant.yaml", []byte(regrant))
	if err != nil {
		t.Fatal(err)
	}
	out, err := scenario.Export(f.Scenarios[0], scenario.Options{}, nil)
	if back, lerr := scenario.Load("exported.yaml", out); err != nil || lerr != nil || !back.Scenarios[0].Lock.Regrant ||
		!build.ModelConfig(back.Scenarios[0], scenario.Options{}).Lock.Knobs.Regrant {
		t.Fatalf("lock.regrant lost in export or on the way to the model: %v %v\n%s", err, lerr, out)
	}
	rep, evs := knobRun(t, regrant, "", "")
	cmds := eventsOf(evs, "", "cmd")
	if countWith(cmds, "A: EVAL <regrant-acquire> 1 lock A-1 30000 => (integer) 1") != 2 {
		t.Errorf("A's acquires: %q; want the first and its resend both granted", cmds[:min(3, len(cmds))])
	}
	acq := eventsOf(evs, "", "acquired")
	if len(acq) != 2 || !strings.HasPrefix(acq[0], "acquired A-1") || rep.MaxWait > 2*time.Second || !rep.Safe {
		t.Errorf("grants %q, max wait %s, safe %v; want A at about 1s, then B, no TTL-long wait", acq, rep.MaxWait, rep.Safe)
	}
}
