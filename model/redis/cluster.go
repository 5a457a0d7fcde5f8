// Package redis is the Redis side of the model: nodes (a store.Store plus
// role, clock, persistence and crash), the shards they form, asynchronous
// replication between them, failure detection (a per-replica watcher or
// Redis Sentinel) and failover, and the node faults (crash, restart, clock
// jump and drift). It knows nothing of locks or clients: what a fault does
// to the lock is the judge's business, told through an Observer.
package redis

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// Effect, Expiry and KeyInfo are the store's, as the node's API speaks them.
type (
	Effect  = store.Effect
	Expiry  = store.Expiry
	KeyInfo = store.KeyInfo
	// RedisError is an error reply from Redis.
	RedisError = store.RedisError
)

// Config describes the Redis deployment.
type Config struct {
	Masters        int
	Replicas       int // per master
	ReplicationLag time.Duration
	FailoverAfter  time.Duration
	// Sentinels, when > 0, decide failovers as Redis Sentinel does: that
	// many sentinel processes (sentinel-1..N) on the network, a majority of
	// which must agree the master is unreachable for FailoverAfter. 0: each
	// replica watches its own master (sentinel.go).
	Sentinels    int
	Persistence  string // none | everysec | always
	RestartDelay time.Duration
	Monotonic    bool // expire keys by a monotonic clock instead of the wall clock
	// LuaInterpreted runs every script in miniredis's Lua interpreter
	// instead of the Go fast path (--lua=interpreted); the outcome is the
	// same, only slower. Copied into each NodeConfig.
	LuaInterpreted bool
	// MinReplicasToWrite and MinReplicasMaxLag are Redis's
	// min-replicas-to-write and min-replicas-max-lag on every master
	// (acks.go). ReplicaAcks makes replicas send REPLCONF ACK once a second
	// (needed by both it and WAIT; off, no ack is simulated and runs stay
	// what they were before acks existed).
	MinReplicasToWrite int
	MinReplicasMaxLag  time.Duration
	ReplicaAcks        bool
	// MaxmemoryPolicy is every node's maxmemory-policy ("": noeviction),
	// which decides whether an evict fault may take the lock key (evict.go).
	MaxmemoryPolicy string
	// Version is the Redis major version of every node: 7 (0 too) sends
	// replicas absolute expiries (PXAT), 6 relative ones (version.go).
	Version int
}

// Observer hears of the node events that may end, move or undermine a
// grant of a lock, after the cluster has traced them.
type Observer interface {
	Restarted(n *Node)
	FailedOver(old, promoted *Node)
	Resynced(replica, master *Node)
	NodeClockJumped(n *Node, by time.Duration, expired []Expiry)
	NodeClockDrifted(n *Node, rate float64)
	// Replicated: replica applied effs, one command's writes on master.
	Replicated(replica, master *Node, effs []Effect)
}

// Cluster is the Redis deployment of one run: its shards, their nodes and
// the links between them, on the run's kernel and network.
type Cluster struct {
	K      *sim.Kernel
	Net    *sim.Network
	Cfg    Config
	Shards []*Shard
	Nodes  []*Node // every node, masters and replicas, in name order
	// Sentinels are the names of the sentinel processes (Config.Sentinels):
	// they hold no data and only watch, so they are names on the network.
	Sentinels []string
	obs       Observer
}

// Shard is one independent Redis master and its replicas. After a failover
// Master is the promoted replica.
type Shard struct {
	Index    int // 0-based; the node names count from 1
	Master   *Node
	Replicas []*Node // current replicas, in promotion order
	// Stale are former masters replaced by a failover they have not learnt
	// about yet (down, or cut off from the new master): they still accept
	// writes from the clients that reach them, and rejoin as replicas once
	// they can reach the new master.
	Stale []*Node
	// odown is the sentinels' agreement that Master is down, sdown each
	// sentinel's own view (Sentinels > 0).
	odown   sentinelWatch
	sdown   []bool
	sdownOf *Node // the master sdown is about: a failover starts them afresh
}

// NewCluster builds cfg's shards, each master with its replicas attached
// (all empty), and its sentinels' names.
func NewCluster(k *sim.Kernel, net *sim.Network, cfg Config, obs Observer) *Cluster {
	w := &Cluster{K: k, Net: net, Cfg: cfg, obs: obs}
	for i := 0; i < max(cfg.Masters, 1); i++ {
		sh := &Shard{Index: i}
		sh.Master = w.addNode(MasterName(i + 1))
		for j := 0; j < cfg.Replicas; j++ {
			r := w.addNode(ReplicaName(i+1, j+1))
			w.attachReplica(r, sh.Master, false) // both empty: nothing to copy
			sh.Replicas = append(sh.Replicas, r)
		}
		w.Shards = append(w.Shards, sh)
	}
	for i := 0; i < cfg.Sentinels; i++ {
		w.Sentinels = append(w.Sentinels, SentinelName(i+1))
	}
	if cfg.ReplicaAcks {
		w.startAcks()
	}
	return w
}

func (w *Cluster) addNode(name string) *Node {
	n := NewNode(NodeConfig{
		Name:           name,
		Monotonic:      w.Cfg.Monotonic,
		Persistence:    w.Cfg.Persistence,
		RestartDelay:   w.Cfg.RestartDelay,
		LuaInterpreted: w.Cfg.LuaInterpreted,

		MinReplicasToWrite: w.Cfg.MinReplicasToWrite,
		MinReplicasMaxLag:  w.Cfg.MinReplicasMaxLag,
		Version:            w.Cfg.Version,
	})
	n.emit, n.tell = w.Emit, w.Tell
	n.id = len(w.Nodes)
	w.Nodes = append(w.Nodes, n)
	return n
}

// Now is the true simulated time.
func (w *Cluster) Now() time.Duration { return w.K.Now() }

// Tell adds a trace line of message id (model/tracemsg), its text rendered
// from the catalogue's template and args.
func (w *Cluster) Tell(proc, kind, id string, args ...sim.Arg) {
	tracemsg.Emit(w.K, proc, kind, id, args...)
}

// Emit adds a trace line at the current true time.
func (w *Cluster) Emit(proc, kind, format string, args ...any) {
	w.K.Emit(proc, kind, format, args...)
}

// Release gives every node's store back for reuse (store.Release): the
// run is over and the cluster must not be used again.
func (w *Cluster) Release() {
	for _, n := range w.Nodes {
		n.Release()
	}
}
