package views

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
)

// The sentences the run view says when a fault cannot strike the selected
// process (a spec's Refuse, the resource's refusal) and a refused
// injection are said in the TUI's language: each has its zh entry.
func TestRefusalsInZH(t *testing.T) {
	i18n.Set(i18n.ZH)
	t.Cleanup(func() { i18n.Set(i18n.EN) })
	n := 0
	for _, k := range faults.Kinds {
		s := faults.Lookup(k)
		if why := refuseResource(k, model.ResourceName); why != "" {
			n++
			if !hasHan(why) {
				t.Errorf("%s on the resource: %q is not in zh", k, why)
			}
		}
		if s == nil || s.Refuse == nil {
			continue
		}
		for _, node := range []bool{true, false} {
			why := s.Refuse(node)
			if why == "" {
				continue
			}
			n++
			if got := refusal(why); got == why || !hasHan(got) {
				t.Errorf("%s (node %v): %q has no zh entry (got %q)", k, node, why, got)
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d refusals found: the walk is broken", n)
	}
	if got := tr("not injected: %s", errText(errors.New("boom"))); !strings.HasPrefix(got, "未注入") {
		t.Errorf("not injected: %q", got)
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}
