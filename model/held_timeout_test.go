package model_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// timeoutWorld is three clients on one node with a request timeout of
// 20ms, through every way a request can end: a reply in time; a link
// slowed past the timeout (the reply lands after it); a partition that
// drops requests at once and cuts others in flight; a crashed node that
// answers nothing; a client paused while its reply arrives; a client
// whose clock drifts while its requests are out; a client that crashes
// mid-request.
func timeoutWorld(t *testing.T, queued bool) *model.World {
	t.Helper()
	w, err := model.NewWorld(model.Config{
		Seed: 7, Duration: 10 * time.Second, Latency: 2 * time.Millisecond, Jitter: 3 * time.Millisecond,
		Nodes: model.NodesConfig{Masters: 1},
		Lock: model.LockConfig{Key: key, Strategy: model.StrategyLuaRelease, TTL: 200 * time.Millisecond, Timeout: 20 * time.Millisecond,
			Retry: &model.RetryConfig{Attempts: 1000, Delay: 5 * time.Millisecond, Backoff: 1, Jitter: 0.5}},
		Clients: []model.ClientConfig{{Name: "A", Holds: 400, Work: time.Millisecond}, {Name: "B", Holds: 400, Work: time.Millisecond},
			{Name: "C", Holds: 400, Work: time.Millisecond}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if queued {
		model.QueueTimeouts(w)
	}
	n, a, b, c := w.Nodes[0], w.Clients[0], w.Clients[1], w.Clients[2]
	k := w.K
	slow := 0
	k.At(300*time.Millisecond, func() { slow = w.Net.AddSlow(n.Name(), 9*time.Millisecond, 0) })
	k.At(600*time.Millisecond, func() { w.Net.EndSlow(slow) })
	var cut int
	k.At(900*time.Millisecond, func() { cut = w.Net.Isolate(n.Name()) })
	k.At(1100*time.Millisecond, func() { w.Net.Heal(cut) })
	k.At(1500*time.Millisecond, func() { w.CrashNode(n) })
	k.At(1700*time.Millisecond, func() { w.RestartNode(n) })
	k.At(2000*time.Millisecond, a.Pause)
	k.At(2030*time.Millisecond, a.Unpause)
	for i := range 40 { // drifts that meet requests in flight, some of them lost
		rate := 0.5 + float64(i%2)
		k.At(850*time.Millisecond+time.Duration(i)*7*time.Millisecond, func() { b.SetClockRate(rate) })
	}
	k.At(2900*time.Millisecond, b.Hang)
	k.At(2950*time.Millisecond, b.Unhang)
	k.At(3200*time.Millisecond, c.Crash)
	return w
}

// TestHeldTimeoutsKeepTheOrder: holding a request's timeout back from the
// kernel's queue while its request or reply is sure to land first
// (rpcCall.holdTimeout) changes nothing of the run: the same events in
// the same order, the same trace, against a world that queues every
// timeout when it is armed.
func TestHeldTimeoutsKeepTheOrder(t *testing.T) {
	var hash [2]uint64
	var steps [2]int
	for i, queued := range []bool{false, true} {
		w := timeoutWorld(t, queued)
		timeouts := 0
		w.K.Trace().Subscribe(func(e sim.Event) {
			if e.Kind == "timeout" {
				timeouts++
			}
		})
		w.K.RunUntil(w.Cfg.Duration)
		hash[i], steps[i] = w.K.Trace().Hash(), w.K.Steps()
		t.Logf("queued=%v: %d events, %d timeouts, %d acquired, now %s", queued, steps[i], timeouts, w.Chk.Metrics().Acquired, w.Now())
		if timeouts < 10 {
			t.Fatalf("queued=%v: %d timeouts; the world must time requests out in several ways", queued, timeouts)
		}
	}
	if hash[0] != hash[1] || steps[0] != steps[1] {
		t.Errorf("held timeouts: trace %x, %d events; queued at once: trace %x, %d events", hash[0], steps[0], hash[1], steps[1])
	}
}
