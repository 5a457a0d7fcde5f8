package views

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// Every question of every fault kind in faults' table (both wordings of a
// kind that asks differently with a watchdog) has a zh entry in the
// catalogue, keyed by the English label, and renders in zh as another text
// that still names the target.
func TestEveryFaultPromptHasZH(t *testing.T) {
	n := 0
	for _, s := range faults.Specs() {
		if s.Prompt == nil {
			continue
		}
		for _, watchdog := range []bool{false, true} {
			format, args := s.Prompt.Question("redis-9", watchdog)
			n++
			if !i18n.Has(format) {
				t.Errorf("%s: no catalogue entry for its question %q (internal/i18n/zh_faults.go)", s.Kind, format)
				continue
			}
			en, zh := i18n.EN.Sprintf(format, args...), i18n.ZH.Sprintf(format, args...)
			if en != fmt.Sprintf(format, args...) || zh == en {
				t.Errorf("%s: en %q, zh %q", s.Kind, en, zh)
			}
			if len(args) > 0 && !strings.Contains(zh, "redis-9") {
				t.Errorf("%s: the zh question %q lost the target", s.Kind, zh)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d questions: the walk over faults.Specs is broken", n)
	}
}

// The English questions are what the TUI asked before they were
// translated.
func TestFaultPromptEnglish(t *testing.T) {
	for kind, want := range map[faults.Kind]string{
		faults.Pause:     "GC pause A for",
		faults.Slow:      "slow A's links: +latency [loss 0..1] [for]",
		faults.Partition: "partition: groups split by |, then for",
		faults.Isolate:   "isolate A for",
	} {
		format, args := faults.Lookup(kind).Prompt.Question("A", false)
		if got := i18n.EN.Sprintf(format, args...); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
}

// The clock-jump question at 80x24 in zh (NO_COLOR).
func TestGoldenZHPrompt80x24(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 80, 24, "n", "j")
}

// Every answer a fault's prompt refuses is a faults.PromptError whose
// format has a zh entry, and the prompt says it in zh.
func TestFaultPromptRefusalsHaveZH(t *testing.T) {
	inZH(t)
	answers := []string{"abc", "0s", "-1s", "0", "0x", "A redis-1", "rest | rest 5s", "A redis-1 | rest", "A | B 0s",
		"200ms 2", "200ms 0.1 -1s", "0s 0", "bogus 0.1", "1 2 3 4", "-2s"}
	procs := []string{"A", "redis-1"}
	formats := map[string]bool{}
	for _, s := range faults.Specs() {
		if s.Prompt == nil {
			continue
		}
		for _, v := range answers {
			f := faults.Fault{Kind: s.Kind, Target: "A"}
			err := s.Prompt.Parse(v, procs, &f)
			if err == nil {
				continue
			}
			var refused *faults.PromptError
			if !errors.As(err, &refused) {
				t.Errorf("%s %q: %v is not a PromptError", s.Kind, v, err)
				continue
			}
			formats[refused.Format] = true
			if !i18n.Has(refused.Format) {
				t.Errorf("%s %q: no catalogue entry for %q", s.Kind, v, refused.Format)
			}
			p := &prompt{kind: s.Kind, target: "A", ask: s.Prompt, procs: procs, def: v}
			if _, err := p.fault(); err == nil || err.Error() == refused.Error() {
				t.Errorf("%s %q: the prompt says %v, not in zh", s.Kind, v, err)
			}
		}
	}
	if len(formats) < 10 {
		t.Errorf("only %d refusals met: %v", len(formats), formats)
	}
}
