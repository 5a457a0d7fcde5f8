package tracefile

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// RecordedNote is why a Player opened from a trace refuses what needs the
// simulation (injecting a fault, writing the run as a scenario, comparing
// strategies).
const RecordedNote = "a recorded trace is not re-simulated: no faults, export or compare"

// traceCheckpointEvery is how many events apart a trace player keeps a
// copy of its state: a seek applies at most this many events.
const traceCheckpointEvery = 256

// tracePlayer serves a Player's snapshots from a recorded trace: the state
// after any number of events, rebuilt from the trace alone.
type tracePlayer struct {
	tr      *tracelog.Trace
	clients map[string]int
	nodes   map[string]int
	hist    [][]int         // per event count k: the history entries read after k events
	checks  []*traceState   // the state after every traceCheckpointEvery events
	metrics []metricsChange // the metrics as they change, by event count
	steps   int64
	states  bool // the trace records client states (else they are guessed)
}

func (t *tracePlayer) client(name string) int {
	if i, ok := t.clients[name]; ok {
		return i
	}
	return -1
}

func (t *tracePlayer) node(name string) int {
	if i, ok := t.nodes[name]; ok {
		return i
	}
	return -1
}

// advance applies event k (1-based) and the history read after it, and
// feeds that history to j when given.
func (t *tracePlayer) advance(s *traceState, k int, j *judge.Judge) {
	if k > 0 {
		e := &t.tr.Events[k-1]
		s.apply(t, e)
		s.lastTime = e.At
	}
	for _, hi := range t.hist[k] {
		e := &t.tr.History[hi].Event
		s.applyHistory(t, e)
		if j != nil {
			j.Feed(e)
		}
	}
	if j != nil {
		s.metrics, s.first = j.Metrics(), firstViolation{j.FirstViolation(), j.FirstViolationPhrase()}
	}
}

// Snapshot is the state after i events, drawn at true time at.
func (t *tracePlayer) Snapshot(i int, at time.Duration) player.Snapshot {
	c := i / traceCheckpointEvery
	s := t.checks[c].clone()
	for k := c*traceCheckpointEvery + 1; k <= i; k++ {
		t.advance(s, k, nil)
		t.steps++
	}
	// The metrics between checkpoints come from the forward pass.
	s.metrics, s.first = t.metricsAt(i)
	return s.snapshot(t, i, at)
}

func (t *tracePlayer) Stats() player.SeekStats { return player.SeekStats{Steps: t.steps} }
func (t *tracePlayer) Spacing() int            { return traceCheckpointEvery }
func (t *tracePlayer) Settle()                 {}
func (t *tracePlayer) Close()                  {}

// OpenTrace reads a recorded trace (docs/trace-format.md) and returns a
// Player at step 0 whose every step is one event of the trace; pick names
// the trace of a file that holds several ("" when it holds one). Its
// snapshots are rebuilt from the trace's events and history alone; it
// refuses faults and export (Recorded).
func OpenTrace(name string, r io.Reader, pick string) (*player.Player, error) {
	ts, err := tracelog.Read(name, r)
	if err != nil {
		return nil, err
	}
	tr, err := pickTrace(name, ts, pick)
	if err != nil {
		return nil, err
	}
	t := newTracePlayer(tr)
	end := time.Duration(0)
	if n := len(tr.Events); n > 0 {
		end = tr.Events[n-1].At
	}
	hist, final := t.forward(end)
	rec := player.Recording{Scenario: traceScenario(tr), Events: tr.Events, History: hist, Final: final, Note: RecordedNote}
	return player.OpenRecording(rec, t), nil
}

// pickTrace is the trace named pick, or the only one.
func pickTrace(name string, ts []*tracelog.Trace, pick string) (*tracelog.Trace, error) {
	var names []string
	for _, t := range ts {
		if t.Header.Scenario == pick || (pick == "" && len(ts) == 1) {
			return t, nil
		}
		names = append(names, t.Header.Scenario)
	}
	if pick == "" {
		return nil, fmt.Errorf("%s holds %d traces (%s): pick one with -s NAME", name, len(ts), strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%s holds no trace of scenario %q (it holds %s)", name, pick, strings.Join(names, ", "))
}

func newTracePlayer(tr *tracelog.Trace) *tracePlayer {
	t := &tracePlayer{tr: tr, clients: map[string]int{}, nodes: map[string]int{}, hist: make([][]int, len(tr.Events)+1)}
	for i, c := range tr.Header.Clients {
		t.clients[c.Name] = i
	}
	for i, n := range tr.Header.Nodes {
		t.nodes[n.Name] = i
	}
	for i, h := range tr.History {
		t.states = t.states || h.Event.Kind == judge.ClientState
		// A record written after event k at a later time happened in the
		// kernel event that writes event k+1: it belongs to that step.
		k := h.With
		if k == 0 { // not recorded: a guess
			k = h.After
			if k < len(tr.Events) && (k == 0 || h.Event.At > tr.Events[k-1].At) {
				k++
			}
		}
		k = min(k, len(tr.Events))
		t.hist[k] = append(t.hist[k], i)
	}
	return t
}

// traceScenario is the scenario a trace's header describes, as far as the
// views need one: names, the lock, the duration, and the note as its story.
func traceScenario(tr *tracelog.Trace) *scenario.Scenario {
	h := &tr.Header
	s := &scenario.Scenario{Name: h.Scenario, Title: h.Title, Duration: h.Duration(), Seed: h.Seed,
		Story: "Recorded trace: the panels, the timeline and the log are rebuilt from its events alone. " +
			"Nothing re-simulates it, so faults cannot be injected, the run cannot be written as a scenario " +
			"and strategies cannot be compared here: open the scenario itself (lockstep tui -s NAME) for that."}
	s.Lock.Key, s.Lock.Strategy, s.Lock.TTL = h.Key, h.Strategy, time.Duration(h.TTLMS)*time.Millisecond
	return s
}
