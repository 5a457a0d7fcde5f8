package tracefile

import (
	"sort"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// metricsChange is the metrics from event count step on.
type metricsChange struct {
	step  int
	m     model.Metrics
	first firstViolation
}

// forward plays the whole trace once: checkpoints, the metrics after every
// event (a judge fed the history), the timeline, the final report.
func (t *tracePlayer) forward(end time.Duration) (*player.History, *runner.Report) {
	h := &t.tr.Header
	j := judge.New(judge.Config{Nodes: h.NodeNames(), Clients: h.ClientNames(), Quorum: max(h.Quorum, 1), Watchdog: h.Watchdog,
		Resources: h.Resources()})
	s := newTraceState(h)
	hist := &player.History{}
	for _, c := range h.Clients {
		hist.Clients = append(hist.Clients, player.Lane{Name: c.Name})
	}
	for _, n := range h.Nodes {
		hist.Nodes = append(hist.Nodes, player.Lane{Name: n.Name})
	}
	for k := 0; k <= len(t.tr.Events); k++ {
		t.advance(s, k, j)
		if k%traceCheckpointEvery == 0 {
			t.checks = append(t.checks, s.clone())
		}
		if n := len(t.metrics); n == 0 || t.metrics[n-1].m != s.metrics || t.metrics[n-1].first.en != s.first.en {
			t.metrics = append(t.metrics, metricsChange{k, s.metrics, s.first})
		}
		if k > 0 {
			t.lanes(hist, s, &t.tr.Events[k-1])
		}
	}
	hist.Close(end)
	return hist, t.report(j, end)
}

// metricsAt is the metrics and first violation after i events.
func (t *tracePlayer) metricsAt(i int) (model.Metrics, firstViolation) {
	c := sort.Search(len(t.metrics), func(x int) bool { return t.metrics[x].step > i }) - 1
	if c < 0 {
		return model.Metrics{Safe: true}, firstViolation{}
	}
	return t.metrics[c].m, t.metrics[c].first
}

// lanes records the timeline after event e: who believes it holds the
// lock, whose key each node holds, faults and violations.
func (t *tracePlayer) lanes(hist *player.History, s *traceState, e *sim.Event) {
	now := e.At
	switch e.Kind {
	case "fault":
		hist.Faults = append(hist.Faults, player.Mark{At: now, Seq: e.Seq, Proc: e.Proc, Text: e.Msg})
	case "VIOLATION":
		hist.Violations = append(hist.Violations, player.Mark{At: now, Seq: e.Seq, Proc: e.Proc, Text: e.Msg})
	}
	for i, c := range s.clients {
		label := ""
		if c.believes && c.state != string(model.StateCrashed) {
			label = c.token
		}
		hist.Clients[i].Set(now, label, -1)
	}
	for i, n := range s.nodes {
		label, est := "", time.Duration(-1)
		if n.key.Held && !n.down && (n.key.Expires < 0 || n.key.Expires > now) {
			if label = t.ownerName(n.key.Owner); label == "" {
				label = "?"
			}
		}
		if len(hist.Nodes[i].Spans) > 0 {
			est = n.key.Expires
		}
		hist.Nodes[i].Set(now, label, est)
	}
}

// ownerName is the client whose token v is ("A-1" is A's); "" when none.
func (t *tracePlayer) ownerName(v string) string {
	best := ""
	for name := range t.clients {
		if len(v) > len(name) && v[len(name)] == '-' && v[:len(name)] == name && len(name) > len(best) {
			best = name
		}
	}
	return best
}

// report is the final report of the trace, as check would give it.
func (t *tracePlayer) report(j *judge.Judge, end time.Duration) *runner.Report {
	h := &t.tr.Header
	m := j.Metrics()
	return &runner.Report{Scenario: h.Scenario, Title: h.Title, Strategy: h.Strategy, Seed: h.Seed, Metrics: m,
		MaxWaitMS: m.MaxWait.Milliseconds(), SimTimeMS: end.Milliseconds(), Events: len(t.tr.Events),
		OK: m.Safe && !m.Stuck, FirstViolation: j.FirstViolation(), StuckReason: j.StuckReason(),
		TraceHash: t.tr.End.TraceHash, Expectations: []scenario.ExpectResult{}, FirstViolationPhrase: j.FirstViolationPhrase(), StuckReasonPhrase: j.StuckReasonPhrase()}
}
