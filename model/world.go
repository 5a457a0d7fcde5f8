package model

import (
	"slices"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/model/slot"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// World is one simulated run: a kernel, a network, the Redis cluster,
// clients, the resource they update and the judge that watches them.
type World struct {
	K   *sim.Kernel
	Net *sim.Network
	Cfg Config
	// The Redis deployment: its Shards, Nodes and Sentinels, and the node
	// faults (CrashNode, RestartNode, Failover, JumpNodeClock, ...).
	*redis.Cluster
	Clients []*Client
	Res     *Resource
	Chk     *Checker

	strategy Strategy
	byName   map[string]any // process name -> *Node or *Client
	// cutSince is, for each client and node the network separates, since
	// when (for explanations). Looked up only; its order never reaches output.
	cutSince map[cutPair]time.Duration
	scratch  []byte                // reused to build trace messages (see cmdLine)
	calls    sim.FreeList[rpcCall] // finished RPCs, for reuse (see rpcCall)
	sleeps   sim.FreeList[sleep]   // finished Sleeps, for reuse
	// finishedN counts the clients that are done or crashed (kept by
	// Client.finish), so that Done costs nothing.
	finishedN int
	// covers are the faults on now, by kind and target (see Cover). Looked
	// up only; its order never reaches output.
	covers   map[string]*Cover
	tap      func(judge.Event) // sees what the judge is fed (see Tap)
	resCalls resourceCalls     // finished resource requests, for reuse (resource_call.go)
	probes   []probe           // per node (by Node.ID), the judge's look at its lock key
	waited   judge.Event       // the event clientWaited feeds, reused
	// noted sees the lines of noteKinds that Tell writes (NoteTold).
	noted     func(sim.Event)
	noteKinds []string
	// queueTimeouts queues every request's timeout when it is armed instead
	// of holding it back (rpcCall.holdTimeout): tests compare the two.
	queueTimeouts bool
}

// NewWorld builds a world from cfg and schedules every client's start. It
// fails only on a config that the scenario loader should have refused.
func NewWorld(cfg Config) (*World, error) {
	k := sim.NewKernel(cfg.Seed)
	w := &World{K: k, Net: k.NewNetwork(cfg.Latency, cfg.Jitter), Cfg: cfg, byName: map[string]any{},
		cutSince: map[cutPair]time.Duration{}}
	for _, l := range cfg.Links {
		w.Net.SetLink(l)
	}
	st, err := newStrategy(cfg.Lock)
	if err != nil {
		return nil, err
	}
	w.strategy = st
	w.Cluster = redis.NewCluster(k, w.Net, cfg.Nodes, observer{w})
	// The queue's room: about a request and a timer for each.
	k.QueueRoom(2 * (len(cfg.Clients) + len(w.Nodes)))
	w.probes = make([]probe, len(w.Nodes)) // one allocation; never grown, so &w.probes[i] stays
	for i, n := range w.Nodes {
		w.byName[n.Name()] = n
		w.probes[i] = probe{w, n}
	}
	// Topology changes are handled after the event that made them, so the
	// fault's own trace line comes before its effects.
	w.Net.OnChange(func() { k.At(k.Now(), w.netChanged) })
	w.Net.OnDrop(w.traceDrop)
	w.Res = newResource(w)
	w.startFencing()
	w.Chk = newChecker(w)
	for _, cc := range cfg.Clients {
		c := newClient(w, cc)
		c.id = len(w.Clients)
		for _, sh := range w.Shards {
			c.view = append(c.view, sh.Master)
		}
		w.Clients = append(w.Clients, c)
		w.byName[cc.Name] = c
	}
	for _, c := range w.Clients {
		c.start()
	}
	return w, nil
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

// Close ends every simulated thread and gives the nodes' stores back for
// reuse by the next world (store.Release); the world must not be used
// afterwards.
func (w *World) Close() {
	w.K.Close()
	w.Cluster.Release()
}

// Done reports whether every client has finished or died. The run still
// plays to its duration: what is pending then (a write in flight, a
// restart) still happens.
func (w *World) Done() bool { return w.finishedN == len(w.Clients) }

// Finish closes the books at the end of the run: the checker's end-of-run
// metrics (stuck, open episodes) are computed from the world as it is now.
func (w *World) Finish() { w.judgeFinish() }

// Emit adds a trace line at the current true time.
func (w *World) Emit(proc, kind, format string, args ...any) {
	w.K.Emit(proc, kind, format, args...)
}

// line starts a trace message in the world's reused buffer, for the hottest
// lines; emitLine records it. Built with append rather than fmt or string
// concatenation, it is only hashed unless a sink wants its text.
func (w *World) line() []byte { return w.scratch[:0] }

func (w *World) emitLine(proc, kind string, b []byte) {
	w.scratch = b // keep the grown buffer
	w.K.EmitBytes(proc, kind, b)
}

// sayLine is emitLine with a message id and its arguments beside the text
// (sim.Kernel.EmitID; docs/trace-format.md lists the ids). The arguments
// are built on the caller's stack and copied only when a sink keeps them.
func (w *World) sayLine(proc, kind, id string, b []byte, args ...sim.Arg) {
	w.scratch = b
	w.K.EmitID(proc, kind, id, args, b)
}

// sayCmd is the "cmd" line of a command node ran for client, for a run
// that reads it: its caller asks sim.Kernel.Unread(node, "cmd") first, so
// that a run nobody reads builds none of it (one is written for every
// command) and does not pass sayCmd its twelve words of arguments (on the
// stack, past the registers).
func (w *World) sayCmd(node, client string, args []string, reply any, err error) {
	b := w.cmdLine(client, args, reply, err)
	if !w.K.WantsArgs("cmd") { // hashed, but no sink reads the arguments
		w.sayLine(node, "cmd", "cmd", b)
		return
	}
	w.sayLine(node, "cmd", "cmd", b, sim.S("node", node), sim.S("client", client), sim.S("command", commandName(args)))
}

// Tell adds a trace line of message id (model/tracemsg), its text rendered
// from the catalogue's template and args.
func (w *World) Tell(proc, kind, id string, args ...sim.Arg) {
	tracemsg.Emit(w.K, proc, kind, id, args...)
	if w.noted != nil && slices.Contains(w.noteKinds, kind) {
		w.noteTold(proc, kind, id, args)
	}
}

// NoteTold makes fn see every line of the given kinds that the world
// tells (Tell, through which the faults' "skipped" lines and the
// "deadlock" line go) as the trace's sinks would see it, its English text
// included, without being a sink: a run that reads nothing else of its
// trace then has none, and the kernel asks no one about the ~40,000
// lines it writes (sim.Kernel.WantsText). NoteTold(nil) ends it.
func (w *World) NoteTold(fn func(sim.Event), kinds ...string) {
	w.noted, w.noteKinds = fn, kinds
}

// noteTold hands the line Tell just wrote to the NoteTold func.
func (w *World) noteTold(proc, kind, id string, args []sim.Arg) {
	w.noted(sim.Event{Seq: w.K.Trace().Len(), At: w.Now(), Proc: proc, Kind: kind,
		Msg: string(tracemsg.Append(nil, id, args)), ID: id, Args: append(sim.Args(nil), args...)})
}

// Say is Emit with a message id and its arguments beside the text, for
// the lines a trace reader rebuilds the TUI's panels from.
func (w *World) Say(proc, kind, id string, args []sim.Arg, format string, a ...any) {
	w.K.EmitIDf(proc, kind, id, args, format, a...)
}

// exec runs one command on a node at the current true time, on behalf of a
// client (numbered id, its Client.id; -1: not a built-in client), keeping the checker's ground truth about who owns the lock key,
// and ships what the command changed to the node's replicas.
func (w *World) exec(n *Node, client string, id int, op Op, args []string) (any, error) {
	now := w.K.Now()
	track := op != OpOther
	var key string // the lock key, whose presence Do reports
	if track {
		key = w.Cfg.Lock.Key
	}
	if w.Cfg.ClusterSlots && n.Up() && crossSlot(args) {
		err := RedisError(slot.CrossSlot) // a cluster node refuses it before running anything
		if !w.K.Unread(n.Name(), "cmd") {
			w.sayCmd(n.Name(), client, args, nil, err)
		}
		return nil, err
	}
	reply, p, err := n.DoTrackedAs(now, id, client, key, args)
	if op == opInfer { // an external client's command: judged by what it did
		op, track = inferOp(p), true
	}
	if err == ErrDown {
		w.Say(n.Name(), "no-reply", "no-reply", []sim.Arg{sim.S("node", n.Name()), sim.S("client", client), sim.S("command", commandName(args))},
			"%s is down: %s's %s gets no reply", n.Name(), client, commandName(args))
		return reply, err
	}
	// The command's own line comes before what the checker concludes from
	// it (a wrong release, a lost grant): cause before effect.
	if !w.K.Unread(n.Name(), "cmd") {
		w.sayCmd(n.Name(), client, args, reply, err)
	}
	if track {
		w.judgeCommand(n, client, id, op, p)
		if redis.IsNoReplicas(err) {
			w.feed(&judge.Event{Kind: judge.WriteRefused, Client: client, Node: n.Name()})
		}
	}
	effs := n.TakeEffects()
	if len(effs) > 0 && n.Stale() {
		w.Tell(n.Name(), "split-brain", "stale-write", sim.S("node", n.Name()), sim.S("client", client), sim.S("master", n.ReplacedBy().Name()),
			sim.I("replaced_ns", int64(n.ReplacedAt())), sim.S("writes", describeEffects(effs)))
	}
	w.Ship(n, effs)
	return reply, err
}

func commandName(args []string) string {
	if len(args) == 0 {
		return "command"
	}
	return strings.ToUpper(args[0])
}

// traceDrop says which message the network dropped. A lost request never
// reached the node; a lost reply means the command did run there.
func (w *World) traceDrop(from, to, why string) {
	_, fromNode := w.byName[from].(*Node)
	_, toNode := w.byName[to].(*Node)
	switch {
	case fromNode && toNode: // only replicas' acks travel between nodes (redis/acks.go)
		w.Tell(from, "ack-lost", "ack-lost", sim.S("from", from), sim.S("to", to), sim.S("why", why), sim.S("drop", dropPiece(why)))
	case fromNode || from == ResourceName:
		w.Tell(from, "reply-lost", "reply-lost", sim.S("from", from), sim.S("to", to), sim.S("why", why), sim.S("drop", dropPiece(why)))
	case toNode || to == ResourceName:
		w.Tell(from, "request-lost", "request-lost", sim.S("from", from), sim.S("to", to), sim.S("why", why), sim.S("drop", dropPiece(why)))
	default:
		w.Tell(from, "msg-lost", "msg-lost", sim.S("from", from), sim.S("to", to), sim.S("why", why), sim.S("drop", dropPiece(why)))
	}
}

// dropPiece is the trace piece (model/tracemsg) that says why, one of
// sim's Drop* reasons, in the reader's language.
func dropPiece(why string) string {
	switch why {
	case sim.DropLost:
		return "drop-lost"
	case sim.DropPartitioned:
		return "drop-partitioned"
	case sim.DropCutInFlight:
		return "drop-cut-in-flight"
	}
	return "" // a reason sim does not have yet: the English why alone
}

// masterFor is the node client c sends shard i's commands to: the master it
// knows of. A client learns of a failover (from Sentinel, in real life) and
// follows the new master once it can reach it; until then it keeps talking
// to the old one, which, if it is a stale master cut off with the client,
// still accepts its writes (split brain).
func (w *World) masterFor(c *Client, i int) *Node {
	sh := w.Shards[i]
	if i >= len(c.view) {
		return sh.Master
	}
	if cur := c.view[i]; cur != sh.Master && w.Net.Connected(c.Name, sh.Master.Name()) {
		w.follow(c, i, cur)
	}
	return c.view[i]
}

// follow makes client c send shard i's commands to its new master, which
// replaced cur. It is a function of its own so that its trace line's
// arguments are not in masterFor's frame, on the stack of every request.
func (w *World) follow(c *Client, i int, cur *Node) {
	m := w.Shards[i].Master
	c.view[i] = m
	w.Tell(c.Name, "follows", "follows", sim.S("client", c.Name), sim.I("shard", int64(i+1)), sim.S("master", m.Name()), sim.S("old", cur.Name()))
}

// MasterView is the node c currently believes is shard i's master.
func (w *World) MasterView(c *Client, i int) *Node {
	if i < len(c.view) {
		return c.view[i]
	}
	return w.Shards[i].Master
}

// CutOffSince reports since when the network has separated client c from
// node n without a break, and false when they are connected.
func (w *World) CutOffSince(c, n string) (time.Duration, bool) {
	t, ok := w.cutSince[cutPair{c, n}]
	return t, ok
}

// cutPair is a client and a node, the key of World.cutSince: a pair, not a
// joined string, so that looking at every pair after each network change
// allocates nothing.
type cutPair struct{ client, node string }

// netChanged reacts to a partition starting or healing: the cuts the
// judge is told of, then the cluster (see redis.Cluster.NetChanged).
func (w *World) netChanged() {
	w.noteCuts()
	w.Cluster.NetChanged()
}

// noteCuts records which client-node pairs the network separates now.
func (w *World) noteCuts() {
	now := w.Now()
	for _, c := range w.Clients {
		for _, n := range w.Nodes {
			k := cutPair{c.Name, n.Name()}
			_, had := w.cutSince[k]
			switch cut := !w.Net.Connected(c.Name, n.Name()); {
			case cut && !had:
				w.cutSince[k] = now
				w.feed(&judge.Event{Kind: judge.CutOff, Client: c.Name, Node: n.Name()})
			case !cut && had:
				delete(w.cutSince, k)
				w.feed(&judge.Event{Kind: judge.Reconnected, Client: c.Name, Node: n.Name()})
			}
		}
	}
}

// Command runs one command on node n from connection conn now, as a client
// request arriving there would (the lock key's ground truth is not tracked:
// it is not a lock operation), and replicates what it changed. For tests and
// for typing a command into a live run.
func (w *World) Command(n *Node, conn string, args ...string) (any, error) {
	return w.exec(n, conn, -1, OpOther, args)
}

// describeEffects lists effects for the trace.
func describeEffects(effs []Effect) string {
	s := make([]string, len(effs))
	for i, e := range effs {
		s[i] = e.String()
	}
	return strings.Join(s, "; ")
}
