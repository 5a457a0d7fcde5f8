package runner

import (
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/sim"
)

// TraceHeader is the trace header of the runner's world, as it stands at
// the start of the run (docs/trace-format.md).
func (r *Runner) TraceHeader() tracelog.Header {
	w := r.w
	st := w.Strategy()
	h := tracelog.NewHeader()
	h.Scenario, h.Title, h.Seed, h.Strategy, h.Key = r.S.Name, r.S.Title, w.Cfg.Seed, st.Name(), w.Cfg.Lock.Key
	h.DurationMS = float64(r.S.Duration.Milliseconds())
	h.TTLMS = float64(w.Cfg.Lock.TTL.Milliseconds())
	h.Quorum, h.Watchdog, h.Fencing = st.Quorum(w), w.Cfg.Lock.Watchdog != nil, w.Cfg.Lock.Fencing == "token"
	lock := map[string]bool{}
	for _, n := range st.LockNodes(w) {
		lock[n.Name()] = true
	}
	masterOf := map[string]string{}
	for _, sh := range w.Shards {
		for _, rep := range sh.Replicas {
			masterOf[rep.Name()] = sh.Master.Name()
		}
	}
	for _, n := range w.Nodes { // the snapshot's order
		tn := tracelog.Node{Name: n.Name(), Role: "master", Lock: lock[n.Name()]}
		if n.IsReplica() {
			tn.Role, tn.Master = "replica", masterOf[n.Name()]
		}
		h.Nodes = append(h.Nodes, tn)
	}
	h.Sentinels = append(h.Sentinels, w.Sentinels...)
	if len(w.Sentinels) > 0 {
		h.SentinelQuorum = w.SentinelMajority()
	}
	for _, c := range w.Clients {
		h.Clients = append(h.Clients, tracelog.Client{Name: c.Name, Holds: c.Cfg.Holds, Resource: c.Cfg.Resource})
	}
	return h
}

// RecordTrace makes tw receive the run from now on: every trace event and
// every event the judge reads, in the order they happen. Call it before
// stepping; after the run, EndTrace. It takes the world's one Tap. Recording
// changes nothing the run does: its trace hash is the same with or without
// it (TestRecordingKeepsTheTraceHash).
func (r *Runner) RecordTrace(tw *tracelog.Writer) {
	k := r.w.K
	seq, step := 0, -1 // the last event written, and the kernel event that wrote it
	r.OnEvent(func(e sim.Event) {
		seq, step = e.Seq, k.Steps()
		tw.Event(e)
	})
	r.w.Tap(func(e judge.Event) {
		// What happened in the kernel event that wrote the last line goes
		// with it (a Runner.Step ends after that kernel event); anything
		// later, and the end of the run, with the next line.
		with := seq + 1
		if k.Steps() == step && e.Kind != judge.Final {
			with = seq
		}
		if e.Kind == judge.Replicated && !e.KeyKnown && e.Probe != nil {
			// The key as the replica stores it, by its own clock and
			// version (a trace player shows it): the judge did not need it.
			// The replica was advanced to now when it applied the write,
			// so this look changes nothing.
			e.Key, e.KeyKnown = e.Probe.LockKey(false, e.At), true
		}
		tw.History(&e, with)
	})
}

// EndTrace writes tw's end record: the run's event count and trace hash.
func (r *Runner) EndTrace(tw *tracelog.Writer) { tw.End(r.w.K.Trace().Hash()) }
