package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockstep-sim/lockstep/scenario/yamlfile"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"gopkg.in/yaml.v3"
)

// ExpectResult is one expectation checked against the run.
type ExpectResult struct {
	Field string `json:"field"`
	Want  string `json:"want"`
	Got   string `json:"got"`
	OK    bool   `json:"ok"`
}

// Result is e checked against the metrics m, as a report lists it.
func (e Expectation) Result(m model.Metrics) ExpectResult {
	got, _ := m.Get(e.Metric)
	return ExpectResult{Field: e.Metric, Want: e.Raw, Got: formatMetric(e.Metric, got), OK: e.Check(got)}
}

// Comparison operators an expectation may use.
var expectOps = []string{"==", ">=", "<=", ">", "<"}

// comparisonRE splits "<= 2s" into operator and operand. The operator is
// optional so a quoted "3" still means exactly 3. ">=" and "<=" come before
// ">" and "<" so the longer operator wins. Compiled on first use: most
// expectations are bare numbers and booleans.
var comparisonRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(>=|<=|==|>|<)?\s*(\S+)\s*$`) })

// Check reports whether got, the measured value of e.Metric, satisfies the
// expectation. Booleans are measured as 1 (true) or 0 (false); max_wait in
// whole milliseconds.
func (e Expectation) Check(got int64) bool {
	switch e.Op {
	case "==":
		return got == e.Value
	case ">=":
		return got >= e.Value
	case "<=":
		return got <= e.Value
	case ">":
		return got > e.Value
	case "<":
		return got < e.Value
	}
	return false
}

// expect walks the expect mapping, keeping file order.
func (p *parser) expect(n *yaml.Node) []Expectation {
	if r := p.Resolve(n); r.Kind == yaml.ScalarNode && r.Tag == "!!null" {
		return nil // "expect:" with nothing after it expects nothing
	}
	var out []Expectation
	for _, e := range p.Fields(n, keyExpect, MetricNames) {
		v := p.Scalar(e.V, e.Key)
		x := Expectation{Pos: pos(e.K), Metric: e.Key, Op: "==", Raw: v.Value, Bool: isBoolMetric(e.Key)}
		var msg i18n.Msg
		x.Op, x.Value, msg = parseExpectValue(e.Key, v)
		if msg.Format != "" {
			p.Fail(v, "%s", msg)
		}
		if x.Op == "<" && x.Value == 0 {
			p.Fail(v, "%s: %s can never hold (no metric is negative)", e.Key, echo(v.Value))
		}
		out = append(out, x)
	}
	return out
}

// parseExpectValue reads one expectation value: a boolean for safe/stuck, a
// count or count comparison for the counters, a duration or duration
// comparison for max_wait (stored in milliseconds). It returns a message
// instead when the value is not acceptable.
func parseExpectValue(metric string, v *yaml.Node) (op string, value int64, msg i18n.Msg) {
	if isBoolMetric(metric) {
		if v.Tag == "!!bool" {
			if strings.EqualFold(v.Value, "true") {
				return "==", 1, i18n.Msg{}
			}
			return "==", 0, i18n.Msg{}
		}
		return "", 0, i18n.M("%s must be true or false (unquoted), not %s", metric, echo(v.Value))
	}
	bad := func() i18n.Msg { // made only for the message
		if isMillisMetric(metric) {
			return i18n.M(`bad expectation %s for %s: write a duration (meaning exactly) or a quoted comparison such as "<= 2s", "< 500ms", "== 0s"`, echo(v.Value), metric)
		}
		return i18n.M(`bad expectation %s for %s: write a whole number (meaning exactly) or a quoted comparison such as ">= 1", "<= 3", "> 0", "< 5", "== 2"`, echo(v.Value), metric)
	}
	op, operand, ok := splitComparison(v)
	if !ok {
		return "", 0, bad()
	}
	if isRateMetric(metric) {
		return parseRate(metric, op, operand, bad)
	}
	if isMillisMetric(metric) {
		return parseExpectMillis(metric, op, operand)
	}
	n, err := strconv.ParseInt(operand.Value, 10, 64)
	if operand.Tag != "!!int" || err != nil {
		return "", 0, bad()
	}
	if n < 0 {
		return "", 0, i18n.M("%s counts events and cannot be negative (got %d)", metric, n)
	}
	return op, n, i18n.Msg{}
}

// splitComparison is an expectation's operator and operand: "==" and the
// value itself for a bare number or duration, or the two halves of a
// quoted comparison ("<= 2s"); false when it is neither.
func splitComparison(v *yaml.Node) (op string, operand *yaml.Node, ok bool) {
	switch v.Tag {
	case "!!int", "!!float":
		return "==", v, true
	case "!!str":
		m := comparisonRE().FindStringSubmatch(v.Value)
		if m == nil {
			return "", nil, false
		}
		op = "=="
		if m[1] != "" {
			op = m[1]
		}
		// Re-resolve the operand as YAML would so "<= 0" and "<= 2s" take
		// the same paths as bare 0 and "2s".
		var tmp yaml.Node
		tmp.SetString(m[2])
		if _, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			tmp.Tag = "!!int"
		}
		return op, &tmp, true
	}
	return "", nil, false
}

// parseExpectMillis is the operand of a duration metric (max_wait), in
// whole milliseconds.
func parseExpectMillis(metric, op string, operand *yaml.Node) (string, int64, i18n.Msg) {
	d, dmsg := yamlfile.ParseDuration(operand, yamlLimits)
	switch {
	case dmsg.Format != "":
		return "", 0, i18n.M("%s: %s", metric, dmsg)
	case d < 0 || d > MaxDuration:
		return "", 0, i18n.M("%s must be between 0s and %s (got %s)", metric, fmtDur(MaxDuration), echo(operand.Value))
	case d%time.Millisecond != 0:
		return "", 0, i18n.M("%s is compared in whole milliseconds; %s is not one", metric, operand.Value)
	}
	return op, d.Milliseconds(), i18n.Msg{}
}

// validateExpect re-checks expectations built in code rather than loaded.
func validateExpect(x Expectation) string {
	switch {
	case !slices.Contains(MetricNames, x.Metric):
		return fmt.Sprintf("unknown metric %s in %s (metrics: %s)", echo(x.Metric), keyExpect, strings.Join(MetricNames, ", "))
	case !slices.Contains(expectOps, x.Op):
		return fmt.Sprintf("expectation of %s has operator %s; use one of %s", x.Metric, echo(x.Op), strings.Join(expectOps, " "))
	case x.Value < 0:
		return fmt.Sprintf("expectation of %s compares with %d; metrics are never negative", x.Metric, x.Value)
	case x.Bool != isBoolMetric(x.Metric):
		return fmt.Sprintf("expectation of %s: Bool must be %v", x.Metric, isBoolMetric(x.Metric))
	case x.Bool && (x.Op != "==" || x.Value > 1):
		return fmt.Sprintf("expectation of %s must be == 0 (false) or == 1 (true)", x.Metric)
	}
	return ""
}
