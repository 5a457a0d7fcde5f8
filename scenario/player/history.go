package player

import (
	"time"

	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// History is what the timeline draws: for each client the intervals in which
// it believed it held the lock, for each node the intervals in which the lock
// key was present (and whose it was), and the instants of faults and
// violations. It is recorded event by event from a runner's trace.
type History struct {
	Clients    []Lane
	Nodes      []Lane
	Faults     []Mark
	Violations []Mark

	r       *runner.Runner
	expires []time.Duration // per node: estimated true expiry of the open span; -1 none
}

// Lane is one row of the timeline.
type Lane struct {
	Name  string
	Spans []Span
}

// Span is an interval of true time. An open span (still going at the last
// event recorded) has To == -1.
type Span struct {
	From, To time.Duration
	Label    string // the token believed held, or the owner of the key
}

// Mark is an instant worth flagging on the timeline.
type Mark struct {
	At   time.Duration
	Seq  int
	Proc string
	Text string
}

// Record starts recording the runner's history; call it before stepping.
// The cost per event is one look at every client and at every node's keys.
func Record(r *runner.Runner) *History {
	h := &History{r: r}
	for _, c := range r.World().Clients {
		h.Clients = append(h.Clients, Lane{Name: c.Name})
	}
	for _, n := range r.World().Nodes {
		h.Nodes = append(h.Nodes, Lane{Name: n.Name()})
		h.expires = append(h.expires, -1)
	}
	r.OnEvent(h.observe)
	return h
}

func (h *History) observe(e sim.Event) {
	w := h.r.World()
	now := e.At
	switch e.Kind {
	case "fault":
		h.Faults = append(h.Faults, Mark{At: now, Seq: e.Seq, Proc: e.Proc, Text: e.Msg})
	case "VIOLATION":
		h.Violations = append(h.Violations, Mark{At: now, Seq: e.Seq, Proc: e.Proc, Text: e.Msg})
	}
	for i, c := range w.Clients {
		label := ""
		if l := c.Lease(); l != nil && c.State() != "crashed" {
			label = l.Token
		}
		h.Clients[i].Set(now, label, -1)
	}
	key := w.Cfg.Lock.Key
	for i, n := range w.Nodes {
		label := ""
		exp := time.Duration(-1)
		for _, k := range n.Keys(now) {
			if k.Key == key {
				label = ownerOf(w, k.Value)
				if label == "" {
					label = "?"
				}
				if k.TTL >= 0 {
					rate := n.Clock().Rate()
					if rate <= 0 {
						rate = 1
					}
					exp = now + time.Duration(float64(k.TTL)/rate)
				}
			}
		}
		h.Nodes[i].Set(now, label, h.expires[i])
		h.expires[i] = exp
	}
}

// Set makes the lane's state at now be label ("" = nothing), closing the
// open span at now, or at its estimated end when that came earlier (a key
// expires silently, between events).
func (l *Lane) Set(now time.Duration, label string, estEnd time.Duration) {
	var open *Span
	if n := len(l.Spans); n > 0 && l.Spans[n-1].To < 0 {
		open = &l.Spans[n-1]
	}
	if open != nil && open.Label == label {
		return
	}
	if open != nil {
		end := now
		if estEnd >= open.From && estEnd < now {
			end = estEnd
		}
		open.To = end
	}
	if label != "" {
		l.Spans = append(l.Spans, Span{From: now, To: -1, Label: label})
	}
}

// Close ends every open span at t (the end of the run) and lets go of the
// runner.
func (h *History) Close(t time.Duration) {
	h.r = nil
	for _, ls := range [][]Lane{h.Clients, h.Nodes} {
		for i := range ls {
			if n := len(ls[i].Spans); n > 0 && ls[i].Spans[n-1].To < 0 {
				ls[i].Spans[n-1].To = t
			}
		}
	}
}
