package model

import "github.com/lockstep-sim/lockstep/model/judge"

// The metric vocabulary is the judge's (model/judge/metrics.go); these
// names let the layers above spell it as model.X.

// Metric is one metric of the format (judge.Metric).
type Metric = judge.Metric

// MetricKind says how a metric is measured and written (judge.MetricKind).
type MetricKind = judge.MetricKind

// The kinds of metric.
const (
	Count  = judge.Count
	Flag   = judge.Flag
	Millis = judge.Millis
)

// The metrics' names in the scenario format.
const (
	MetricSafe              = judge.MetricSafe
	MetricViolations        = judge.MetricViolations
	MetricLostUpdates       = judge.MetricLostUpdates
	MetricFencingRejections = judge.MetricFencingRejections
	MetricWrongReleases     = judge.MetricWrongReleases
	MetricStuck             = judge.MetricStuck
	MetricAcquired          = judge.MetricAcquired
	MetricFailedAcquires    = judge.MetricFailedAcquires
	MetricMaxWait           = judge.MetricMaxWait
	MetricUnheldReleases    = judge.MetricUnheldReleases
)

// MetricTable is every metric, in the order reports list them.
func MetricTable() []Metric { return judge.MetricTable() }

// MetricNames are the metrics' names, in report order.
func MetricNames() []string { return judge.MetricNames() }

// LookupMetric returns the metric called name.
func LookupMetric(name string) (Metric, bool) { return judge.LookupMetric(name) }
