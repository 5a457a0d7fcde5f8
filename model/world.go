package model

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// World is one simulated run: a kernel, a network, Redis shards, clients,
// the resource they update and the checker that watches them.
type World struct {
	K       *sim.Kernel
	Net     *sim.Network
	Cfg     Config
	Shards  []*Shard
	Nodes   []*Node // every node, masters and replicas, in name order
	Clients []*Client
	Res     *Resource
	Chk     *Checker

	strategy Strategy
	byName   map[string]any // process name -> *Node or *Client
}

// Shard is one independent Redis master and its replicas. After a failover
// Master is the promoted replica.
type Shard struct {
	Index    int // 0-based; the node names count from 1
	Master   *Node
	Replicas []*Node // current replicas, in promotion order
}

// ResourceName is the process name of the fenced resource on the network.
const ResourceName = "resource"

// NewWorld builds a world from cfg and schedules every client's start. It
// fails only on a config that the scenario loader should have refused.
func NewWorld(cfg Config) (*World, error) {
	k := sim.NewKernel(cfg.Seed)
	w := &World{K: k, Net: k.NewNetwork(cfg.Latency, cfg.Jitter), Cfg: cfg, byName: map[string]any{}}
	st, err := newStrategy(cfg.Lock)
	if err != nil {
		return nil, err
	}
	w.strategy = st
	masters := cfg.Nodes.Masters
	if masters < 1 {
		masters = 1
	}
	for i := 0; i < masters; i++ {
		sh := &Shard{Index: i}
		sh.Master = w.addNode(fmt.Sprintf("redis-%d", i+1))
		for j := 0; j < cfg.Nodes.Replicas; j++ {
			r := w.addNode(fmt.Sprintf("redis-%d-r%d", i+1, j+1))
			r.SetReplica(true)
			sh.Replicas = append(sh.Replicas, r)
		}
		w.Shards = append(w.Shards, sh)
	}
	w.Res = newResource(w, cfg.Lock.Fencing)
	w.Chk = newChecker(w)
	for _, cc := range cfg.Clients {
		c := newClient(w, cc)
		w.Clients = append(w.Clients, c)
		w.byName[cc.Name] = c
	}
	for _, c := range w.Clients {
		c.start()
	}
	return w, nil
}

func (w *World) addNode(name string) *Node {
	n := NewNode(NodeConfig{
		Name:         name,
		Monotonic:    w.Cfg.Nodes.Monotonic,
		Persistence:  w.Cfg.Nodes.Persistence,
		RestartDelay: w.Cfg.Nodes.RestartDelay,
	})
	w.Nodes = append(w.Nodes, n)
	w.byName[name] = n
	return n
}

// Node returns the node with the given name, or nil.
func (w *World) Node(name string) *Node {
	n, _ := w.byName[name].(*Node)
	return n
}

// Client returns the client with the given name, or nil.
func (w *World) Client(name string) *Client {
	c, _ := w.byName[name].(*Client)
	return c
}

// Strategy is the lock strategy every client of the world runs.
func (w *World) Strategy() Strategy { return w.strategy }

// Now is the true simulated time.
func (w *World) Now() time.Duration { return w.K.Now() }

// Close ends every simulated thread; the world must not be used afterwards.
func (w *World) Close() { w.K.Close() }

// Done reports whether every client has finished or died: the run can end.
func (w *World) Done() bool {
	for _, c := range w.Clients {
		if !c.finished() {
			return false
		}
	}
	return true
}

// Finish closes the books at the end of the run: the checker's end-of-run
// metrics (stuck, open episodes) are computed from the world as it is now.
func (w *World) Finish() { w.Chk.finish() }

// Emit adds a trace line at the current true time.
func (w *World) Emit(proc, kind, format string, args ...any) {
	w.K.Emit(proc, kind, format, args...)
}

// Op says what a command means to the lock, so the checker can keep ground
// truth without parsing Lua.
type Op int

// Command meanings.
const (
	OpOther   Op = iota
	OpAcquire    // may create the lock key
	OpRelease    // may delete the lock key
	OpRenew      // may extend the lock key
)

// exec runs one command on a node at the current true time, on behalf of a
// client, keeping the checker's ground truth about who owns the lock key.
func (w *World) exec(n *Node, client string, op Op, args []string) (any, error) {
	now := w.K.Now()
	key := w.Cfg.Lock.Key
	track := op != OpOther
	var before bool
	if track {
		before = n.Exists(now, key)
	}
	reply, err := n.Do(now, client, args...)
	if track && err != ErrDown {
		after := n.Exists(now, key)
		w.Chk.keyChanged(n, client, op, before, after)
	}
	w.replicate(n)
	return reply, err
}

// replicate ships the effects of the last command on a master to its
// replicas, each applied replication_lag later over the network.
func (w *World) replicate(n *Node) {
	effs := n.TakeEffects()
	if len(effs) == 0 || n.IsReplica() {
		return
	}
	for _, sh := range w.Shards {
		if sh.Master != n {
			continue
		}
		for _, r := range sh.Replicas {
			r := r
			w.K.After(w.Cfg.Nodes.ReplicationLag, func() {
				if r.Up() && w.Net.Connected(n.Name(), r.Name()) {
					r.ApplyEffects(w.K.Now(), effs)
				}
			})
		}
	}
}

// masterFor is the node a client sends single-instance commands for shard i to.
func (w *World) masterFor(c *Client, i int) *Node { return w.Shards[i].Master }
