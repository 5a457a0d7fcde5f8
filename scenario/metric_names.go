package scenario

import "github.com/lockstep-sim/lockstep/model"

// MetricNames are the metrics in the order reports list them (the format's
// names, from model's table).
var MetricNames = model.MetricNames()

// isBoolMetric reports whether metric takes true/false rather than a count.
func isBoolMetric(metric string) bool {
	x, ok := model.LookupMetric(metric)
	return ok && x.Kind == model.Flag
}

// isMillisMetric reports whether metric is a duration, compared in whole
// milliseconds.
func isMillisMetric(metric string) bool {
	x, ok := model.LookupMetric(metric)
	return ok && x.Kind == model.Millis
}

func formatMetric(name string, v int64) string {
	x, _ := model.LookupMetric(name)
	return x.Format(v)
}
