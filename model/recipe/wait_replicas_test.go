package recipe_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// waitWorld is one client taking a Lua-release lock once on a master with
// one replica, with lock.wait_replicas {1, 100ms} and a single attempt.
func waitWorld(t *testing.T) *model.World {
	t.Helper()
	w, err := model.NewWorld(model.Config{
		Seed: 1, Duration: time.Minute, Latency: time.Millisecond,
		Nodes: model.NodesConfig{Masters: 1, Replicas: 1, ReplicationLag: 10 * time.Millisecond, ReplicaAcks: true},
		Lock: model.LockConfig{Key: key, Strategy: model.StrategyLuaRelease, TTL: 30 * time.Second, Timeout: time.Second,
			WaitReplicas: &model.WaitReplicasConfig{Replicas: 1, Timeout: 100 * time.Millisecond}},
		Clients: []model.ClientConfig{{Name: "A", Holds: 1, Work: time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// With its replica acking, the grant stands; with the replica cut off,
// WAIT answers 0, the client releases the key it was granted and the
// attempt fails.
func TestWaitReplicasGrantOrRelease(t *testing.T) {
	for _, cut := range []bool{false, true} {
		w := waitWorld(t)
		if cut {
			w.Net.Isolate("redis-1-r1")
		}
		for !w.Done() && w.K.Step() {
		}
		m := w.Chk.Metrics()
		switch {
		case !cut && (m.Acquired != 1 || m.FailedAcquires != 0):
			t.Errorf("replica acking: acquired %d, failed %d; want 1, 0", m.Acquired, m.FailedAcquires)
		case cut && (m.Acquired != 0 || m.FailedAcquires != 1):
			t.Errorf("replica cut off: acquired %d, failed %d; want 0, 1", m.Acquired, m.FailedAcquires)
		}
		if keys := w.Shards[0].Master.Keys(w.Now()); len(keys) != 0 {
			t.Errorf("cut=%v: the lock key is still on the master: %v", cut, keys)
		}
	}
}
