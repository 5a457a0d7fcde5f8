package harness_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep-sim/lockstep/harness"
	"github.com/lockstep-sim/lockstep/harness/goredis"
	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
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
	log   *errLog // every error a command returned, when set
	name  string
}

func newSetDel(blind bool) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		return &setDel{rc: redis.NewClient(goredis.Options(c, c.Nodes()[0])), key: c.Key(), ttl: 30 * time.Second, blind: blind, val: c.Name(), name: c.Name()}
	}
}

var errNotTaken = errors.New("not taken")

func (l *setDel) Lock(ctx context.Context) error {
	l.n++
	v := fmt.Sprintf("%s:%d", l.name, l.n)
	for range 40 {
		ok, err := l.rc.SetNX(ctx, l.key, v, l.ttl).Result()
		if l.log != nil {
			l.log.add(l.name, err)
		}
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

// errLog records the errors each client's lock calls returned.
type errLog struct {
	mu   sync.Mutex
	errs map[string][]string
}

func (e *errLog) add(name string, err error) {
	if err == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.errs == nil {
		e.errs = map[string][]string{}
	}
	e.errs[name] = append(e.errs[name], err.Error())
}

func (e *errLog) any(name, substr string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.errs[name] {
		if strings.Contains(s, substr) {
			return true
		}
	}
	return false
}

// logged wraps a lock so that its errors are recorded.
type logged struct {
	harness.Locker
	name string
	log  *errLog
}

func (l logged) Lock(ctx context.Context) error {
	err := l.Locker.Lock(ctx)
	l.log.add(l.name, err)
	return err
}

func (l logged) Unlock(ctx context.Context) error {
	err := l.Locker.Unlock(ctx)
	l.log.add(l.name, err)
	return err
}

func (l logged) Close() error { return l.Locker.(io.Closer).Close() }

func withLog(f harness.Factory, log *errLog) harness.Factory {
	return func(c *harness.Client) harness.Locker {
		l := f(c)
		if sd, ok := l.(*setDel); ok {
			sd.log = log
		}
		return logged{l, c.Name(), log}
	}
}

const testFile = "testdata/harness.yaml"

func TestGCPauseBlindDelete(t *testing.T) {
	rep := harness.Run(t, harness.Config{Scenario: "gc-pause-wrong-delete",
		Expect: "safe: false\nwrong_releases: \">= 1\"\nacquired: 3"}, newSetDel(true))
	if rep.FirstViolation == "" || !strings.Contains(rep.FirstViolation, "B") {
		t.Errorf("FirstViolation %q does not explain B's overlap with A", rep.FirstViolation)
	}
}

// A checked release deletes only its own key: the pause still makes A
// and B overlap, but nobody deletes another's lock.
func TestGCPauseCheckedRelease(t *testing.T) {
	harness.Run(t, harness.Config{Scenario: "gc-pause-lua-release",
		Expect: "safe: false\nwrong_releases: 0\nviolations: \">= 1\""}, newSetDel(false))
}

// A node that crashes closes its connections (EOF) and refuses dials:
// A's Unlock and B's every attempt fail, and nobody acquires after 1s.
func TestNodeCrashRefusesDials(t *testing.T) {
	log := &errLog{}
	harness.Run(t, harness.Config{File: testFile, Scenario: "crash-for-good",
		Expect: "acquired: 1\nsafe: true"}, withLog(newSetDel(false), log))
	if !log.any("B", "connection refused") {
		t.Errorf("B's lock never saw a refused dial: %v", log.errs["B"])
	}
	if len(log.errs["A"]) == 0 {
		t.Errorf("A's Unlock after the crash succeeded")
	}
}

// A partition is silence, dials included: B's dials time out until the
// cut heals at 10s, then B gets the lock.
func TestPartitionIsSilence(t *testing.T) {
	rep := harness.Run(t, harness.Config{File: testFile, Scenario: "partitioned",
		Expect: "acquired: 2\nsafe: true"}, newSetDel(false))
	if !strings.Contains(string(rep.TraceJSONL()), `"proc":"B","kind":"request-lost"`) {
		t.Errorf("B's dial was not lost in the partition")
	}
	if rep.MaxWait < 8*time.Second {
		t.Errorf("B waited %s for the lock; the cut lasts until 10s", rep.MaxWait)
	}
}

// Dial names a shard and reaches its master at the time of the dial,
// while a connection keeps the node it reached: after the failover B's
// dial reaches the promoted replica, A's second hold goes over its old
// connection to the cut-off old master, and both hold the lock (split
// brain).
func TestDialReachesCurrentMaster(t *testing.T) {
	rep := harness.Run(t, harness.Config{File: testFile, Scenario: "split", Quorum: 1,
		Expect: "safe: false\nacquired: 3"}, newSetDel(false))
	tr := string(rep.TraceJSONL())
	for _, want := range []string{
		`"msg":"B connects to redis-1-r1 (connection B>redis-1-r1#1)"`,
		`"proc":"redis-1","kind":"cmd","msg":"A: set lock:t A:2 ex 30 nx => OK"`, // the old master grants A's second hold
	} {
		if !strings.Contains(tr, want) {
			t.Errorf("the trace lacks %s", want)
		}
	}
	if strings.Contains(tr, "A connects to redis-1-r1") {
		t.Errorf("A dialled again: its first connection should have stayed with redis-1")
	}
}

// A command lockstep cannot simulate gets an error reply naming it.
func TestUnsupportedCommandNamed(t *testing.T) {
	var got error
	harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, func(c *harness.Client) harness.Locker {
		rc := redis.NewClient(goredis.Options(c, c.Nodes()[0]))
		return lockFunc{rc, func(ctx context.Context) error {
			got = rc.BLPop(ctx, time.Second, "q").Err()
			return nil
		}}
	})
	if got == nil || !strings.Contains(got.Error(), "cannot simulate BLPOP") {
		t.Fatalf("BLPOP gave %v; want an error naming BLPOP", got)
	}
}

// lockFunc is a Locker whose Lock is a function and whose Unlock does nothing.
type lockFunc struct {
	rc   *redis.Client
	lock func(context.Context) error
}

func (l lockFunc) Lock(ctx context.Context) error { return l.lock(ctx) }
func (l lockFunc) Unlock(context.Context) error   { return nil }
func (l lockFunc) Close() error                   { return l.rc.Close() }

// WriteTrace writes the trace file of run --trace (docs/trace-format.md),
// which lockstep check judges to the run's own metrics and the TUI's trace
// player opens; it never overwrites.
func TestWriteTraceNeverOverwrites(t *testing.T) {
	rep := harness.Run(t, harness.Config{File: testFile, Scenario: "one-hold"}, newSetDel(false))
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := rep.WriteTrace(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte(`{"type":"header","format":"lockstep-trace","version":1,"scenario":"one-hold"`)) {
		t.Fatalf("the trace file starts %.80q (%v)", b, err)
	}
	reps, err := tracefile.CheckHistory(path, bytes.NewReader(b), nil)
	if err != nil || len(reps) != 1 {
		t.Fatalf("check of the harness's trace: %v (%d reports)", err, len(reps))
	}
	if got := reps[0]; got.Metrics != rep.Metrics || got.TraceHash != rep.TraceHash {
		t.Fatalf("check judged %+v hash %s; the run had %+v hash %s", got.Metrics, got.TraceHash, rep.Metrics, rep.TraceHash)
	}
	ts, err := tracelog.Read(path, bytes.NewReader(b))
	if err != nil || len(ts) != 1 {
		t.Fatalf("reading the harness's trace: %v", err)
	}
	for _, e := range ts[0].Events {
		if e.ID == "" {
			t.Errorf("a harness trace line has no message id: %s %s %q", e.Proc, e.Kind, e.Msg)
		}
	}
	p, err := tracefile.OpenTrace(path, bytes.NewReader(b), "")
	if err != nil {
		t.Fatalf("the TUI's trace player refuses the harness's trace: %v", err)
	}
	p.Close()
	if err := rep.WriteTrace(path); !errors.Is(err, safefile.ErrExists) {
		t.Fatalf("a second WriteTrace gave %v; want safefile.ErrExists", err)
	}
}

// A crashed client's connections close and its dials are refused; its
// key outlives it until the TTL, then B gets the lock. Nothing overlaps.
// A's lock renews its key every second from a goroutine of its own (as a
// watchdog would): only the crash closing A's connections stops that, so
// a crash that left them open would keep B out for good.
func TestClientCrash(t *testing.T) {
	log := &errLog{}
	rep := harness.Run(t, harness.Config{File: testFile, Scenario: "client-crash",
		Expect: "safe: true\nacquired: 2"}, withLog(func(c *harness.Client) harness.Locker {
		l := newSetDel(false)(c).(*setDel)
		if c.Name() == "A" {
			return &renewing{setDel: l, ctx: c.Context(), log: log}
		}
		return l
	}, log))
	if rep.MaxWait < 28*time.Second {
		t.Errorf("B waited %s: A's 30s key should have kept it out until it expired", rep.MaxWait)
	}
	if !log.any("A", "this client has crashed") {
		t.Errorf("A's renewals after its crash never failed for it: %.300v", log.errs["A"])
	}
}

// renewing is setDel with a watchdog: after each Lock, a goroutine renews
// the key every second until Unlock or the end of the run.
type renewing struct {
	*setDel
	ctx  context.Context
	log  *errLog
	stop chan struct{}
	done chan struct{}
}

var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func (l *renewing) Lock(ctx context.Context) error {
	if err := l.setDel.Lock(ctx); err != nil {
		return err
	}
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-l.ctx.Done():
				return
			case <-tick.C:
				err := renewScript.Run(l.ctx, l.rc, []string{l.key}, l.val, l.ttl.Milliseconds()).Err()
				l.log.add(l.name, err)
			}
		}
	}()
	return nil
}

