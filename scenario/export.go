package scenario

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
)

// Export writes scenario s as run with options o (strategy and seed
// overrides, injected faults) as a scenarios.yaml document holding that one
// scenario, so `lockstep run -f FILE` replays the same run: same trace, same
// metrics. Injected faults follow the file's own, in schedule order, which
// is the order the run applied them in.
//
// With outcome non-nil the expect: block states what that run measured
// (the file becomes a regression test of the run); otherwise s's own
// expectations are kept. When o changes anything the scenario is renamed
// NAME-live and its title says how many faults were injected.
func Export(s *Scenario, o Options, outcome *model.Metrics) ([]byte, error) {
	out := *s
	out.Faults = slices.Concat(s.Faults, o.ExtraFaults)
	out.FaultPos = nil
	switch {
	case IsProfile(o.Strategy):
		if l, _, err := ProfileLock(o.Strategy, s.Lock); err == nil {
			out.Lock, out.Redis.Nodes = l, NodesFor(l.Strategy, s.Redis.Nodes)
		}
	case o.Strategy != "":
		if o.Strategy != s.Lock.Strategy {
			out.Lock.Client = "" // another strategy is not the profile's library
		}
		out.Lock.Strategy = o.Strategy
	}
	if o.Seed != nil {
		out.Seed = *o.Seed
	}
	if len(o.ExtraFaults) > 0 || o.Strategy != "" || o.Seed != nil {
		out.Name = s.Name + "-live"
		out.Title = fmt.Sprintf("%s (%d fault(s) injected live)", s.Title, len(o.ExtraFaults))
		out.I18n = s.I18n.liveTitle(len(o.ExtraFaults))
	}
	if outcome != nil {
		out.Expect = outcomeExpect(outcome)
	}
	if err := out.Validate(); err != nil {
		return nil, err
	}
	doc := mapping(
		keyVersion, intNode(supportedFormat),
		keyScenarios, seq(writeSection(scenarioSection, &out)),
	)
	var buf bytes.Buffer
	buf.WriteString("# Written by lockstep: replay with `lockstep run -f FILE`.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// outcomeExpect states a run's measurements as expectations.
func outcomeExpect(m *model.Metrics) []Expectation {
	var out []Expectation
	for _, mt := range model.MetricTable() {
		if !mt.Outcome {
			continue
		}
		name, v := mt.Name, mt.Of(*m)
		x := Expectation{Metric: name, Op: "==", Value: v, Bool: isBoolMetric(name)}
		x.Raw = strconv.FormatInt(v, 10)
		if x.Bool {
			x.Raw = strconv.FormatBool(v != 0)
		}
		out = append(out, x)
	}
	return out
}

// faultBody is the mapping under a fault's kind: the fields its spec lists,
// in the spec's order, leaving out an optional one that is zero.
func faultBody(f faults.Fault) *yaml.Node {
	n := mapping()
	n.Style = yaml.FlowStyle
	for _, fd := range faults.Lookup(f.Kind).Fields {
		p := fd.Ptr(&f)
		if fd.OmitZero && isZero(p) {
			continue
		}
		add(n, fd.Name, faultValue(p))
	}
	return n
}

// isZero reports whether the fault field p points at holds zero (or less:
// an optional duration is only written when positive).
func isZero(p any) bool {
	d, ok := p.(*time.Duration)
	return ok && *d <= 0
}

// faultValue is one field of a fault as YAML, by the field's type.
func faultValue(p any) *yaml.Node {
	switch v := p.(type) {
	case *string:
		return str(*v)
	case *time.Duration:
		return dur(*v)
	case *float64:
		return floatNode(*v)
	case *[][]string:
		gs := seq()
		for _, g := range *v {
			var ms []*yaml.Node
			for _, m := range g {
				ms = append(ms, str(m))
			}
			gs.Content = append(gs.Content, seq(ms...))
		}
		return gs
	}
	return nil
}

func expectValue(e Expectation) *yaml.Node {
	switch {
	case e.Bool:
		return boolNode(e.Value != 0)
	case isRateMetric(e.Metric):
		v := formatMetric(e.Metric, e.Value)
		if e.Op == "==" {
			return floatNode(float64(e.Value) / 1000)
		}
		return str(e.Op + " " + v)
	case isMillisMetric(e.Metric):
		d := (time.Duration(e.Value) * time.Millisecond).String()
		if e.Op != "==" {
			d = e.Op + " " + d
		}
		return str(d)
	case e.Op == "==":
		return intNode(int(e.Value))
	}
	return str(e.Op + " " + strconv.FormatInt(e.Value, 10))
}

// YAML node builders.

func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		add(n, kv[i].(string), kv[i+1].(*yaml.Node))
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func dur(d time.Duration) *yaml.Node {
	if d == 0 {
		return str("0s")
	}
	return str(d.String())
}

func intNode(v int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}
}

func floatNode(v float64) *yaml.Node {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0" // so the text reads as a float, not an int with a !!float tag
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
}

func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
}
