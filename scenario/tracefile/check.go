package tracefile

import (
	"io"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// CheckHistory judges a recorded history (`lockstep check`): every trace
// in the file, or the file as one plain history (docs/history-format.md),
// and returns a report per trace, checked against expect. The report's
// Strategy, Seed and TraceHash come from a trace's header and end; a
// plain history has none.
func CheckHistory(name string, r io.Reader, expect []scenario.Expectation) ([]*runner.Report, error) {
	hs, err := tracelog.ReadHistory(name, r)
	if err != nil {
		return nil, err
	}
	out := make([]*runner.Report, 0, len(hs))
	for _, h := range hs {
		j := judge.New(judge.Config{Nodes: h.Header.NodeNames(), Clients: h.Header.ClientNames(),
			Quorum: max(h.Header.Quorum, 1), Watchdog: h.Header.Watchdog, Resources: h.Header.Resources()})
		for i := range h.Events {
			j.Feed(&h.Events[i])
		}
		out = append(out, historyReport(h, j, expect))
	}
	return out, nil
}

// historyReport is the report of a judged history.
func historyReport(h *tracelog.HistoryFile, j *judge.Judge, expect []scenario.Expectation) *runner.Report {
	m := j.Metrics()
	rep := &runner.Report{Scenario: h.Header.Scenario, Title: h.Header.Title, Strategy: h.Header.Strategy, Seed: h.Header.Seed,
		Metrics: m, MaxWaitMS: m.MaxWait.Milliseconds(), SimTimeMS: h.End.Milliseconds(), Events: h.Records,
		OK: true, FirstViolation: j.FirstViolation(), StuckReason: j.StuckReason(), TraceHash: h.TraceHash,
		Expectations: []scenario.ExpectResult{}, FirstViolationPhrase: j.FirstViolationPhrase(), StuckReasonPhrase: j.StuckReasonPhrase()}
	for _, e := range expect {
		res := e.Result(m)
		rep.Expectations = append(rep.Expectations, res)
		rep.OK = rep.OK && res.OK
	}
	if len(expect) == 0 {
		rep.OK = m.Safe && !m.Stuck
	}
	return rep
}
