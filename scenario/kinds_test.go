package scenario_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// Faults of every kind, drawn as explore draws them, survive export and
// load unchanged: the loader and the exporter read the same field table.
func TestEveryKindRoundTrips(t *testing.T) {
	s := scenariotest.Scenario(t, "failover-before-replication")
	var clients []string
	for _, c := range s.Clients {
		clients = append(clients, c.Name)
	}
	names := faults.NamesFor(clients, s.Redis.Nodes, s.Redis.Replicas, s.Redis.Sentinels)
	g := &faults.Gen{R: rand.New(rand.NewPCG(7, 7)), Names: names, TTL: s.Lock.TTL}
	var extra []faults.Fault
	for i := range 5 {
		for _, k := range faults.Kinds {
			f := faults.Generate(g, k)
			f.At = s.Duration / 10 * time.Duration(i+1)
			extra = append(extra, f)
		}
	}
	data, err := scenario.Export(s, scenario.Options{ExtraFaults: extra}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Load("every-kind.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	want := append(append([]faults.Fault(nil), s.Faults...), extra...)
	if got := back.Scenarios[0].Faults; !reflect.DeepEqual(got, want) {
		t.Fatalf("faults changed in the round trip:\n got %+v\nwant %+v\n%s", got, want, data)
	}
}

// The format's documentation shows every fault kind with every field it
// takes, and explains every metric.
func TestDocsNameEveryKindAndMetric(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenario-format.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, s := range faults.Specs() {
		i := strings.Index(text, "        "+string(s.Kind)+": {")
		if i < 0 {
			t.Errorf("docs/scenario-format.md has no example of %s", s.Kind)
			continue
		}
		line := text[i : i+strings.IndexByte(text[i:], '\n')]
		for _, fd := range s.Fields {
			if fd.OmitZero && !strings.Contains(line, fd.Name+":") {
				line = text[i:] // an optional field may be shown in a later example
			}
			if !strings.Contains(line, fd.Name+":") {
				t.Errorf("the example of %s does not show %s", s.Kind, fd.Name)
			}
		}
	}
	for _, name := range scenario.MetricNames {
		if !strings.Contains(text, "`"+name+"`") {
			t.Errorf("docs/scenario-format.md does not explain metric %s", name)
		}
	}
}

// The JSON report names every metric of the table, in its order, right
// after seed; and Get reads each back.
func TestReportJSONFollowsTheMetricTable(t *testing.T) {
	s := scenariotest.Scenario(t, "gc-pause-wrong-delete")
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	var keys []string
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	at := -1
	for i, k := range keys {
		if k == "seed" {
			at = i + 1
		}
	}
	if at < 0 || at+len(scenario.MetricNames) > len(keys) || !reflect.DeepEqual(keys[at:at+len(scenario.MetricNames)], scenario.MetricNames) {
		t.Fatalf("keys %v: want the metrics %v after seed", keys, scenario.MetricNames)
	}
	var obj map[string]any
	if err := json.Unmarshal(js, &obj); err != nil {
		t.Fatal(err)
	}
	for _, x := range model.MetricTable() {
		v, ok := rep.Metrics.Get(x.Name)
		if !ok {
			t.Fatalf("Get(%s) unknown", x.Name)
		}
		var want any = float64(v)
		if x.Kind == model.Flag {
			want = v != 0
		}
		if x.Kind == model.Milli {
			want = float64(v) / 1000
		}
		if obj[x.Name] != want {
			t.Errorf("%s: JSON %v, Get %v", x.Name, obj[x.Name], want)
		}
	}
}