func (l *renewing) Unlock(ctx context.Context) error {
	close(l.stop)
	<-l.done
	return l.setDel.Unlock(ctx)
}

// Close waits for the renewer (a crashed client's Unlock never comes).
func (l *renewing) Close() error {
	if l.done != nil {
		<-l.done
	}
	return l.setDel.Close()
}

// A hung work thread stalls the hold loop past the TTL: B gets the lock
// while A still believes it holds it.
func TestClientHang(t *testing.T) {
	harness.Run(t, harness.Config{File: testFile, Scenario: "client-hang",
		Expect: "safe: false\nviolations: 1\nacquired: 2"}, newSetDel(false))
}

// stealer is a broken lock: it deletes whatever holds the key, then takes
// it.
type stealer struct{ *setDel }

func (l stealer) Lock(ctx context.Context) error {
	if err := l.rc.Del(ctx, l.key).Err(); err != nil {
		return err
	}
	return l.setDel.Lock(ctx)
}

// The judge follows A's grant to the promoted replica by its value (the
// key came there by replication), so B's DEL of it is a wrong release,
// although A's value is no "<client>-<n>" token of lockstep's.
func TestWrongReleaseOfReplicatedKey(t *testing.T) {
	harness.Run(t, harness.Config{File: testFile, Scenario: "promoted-key", Quorum: 1,
		Expect: "wrong_releases: 1\nsafe: false"}, func(c *harness.Client) harness.Locker {
		l := newSetDel(false)(c).(*setDel)
		if c.Name() == "B" {
			return stealer{l}
		}
		return l
	})
}

// WAIT is simulated with the replicas' acknowledgements: after a SET it
// answers 1 once the replica 50ms behind has the write.
func TestWaitCountsReplicaAcks(t *testing.T) {
	var acked int64
	var took time.Duration
	harness.Run(t, harness.Config{File: testFile, Scenario: "wait-replica", Quorum: 1}, func(c *harness.Client) harness.Locker {
		l := newSetDel(false)(c).(*setDel)
		return lockFunc{l.rc, func(ctx context.Context) error {
			if err := l.Lock(ctx); err != nil {
				return err
			}
			start := time.Now()
			n, err := l.rc.Wait(ctx, 1, time.Second).Result()
			acked, took = n, time.Since(start)
			return err
		}}
	})
	if acked != 1 || took < 50*time.Millisecond || took > 200*time.Millisecond {
		t.Errorf("WAIT 1 answered %d after %s; want 1 once the 50ms-late replica acked", acked, took)
	}
}
