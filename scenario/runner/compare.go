package runner

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// DefaultCompare are the strategies `lockstep compare` runs when none are named.
var DefaultCompare = []string{model.StrategyLuaRelease, model.StrategyRedlock}

// Column is one strategy's run in a comparison: the report `lockstep run`
// would print for it, plus what the comparison adds. Its JSON form is the
// report's fields plus nodes and why (MarshalJSON).
type Column struct {
	*Report
	Nodes int    // masters in this strategy's world
	Why   string // one line: why the verdict is what it is
	// FaultsBefore are the faults that struck before the first violation,
	// in order: the context of its explanation.
	FaultsBefore []string
	// Dropped are the modifiers of the scenario's lock design this column's
	// strategy cannot run (DesignFor), so it ran without them.
	Dropped []scenario.Dropped
	// why is Why and the trace lines WriteText cites, unrendered, so
	// that WriteText says them in the language asked (Why is the English,
	// which --json carries).
	why columnWhy
}

// Comparison is a scenario run once per strategy, with the same clients,
// faults and seed (scenario-format.md, "Comparison").
type Comparison struct {
	Scenario *scenario.Scenario
	Columns  []*Column
	// Reproduce is the command WriteText prints when the comparison failed;
	// the CLI sets it from its own invocation. "" prints the bundled file's.
	Reproduce string
}

// OK reports whether the scenario's expectations held. They describe the
// scenario's own strategy, so only that column is checked (and the
// comparison is OK when that strategy is not among the columns).
func (c *Comparison) OK() bool {
	for _, col := range c.Columns {
		if !col.OK {
			return false
		}
	}
	return true
}

// CheckStrategies validates a --strategies list: known names, no repeats,
// at least one.
func CheckStrategies(names []string) error {
	known := func() i18n.Msg {
		return i18n.M("%s; profiles: %s", strings.Join(model.Strategies, ", "), strings.Join(scenario.ProfileNames, ", "))
	}
	if len(names) == 0 {
		return i18n.Errorf(nil, "no strategies to compare (known: %s)", known())
	}
	for i, n := range names {
		if !slices.Contains(model.Strategies, n) && !scenario.IsProfile(n) {
			return i18n.Errorf(nil, "unknown strategy %q (known: %s)", n, known())
		}
		if slices.Contains(names[:i], n) {
			return i18n.Errorf(nil, "strategy %q named twice", n)
		}
	}
	return nil
}

// Compare runs s once for each strategy, in the order given, with o's seed
// and extra faults. A strategy needing more nodes than the scenario has gets
// them (NodesFor); faults naming a process a world lacks are skipped there
// and listed in that column's Skipped; modifiers of the lock design the
// strategy cannot run (reentrant under Redlock, fair under set-del) are
// dropped there, by the loader's own rules (DesignFor), and listed in that
// column's Dropped.
func Compare(s *scenario.Scenario, strategies []string, o scenario.Options) (*Comparison, error) {
	if err := CheckStrategies(strategies); err != nil {
		return nil, err
	}
	cmp := &Comparison{Scenario: s}
	for _, st := range strategies {
		opts := o
		opts.Strategy = st
		col, err := compareOne(s, opts)
		if err != nil {
			return nil, err
		}
		cmp.Columns = append(cmp.Columns, col)
	}
	return cmp, nil
}

