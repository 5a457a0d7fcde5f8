package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
)

// metricOf is metric x of a report: max_wait as the report states it.
func metricOf(rep *Report, x model.Metric) int64 {
	if x.Kind == model.Millis {
		return rep.MaxWaitMS
	}
	return x.Of(rep.Metrics)
}

// metricsText is the text report's metrics, line by line (1, 2), as
// "name value" pairs split by two spaces.
func metricsText(rep *Report, line int) string {
	var parts []string
	for _, x := range model.MetricTable() {
		if v := metricOf(rep, x); x.TextLine == line && (v != 0 || !x.HideZero) {
			parts = append(parts, x.Name+" "+x.Format(v))
		}
	}
	return strings.Join(parts, "  ")
}

// reportJSON is Report without its methods, for the default encoding.
type reportJSON Report

// MarshalJSON writes the report with its metrics, named by the table, after
// seed: the fields of `lockstep run --json`, in the order they always had.
func (rep *Report) MarshalJSON() ([]byte, error) {
	body, err := encodeNoHTML((*reportJSON)(rep))
	if err != nil {
		return nil, err
	}
	// The metrics go before sim_time_ms, the first field after them; a
	// string value cannot hold this text unescaped.
	const after = `,"sim_time_ms":`
	i := bytes.Index(body, []byte(after))
	if i < 0 {
		return nil, fmt.Errorf("report JSON without sim_time_ms")
	}
	var b bytes.Buffer
	b.Write(body[:i])
	for _, x := range model.MetricTable() {
		// Flags are JSON booleans, counts numbers, max_wait milliseconds.
		val := x.Format(metricOf(rep, x))
		if x.Kind == model.Millis {
			val = strconv.FormatInt(rep.MaxWaitMS, 10)
		}
		fmt.Fprintf(&b, `,%q:%s`, x.Name, val)
	}
	b.Write(body[i:])
	return b.Bytes(), nil
}

// MarshalJSON writes the column as its report followed by what the
// comparison adds (Report's MarshalJSON would otherwise stand for it all).
func (c *Column) MarshalJSON() ([]byte, error) {
	rep, err := c.Report.MarshalJSON()
	if err != nil {
		return nil, err
	}
	type extra struct {
		Nodes        int                `json:"nodes"`
		Why          string             `json:"why"`
		FaultsBefore []string           `json:"faults_before_violation,omitempty"`
		Dropped      []scenario.Dropped `json:"dropped,omitempty"`
	}
	more, err := encodeNoHTML(extra{c.Nodes, c.Why, c.FaultsBefore, c.Dropped})
	if err != nil {
		return nil, err
	}
	out := append(rep[:len(rep)-1:len(rep)-1], ',')
	return append(out, more[1:]...), nil
}

// encodeNoHTML is json.Marshal without HTML escaping (the CLI's encoders
// turn it off; an escaped "<" here would survive their re-indenting).
func encodeNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
