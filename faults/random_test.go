package faults

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// randomSchedule draws n faults of every kind on a world with replicas.
func randomSchedule(r *rand.Rand, n int) []Fault {
	nodes := []string{"redis-1", "redis-1-r1", "redis-1-r2"}
	procs := append([]string{"A", "B", "C"}, nodes...)
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	dur := func(max time.Duration) time.Duration { return time.Duration(r.Int64N(int64(max))) + time.Millisecond }
	var fs []Fault
	for i := 0; i < n; i++ {
		f := Fault{At: dur(20 * time.Second)}
		switch r.IntN(9) {
		case 0:
			f.Kind, f.Target, f.For = Pause, pick([]string{"A", "B", "C"}), dur(10*time.Second)
		case 1:
			f.Kind, f.Target, f.For = Hang, pick([]string{"A", "B", "C"}), dur(10*time.Second)
		case 2:
			f.Kind, f.Target = Crash, pick(procs)
			if r.IntN(2) == 0 {
				f.RestartAfter = dur(5 * time.Second)
			}
		case 3:
			f.Kind, f.Target = Failover, pick(nodes)
		case 4:
			f.Kind, f.Target, f.By = ClockJump, pick(procs), dur(40*time.Second)-20*time.Second
		case 5:
			f.Kind, f.Target, f.Rate = ClockDrift, pick(procs), 0.25+r.Float64()*3
		case 6:
			perm := r.Perm(len(procs))
			cut := 1 + r.IntN(len(procs)-1)
			var g1, g2 []string
			for j, p := range perm {
				if j < cut {
					g1 = append(g1, procs[p])
				} else {
					g2 = append(g2, procs[p])
				}
			}
			f.Kind, f.Groups, f.For = Partition, [][]string{g1, g2}, dur(10*time.Second)
		case 7:
			f.Kind, f.Target, f.For = Isolate, pick(procs), dur(10*time.Second)
		case 8:
			f.Kind, f.Target, f.For, f.Latency, f.Loss = Slow, pick(procs), dur(10*time.Second), dur(100*time.Millisecond), r.Float64()/2
		}
		fs = append(fs, f)
	}
	return fs
}

// runRandom plays one random schedule and returns the trace hash.
func runRandom(t *testing.T, seed uint64) (uint64, model.Metrics) {
	r := rand.New(rand.NewPCG(seed, 7))
	persist := []string{model.PersistNone, model.PersistEverysec, model.PersistAlways}[r.IntN(3)]
	cfg := model.Config{
		Seed: seed, Duration: 40 * time.Second, Latency: time.Millisecond, Jitter: time.Millisecond,
		Nodes: model.NodesConfig{Masters: 1, Replicas: 2, ReplicationLag: time.Duration(r.IntN(500)) * time.Millisecond,
			FailoverAfter: time.Duration(r.IntN(3)) * time.Second, Persistence: persist,
			RestartDelay: time.Duration(r.IntN(2)) * time.Second, Monotonic: r.IntN(2) == 0},
		Lock: model.LockConfig{Key: "lock:x", Strategy: model.StrategyLuaRelease, TTL: 5 * time.Second, Timeout: 200 * time.Millisecond,
			Watchdog: &model.WatchdogConfig{Every: 2 * time.Second},
			Retry:    &model.RetryConfig{Attempts: 50, Delay: 300 * time.Millisecond, Backoff: 1, Jitter: 0.3}},
	}
	if r.IntN(2) == 0 {
		cfg.Lock.Fencing = "token"
	}
	for _, name := range []string{"A", "B", "C"} {
		cfg.Clients = append(cfg.Clients, model.ClientConfig{Name: name, Start: time.Duration(r.IntN(3000)) * time.Millisecond,
			Holds: 1 + r.IntN(3), Work: time.Duration(500+r.IntN(5000)) * time.Millisecond, Think: 100 * time.Millisecond})
	}
	w, err := model.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	Schedule(w, randomSchedule(r, 1+r.IntN(8)))
	w.K.RunUntil(cfg.Duration)
	w.Finish()
	return w.K.Trace().Hash(), w.Chk.Metrics()
}

// TestRandomFaultSchedules: any mix of faults runs without a panic, and the
// same seed gives the same trace.
func TestRandomFaultSchedules(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			a, _ := runRandom(t, seed)
			b, _ := runRandom(t, seed)
			if a != b {
				t.Fatalf("seed %d: two runs differ", seed)
			}
		})
	}
}
