package redis

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// A replica 20s ahead of its master: under Redis 7 (absolute PXAT) it
// loses a 30s key 20s early; under Redis 6 (relative PX, counted when it
// applies the write) it keeps it 30s from then. 0 is 7.
func TestReplicaExpiryByVersion(t *testing.T) {
	for _, c := range []struct {
		version int
		until   time.Duration // the replica's last instant with the key (Redis keeps it while now <= expiry)
	}{
		{0, 10*time.Second + time.Millisecond},
		{7, 10*time.Second + time.Millisecond},
		{6, 30*time.Second + 11*time.Millisecond},
	} {
		k := sim.NewKernel(1)
		net := k.NewNetwork(time.Millisecond, 0)
		cl := NewCluster(k, net, Config{Masters: 1, Replicas: 1, ReplicationLag: 10 * time.Millisecond, Version: c.version}, nopObserver{})
		r := cl.Shards[0].Replicas[0]
		r.JumpClock(0, 20*time.Second)
		k.RunUntil(time.Millisecond)
		if err := write(cl, "SET", "lock", "A", "PX", "30000"); err != nil {
			t.Fatal(err)
		}
		k.RunUntil(c.until)
		if !r.Exists(k.Now(), "lock") {
			t.Errorf("version %d: the replica lost the key by %v", c.version, c.until)
		}
		k.RunUntil(c.until + time.Millisecond)
		if r.Exists(k.Now(), "lock") {
			t.Errorf("version %d: the replica still has the key after %v", c.version, c.until)
		}
	}
}
