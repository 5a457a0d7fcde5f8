package judge

import (
	"strconv"
	"time"
)

// Metrics are the run's verdict, computed from ground truth (true time),
// never from what a client believes. The meanings and names are the
// scenario format's (the table below); reports write them from that table,
// so the fields carry no JSON names of their own.
type Metrics struct {
	Safe              bool          `json:"-"`
	Violations        int64         `json:"-"`
	LostUpdates       int64         `json:"-"`
	FencingRejections int64         `json:"-"`
	WrongReleases     int64         `json:"-"`
	Stuck             bool          `json:"-"`
	Acquired          int64         `json:"-"`
	FailedAcquires    int64         `json:"-"`
	MaxWait           time.Duration `json:"-"`
	UnheldReleases    int64         `json:"-"`
	RefusedWrites     int64         `json:"-"`
	DuplicateWrites   int64         `json:"-"`
	Deadlocks         int64         `json:"-"`
	Throughput        int64         `json:"-"` // thousandths of a hold per simulated second
}

// The metrics' names in the scenario format (expect: keys, report and JSON
// fields). Everything that names a metric uses these or the table.
const (
	MetricSafe              = "safe"
	MetricViolations        = "violations"
	MetricLostUpdates       = "lost_updates"
	MetricFencingRejections = "fencing_rejections"
	MetricWrongReleases     = "wrong_releases"
	MetricStuck             = "stuck"
	MetricAcquired          = "acquired"
	MetricFailedAcquires    = "failed_acquires"
	MetricMaxWait           = "max_wait"
	MetricUnheldReleases    = "unheld_releases"
	MetricRefusedWrites     = "refused_writes"
	MetricDuplicateWrites   = "duplicate_writes"
	MetricDeadlocks         = "deadlocks"
	MetricThroughput        = "throughput"
)

// MetricKind says how a metric is measured and written.
type MetricKind int

// The kinds of metric.
const (
	Count  MetricKind = iota // a whole number of events
	Flag                     // true or false (measured as 1 or 0)
	Millis                   // a duration, measured in whole milliseconds
	Milli                    // a rate, measured in thousandths (written 2.5)
)

// Metric is one metric of the format: the table the expect parser, the
// reports (text and JSON), the export and the TUI read.
type Metric struct {
	Name string
	Kind MetricKind
	Doc  string
	// Verdict: the metric is the verdict itself (SAFE/UNSAFE), shown as
	// such rather than as one row among the others.
	Verdict bool
	// Short is the TUI metrics bar's label when the bar is narrow; "": the
	// metric is not in the bar.
	Short string
	// TextLine is the line of the text report that lists it (1 or 2; 0:
	// not listed).
	TextLine int
	// Outcome: a run exported as a regression test states it in expect:.
	Outcome bool
	// HideZero: the text report lists it only when it is not 0, so the
	// reports of runs where it cannot happen read as they always did.
	HideZero bool
	// BarNonZero: the TUI metrics bar shows it (by Short, or Name when
	// wide) only while it is not 0, so the bar of a run where it cannot
	// happen reads as it did before it existed.
	BarNonZero bool
	get        func(m Metrics) int64
}

