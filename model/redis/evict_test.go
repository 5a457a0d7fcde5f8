package redis

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

func evictWorld(policy string) (*sim.Kernel, *Cluster) {
	k := sim.NewKernel(1)
	net := k.NewNetwork(time.Millisecond, 0)
	c := NewCluster(k, net, Config{Masters: 1, Replicas: 1, ReplicationLag: 10 * time.Millisecond,
		MaxmemoryPolicy: policy, MinReplicasToWrite: 1, MinReplicasMaxLag: time.Second, ReplicaAcks: true}, nopObserver{})
	net.OnChange(c.NetChanged)
	return k, c
}

// The policy decides: noeviction never evicts, volatile-* only a key with
// a TTL, allkeys-* any key; an eviction reaches the replica as a DEL even
// while the master refuses clients' writes (NOREPLICAS).
func TestEvictByPolicy(t *testing.T) {
	for _, c := range []struct {
		policy  string
		ttl     bool
		refusal string // "" : evicted
	}{
		{"", true, "noeviction"},
		{PolicyNoEviction, true, "noeviction"},
		{PolicyVolatileLRU, true, ""},
		{PolicyVolatileTTL, false, "only keys with an expiry"},
		{PolicyAllKeysLRU, false, ""},
	} {
		k, cl := evictWorld(c.policy)
		m, r := cl.Shards[0].Master, cl.Shards[0].Replicas[0]
		args := []string{"SET", "lock", "A"}
		if c.ttl {
			args = append(args, "PX", "30000")
		}
		if err := write(cl, args...); err != nil {
			t.Fatal(err)
		}
		k.RunUntil(5 * time.Second)
		cl.Net.Isolate(r.Name())
		k.RunUntil(10 * time.Second) // no ack for 5s: clients' writes are refused
		if err := write(cl, "SET", "x", "y"); !IsNoReplicas(err) {
			t.Fatalf("%s: the master should refuse writes now, got %v", c.policy, err)
		}
		why := cl.Evict(m, "lock")
		switch {
		case c.refusal == "" && why != "":
			t.Errorf("%s (ttl %v): refused: %s", c.policy, c.ttl, why)
		case c.refusal != "" && !strings.Contains(why, c.refusal):
			t.Errorf("%s (ttl %v): %q, want a refusal naming %q", c.policy, c.ttl, why, c.refusal)
		}
		if gone := !m.Exists(k.Now(), "lock"); gone != (c.refusal == "") {
			t.Errorf("%s: key gone %v after Evict", c.policy, gone)
		}
	}
}

// A replica does not evict; the master's eviction reaches it.
func TestEvictReplicates(t *testing.T) {
	k, cl := evictWorld(PolicyAllKeysRandom)
	m, r := cl.Shards[0].Master, cl.Shards[0].Replicas[0]
	if err := write(cl, "SET", "lock", "A"); err != nil {
		t.Fatal(err)
	}
	k.RunUntil(100 * time.Millisecond)
	if why := cl.Evict(r, "lock"); !strings.Contains(why, "replica") {
		t.Errorf("Evict on a replica: %q", why)
	}
	if why := cl.Evict(m, "lock"); why != "" {
		t.Fatal(why)
	}
	k.RunUntil(200 * time.Millisecond)
	if r.Exists(k.Now(), "lock") {
		t.Error("the eviction did not reach the replica")
	}
	if why := cl.Evict(m, "lock"); !strings.Contains(why, "no key") {
		t.Errorf("Evict of a missing key: %q", why)
	}
}
