package views

import (
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
)

// Every kind's prompt, answered with its default (enter on an empty field),
// makes a fault of that kind that the scenario check accepts; the kinds
// without a prompt (failover, a client's crash) ask nothing.
func TestEveryPromptDefaultInjectsAValidFault(t *testing.T) {
	file, err := scenario.LoadFile("../scenarios.yaml") // a world with replicas, for failover
	if err != nil {
		t.Fatal(err)
	}
	f, err := file.Find("failover-before-replication")
	if err != nil {
		t.Fatal(err)
	}
	client := f.Clients[0].Name
	procs := append([]string{}, faults.NamesFor([]string{client}, f.Redis.Nodes, f.Redis.Replicas, 0).All()...)
	for _, spec := range faults.Specs() {
		for _, node := range []bool{false, true} {
			target := client
			if node {
				target = "redis-1"
			}
			if spec.Refuse != nil && spec.Refuse(node) != "" {
				continue
			}
			p := newPrompt(spec.Kind, target, node, false)
			if p == nil {
				if spec.Prompt != nil && !(spec.Prompt.NodeOnly && !node) {
					t.Errorf("%s on %s: no prompt", spec.Kind, target)
				}
				continue
			}
			if p.label == "" || p.def == "" {
				t.Errorf("%s: prompt without a question or a default", spec.Kind)
			}
			p.procs = procs
			fl, err := p.fault()
			if err != nil {
				t.Errorf("%s on %s: the default %q is refused: %v", spec.Kind, target, p.def, err)
				continue
			}
			s := *f
			fl.At = s.Duration / 2
			s.Faults = append(s.Faults[:len(s.Faults):len(s.Faults)], fl)
			if err := s.Validate(); err != nil || fl.Kind != spec.Kind {
				t.Errorf("%s on %s: %+v: %v", spec.Kind, target, fl, err)
			}
		}
	}
}