var metricTable = []Metric{
	{Name: MetricSafe, Kind: Flag, Verdict: true, Outcome: true,
		Doc: "violations == 0", get: func(m Metrics) int64 { return flag(m.Safe) }},
	{Name: MetricViolations, Short: "viol", TextLine: 1, Outcome: true,
		Doc: "episodes in which two or more clients were in their critical section at the same true time", get: func(m Metrics) int64 { return m.Violations }},
	{Name: MetricLostUpdates, Short: "lost", TextLine: 1, Outcome: true,
		Doc: "holds whose write was accepted minus the counter's final rise", get: func(m Metrics) int64 { return m.LostUpdates }},
	{Name: MetricFencingRejections, Short: "fenced", TextLine: 1, Outcome: true,
		Doc: "requests the resource refused for carrying a lower fencing token than it had seen", get: func(m Metrics) int64 { return m.FencingRejections }},
	{Name: MetricWrongReleases, Short: "wrong-rel", TextLine: 1, Outcome: true,
		Doc: "releases that deleted a lock owned by another client", get: func(m Metrics) int64 { return m.WrongReleases }},
	{Name: MetricStuck, Kind: Flag, Short: MetricStuck, TextLine: 1, Outcome: true,
		Doc: "at the end a grant is in force whose owner is not in its critical section", get: func(m Metrics) int64 { return flag(m.Stuck) }},
	{Name: MetricAcquired, Short: "acq", TextLine: 2, Outcome: true,
		Doc: "successful grants", get: func(m Metrics) int64 { return m.Acquired }},
	{Name: MetricFailedAcquires, Short: "failed", TextLine: 2,
		Doc: "attempts that gave up", get: func(m Metrics) int64 { return m.FailedAcquires }},
	{Name: MetricMaxWait, Kind: Millis, TextLine: 2,
		Doc: "longest time a client waited for a grant", get: func(m Metrics) int64 { return m.MaxWait.Milliseconds() }},
	{Name: MetricUnheldReleases, TextLine: 2, Short: "unheld", BarNonZero: true,
		Doc: "releases begun by a client that did not hold the lock then (its lease had expired or was lost, or it never got it)", get: func(m Metrics) int64 { return m.UnheldReleases }},
	{Name: MetricRefusedWrites, TextLine: 2, HideZero: true, Short: "refused", BarNonZero: true,
		Doc: "lock writes a master refused with NOREPLICAS (redis.min_replicas_to_write)", get: func(m Metrics) int64 { return m.RefusedWrites }},
	{Name: MetricDuplicateWrites, TextLine: 2, HideZero: true, Short: "dup", BarNonZero: true,
		Doc: "writes the resource refused because their idempotency key (the job) was written already (resource.idempotency: job)", get: func(m Metrics) int64 { return m.DuplicateWrites }},
	{Name: MetricDeadlocks, TextLine: 2, HideZero: true, Short: "deadlock", BarNonZero: true,
		Doc: "times clients holding some of their keys waited for each other's (several keys per hold)", get: func(m Metrics) int64 { return m.Deadlocks }},
	{Name: MetricThroughput, Kind: Milli, Short: "holds/s", BarNonZero: true,
		Doc: "holds completed per simulated second, until the last one completed", get: func(m Metrics) int64 { return m.Throughput }},
}

func flag(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// MetricTable is every metric, in the order reports list them.
func MetricTable() []Metric { return metricTable }

// MetricNames are the metrics' names, in report order.
func MetricNames() []string {
	out := make([]string, len(metricTable))
	for i, x := range metricTable {
		out[i] = x.Name
	}
	return out
}

// LookupMetric returns the metric called name.
func LookupMetric(name string) (Metric, bool) {
	for _, x := range metricTable {
		if x.Name == name {
			return x, true
		}
	}
	return Metric{}, false
}

// Of is the metric's value in m (booleans 0/1, max_wait in milliseconds).
func (x Metric) Of(m Metrics) int64 { return x.get(m) }

// Format prints a value of the metric as reports do: true/false, 1.5s, 3.
func (x Metric) Format(v int64) string {
	switch x.Kind {
	case Flag:
		return strconv.FormatBool(v != 0)
	case Millis:
		return (time.Duration(v) * time.Millisecond).String()
	case Milli:
		return strconv.FormatFloat(float64(v)/1000, 'f', -1, 64)
	}
	return strconv.FormatInt(v, 10)
}

// Get returns a metric by its format name as an integer (booleans 0/1,
// max_wait in milliseconds), and false for an unknown name.
func (m Metrics) Get(name string) (int64, bool) {
	x, ok := LookupMetric(name)
	if !ok {
		return 0, false
	}
	return x.Of(m), true
}
