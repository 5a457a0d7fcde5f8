package scenario

import (
	"math"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
)

// maxRate bounds a rate in an expectation (holds per second): far above any
// a run can reach, far below where thousandths overflow.
const maxRate = 1e9

// isRateMetric reports whether metric is a rate (throughput), written as a
// number such as 2.5 and kept in thousandths.
func isRateMetric(metric string) bool {
	x, ok := model.LookupMetric(metric)
	return ok && x.Kind == model.Milli
}

// parseRate reads a rate expectation's operand: a number from 0 to maxRate
// with at most three decimals.
func parseRate(metric, op string, operand *yaml.Node, bad func() i18n.Msg) (string, int64, i18n.Msg) {
	f, err := strconv.ParseFloat(operand.Value, 64)
	if err != nil || math.IsNaN(f) {
		return "", 0, bad()
	}
	if f < 0 || f > maxRate {
		return "", 0, i18n.M("%s is a rate between 0 and %g (got %s)", metric, maxRate, echo(operand.Value))
	}
	v := math.Round(f * 1000)
	if math.Abs(v-f*1000) > 1e-6 {
		return "", 0, i18n.M("%s is compared in thousandths; %s has more decimals", metric, echo(operand.Value))
	}
	return op, int64(v), i18n.Msg{}
}