// compareOne plays one column and explains its verdict.
func compareOne(s *scenario.Scenario, o scenario.Options) (*Column, error) {
	run, dropped, err := scenario.ForStrategy(s, o.Strategy)
	if err != nil {
		return nil, err
	}
	r, err := New(run, o, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var why columnWhy
	r.OnEvent(why.observe)
	rep := r.Run()
	if o.Strategy != s.Lock.Strategy && o.Strategy != s.Lock.Client {
		// The file's expectations describe its own strategy only.
		rep.Expectations, rep.OK = []scenario.ExpectResult{}, true
	}
	col := &Column{Report: rep, Nodes: len(r.World().Shards), FaultsBefore: why.faultsBeforeIn(i18n.EN), Dropped: dropped, why: why}
	col.Why = col.whyIn(i18n.EN)
	return col, nil
}

// compareRow is one row of the comparison table: a name and each column's
// cell.
type compareRow struct {
	name string
	get  func(c *Column) string
}

// compareRows are the table's rows after the verdict: the node count, every
// metric but the verdict (from model's table), then what tells the worlds
// apart. Only a comparison reads them, so they are made on its first use,
// not at every process's start (a copy of the metric table, ~35 KB).
var compareRows = sync.OnceValue(func() []compareRow {
	rows := []compareRow{{scenario.KeyNodes, func(c *Column) string { return strconv.Itoa(c.Nodes) }}}
	for _, x := range model.MetricTable() {
		if x.Verdict {
			continue
		}
		rows = append(rows, compareRow{x.Name, func(c *Column) string { return x.Format(metricOf(c.Report, x)) }})
	}
	return append(rows,
		compareRow{"sim_time", func(c *Column) string { return sim.FormatTime(time.Duration(c.SimTimeMS) * time.Millisecond) }},
		compareRow{"events", func(c *Column) string { return strconv.Itoa(c.Events) }},
		compareRow{"expectations", expectCell})
})

func expectCell(c *Column) string {
	if len(c.Expectations) == 0 {
		return "-"
	}
	held := 0
	for _, e := range c.Expectations {
		if e.OK {
			held++
		}
	}
	mark := "✓"
	if held < len(c.Expectations) {
		mark = "✗"
	}
	return fmt.Sprintf("%s %d/%d", mark, held, len(c.Expectations))
}

// WriteText prints the comparison as one table, a column per strategy, then
// each column's explanation, failed expectations and skipped faults, in the
// current language (i18n.Current).
func (c *Comparison) WriteText(w io.Writer) {
	l := i18n.Current()
	s := c.Scenario
	fmt.Fprintf(w, "%s", s.Name)
	title := s.Title
	if l == i18n.ZH {
		title = s.TitleIn(scenario.LangChinese)
	}
	if title != "" {
		fmt.Fprintf(w, " — %s", title)
	}
	fmt.Fprint(w, "\n", l.Sprintf("same clients, faults and seed %d under %s\n\n", c.seed(), l.Sprintf("%d strategies", len(c.Columns))))

	rows := [][]string{append([]string{""}, c.cells(func(col *Column) string { return col.Name() })...)}
	rows = append(rows, append([]string{i18n.TC("compare row", "verdict")}, c.cells(func(col *Column) string { return col.VerdictIn(l) })...))
	for _, r := range compareRows() {
		rows = append(rows, append([]string{r.name}, c.cells(r.get)...))
	}
	if c.dropsAny() {
		rows = append(rows, append([]string{i18n.TC("compare row", "dropped")}, c.cells(droppedCell)...))
	}
	i18n.WriteTable(w, rows)

	for _, col := range c.Columns {
		col.writeText(w, l)
	}
	if !c.OK() {
		cmd := c.Reproduce
		if cmd == "" {
			cmd = fmt.Sprintf("lockstep compare -s %s --seed %d", s.Name, c.seed())
		}
		fmt.Fprint(w, l.Sprintf("\nreproduce: %s\n", cmd))
	}
}

// writeText is one column's explanation under the table, in l.
func (col *Column) writeText(w io.Writer, l i18n.Lang) {
	fmt.Fprintf(w, "\n%s: %s\n", col.Name(), col.VerdictIn(l))
	why, before, stuck := col.Why, col.FaultsBefore, col.StuckReason
	// Say it in l only what the column's English still says (a caller may
	// have set Why or FaultsBefore itself).
	if l != i18n.EN && why == col.whyIn(i18n.EN) {
		why = col.whyIn(l)
	}
	if l != i18n.EN && slices.Equal(before, col.why.faultsBeforeIn(i18n.EN)) {
		before = col.why.faultsBeforeIn(l)
	}
	stuck = col.Report.in(l, stuck, col.StuckReasonPhrase)
	fmt.Fprint(w, l.Sprintf("  why: %s\n", why))
	for _, f := range before {
		fmt.Fprint(w, l.Sprintf("    after: %s\n", f))
	}
	if stuck != "" {
		fmt.Fprint(w, l.Sprintf("  stuck: %s\n", stuck))
	}
	for _, e := range col.Expectations {
		if !e.OK {
			fmt.Fprint(w, l.Sprintf("  ✗ %s %s (got %s)\n", e.Field, e.Want, e.Got))
		}
	}
	for _, d := range col.Dropped {
		fmt.Fprint(w, l.Sprintf("  dropped: %s\n", d.In(l)))
	}
	for _, sk := range col.skippedIn(l) {
		fmt.Fprint(w, l.Sprintf("  skipped: %s\n", sk))
	}
}

// dropsAny reports whether some column ran without part of the design.
func (c *Comparison) dropsAny() bool {
	for _, col := range c.Columns {
		if len(col.Dropped) > 0 {
			return true
		}
	}
	return false
}

// droppedCell names what a column dropped of the design, "-" for nothing.
func droppedCell(c *Column) string {
	if len(c.Dropped) == 0 {
		return "-"
	}
	names := make([]string, len(c.Dropped))
	for i, d := range c.Dropped {
		names[i] = d.Field
	}
	return strings.Join(names, ", ")
}

func (c *Comparison) seed() uint64 {
	if len(c.Columns) > 0 {
		return c.Columns[0].Seed
	}
	return c.Scenario.Seed
}

func (c *Comparison) cells(get func(*Column) string) []string {
	out := make([]string, len(c.Columns))
	for i, col := range c.Columns {
		out[i] = get(col)
	}
	return out
}

// Name is how a comparison names its column: the profile it was asked
// for, or the strategy.
func (c *Column) Name() string {
	if c.Client != "" {
		return c.Client
	}
	return c.Strategy
}
