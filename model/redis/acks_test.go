package redis

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

type nopObserver struct{}

func (nopObserver) Restarted(*Node)                                {}
func (nopObserver) FailedOver(_, _ *Node)                          {}
func (nopObserver) Resynced(_, _ *Node)                            {}
func (nopObserver) NodeClockJumped(*Node, time.Duration, []Expiry) {}
func (nopObserver) NodeClockDrifted(*Node, float64)                {}
func (nopObserver) Replicated(_, _ *Node, _ []Effect)              {}

// ackWorld is one master with one replica, 1 ms links, 10 ms replication
// lag and replica acks on.
func ackWorld(minReplicas int, lag time.Duration) (*sim.Kernel, *sim.Network, *Cluster) {
	k := sim.NewKernel(1)
	net := k.NewNetwork(time.Millisecond, 0)
	c := NewCluster(k, net, Config{Masters: 1, Replicas: 1, ReplicationLag: 10 * time.Millisecond,
		MinReplicasToWrite: minReplicas, MinReplicasMaxLag: lag, ReplicaAcks: true}, nopObserver{})
	net.OnChange(c.NetChanged)
	return k, net, c
}

// write runs a command on the master at its true time and replicates it,
// as the world does; it returns the error reply.
func write(c *Cluster, args ...string) error {
	m := c.Shards[0].Master
	_, err := m.Do(c.Now(), "client", args...)
	c.Ship(m, m.TakeEffects())
	return err
}

// A master counts a replica good while its last ack (once a second, over
// the network) is at most max_lag whole seconds old, recounting in its
// once-a-second cron; an isolation drops the acks, the master refuses
// writes and scripts' writes with NOREPLICAS, and the cron after the first
// ack that follows the heal lifts it.
func TestMinReplicasFollowsAcks(t *testing.T) {
	k, net, c := ackWorld(1, time.Second)
	type step struct {
		at      time.Duration
		args    []string
		refused bool
	}
	var iso int
	k.At(1500*time.Millisecond, func() { iso = net.Isolate("redis-1-r1") }) // the 1s ack got through
	k.At(4200*time.Millisecond, func() { net.Heal(iso) })
	release := []string{"EVAL", "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", "1", "k", "nobody"}
	steps := []step{
		{500 * time.Millisecond, []string{"SET", "k", "v1"}, false},
		{2500 * time.Millisecond, []string{"SET", "k", "v2"}, false}, // lag 2-1 = 1s: still good
		{3 * time.Second, []string{"SET", "k", "v3"}, true},          // lag 2s
		{3100 * time.Millisecond, []string{"EVAL", "return redis.call('set', KEYS[1], 'x')", "1", "k"}, true},
		{3200 * time.Millisecond, release, false},                    // a script that writes nothing runs
		{4500 * time.Millisecond, []string{"SET", "k", "v4"}, true},  // healed, but no ack since 1s
		{5500 * time.Millisecond, []string{"SET", "k", "v5"}, true},  // the 5s ack arrived after the 5s cron counted
		{6500 * time.Millisecond, []string{"SET", "k", "v6"}, false}, // the 6s cron counted it
	}
	for _, s := range steps {
		k.RunUntil(s.at)
		err := write(c, s.args...)
		if got := IsNoReplicas(err); got != s.refused {
			t.Errorf("at %v %v: err %v, want refused=%v", s.at, s.args[0], err, s.refused)
		}
	}
}

// A replica's crash closes its connection: its master stops counting it at
// once, without waiting for max_lag; a promoted replica with no replica of
// its own refuses writes at once.
func TestMinReplicasCrashAndPromotion(t *testing.T) {
	k, _, c := ackWorld(1, 10*time.Second)
	m, r := c.Shards[0].Master, c.Shards[0].Replicas[0]
	k.RunUntil(2 * time.Second)
	if err := write(c, "SET", "k", "v"); err != nil {
		t.Fatalf("with a fresh replica: %v", err)
	}
	c.CrashNode(r)
	if err := write(c, "SET", "k", "w"); !IsNoReplicas(err) {
		t.Fatalf("right after the replica crashed: %v, want NOREPLICAS", err)
	}
	c.RestartNode(r)
	k.RunUntil(3 * time.Second)
	if err := write(c, "SET", "k", "x"); err != nil {
		t.Fatalf("after the replica resynced: %v", err)
	}
	c.CrashNode(m)
	if _, err := c.Failover(0); err != nil {
		t.Fatal(err)
	}
	if err := write(c, "SET", "k", "y"); !IsNoReplicas(err) {
		t.Fatalf("on the promoted replica without replicas: %v, want NOREPLICAS", err)
	}
}

// Without min_replicas_to_write a master never refuses, acks or not.
func TestMinReplicasOffNeverRefuses(t *testing.T) {
	k, net, c := ackWorld(0, 0)
	net.Isolate("redis-1-r1")
	k.RunUntil(30 * time.Second)
	if err := write(c, "SET", "k", "v"); err != nil {
		t.Fatalf("refused without min_replicas_to_write: %v", err)
	}
}

// WAIT answers when the replica has acked every write before it (its
// GETACK travels behind them in the replication stream), and at the
// timeout with 0 when the replica is cut off.
func TestWaitAnsweredByAcks(t *testing.T) {
	k, net, c := ackWorld(0, 0)
	m := c.Shards[0].Master
	type answer struct {
		at    time.Duration
		acked int
	}
	var got []answer
	wait := func(timeout time.Duration) {
		if !c.Wait(m, 1, timeout, func(n int, err error) {
			if err != nil {
				t.Errorf("WAIT: %v", err)
			}
			got = append(got, answer{k.Now(), n})
		}) {
			t.Error("WAIT on a live master: no reply promised")
		}
	}
	k.At(100*time.Millisecond, func() {
		if err := write(c, "SET", "k", "v"); err != nil {
			t.Fatal(err)
		}
		wait(time.Second)
	})
	k.At(200*time.Millisecond, func() { wait(time.Second) }) // already acked: at once
	k.At(300*time.Millisecond, func() {
		net.Isolate("redis-1-r1")
		_ = write(c, "SET", "k", "w")
		wait(500 * time.Millisecond)
	})
	k.RunUntil(2 * time.Second)
	want := []answer{
		{111 * time.Millisecond, 1}, // GETACK due after the 10ms lag, ack 1ms back
		{200 * time.Millisecond, 1},
		{800 * time.Millisecond, 0},
	}
	if len(got) != len(want) {
		t.Fatalf("answers %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("answer %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// WAIT on a replica is an error; on a dead master no reply comes.
func TestWaitRefusals(t *testing.T) {
	_, _, c := ackWorld(0, 0)
	r := c.Shards[0].Replicas[0]
	var err error
	c.Wait(r, 1, time.Second, func(_ int, e error) { err = e })
	if err == nil {
		t.Error("WAIT on a replica: no error")
	}
	m := c.Shards[0].Master
	c.CrashNode(m)
	if c.Wait(m, 1, time.Second, func(int, error) { t.Error("a dead master replied") }) {
		t.Error("WAIT on a dead master promised a reply")
	}
}
