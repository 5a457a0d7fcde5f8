package views

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
)

// A recorded trace's first violation reads in the TUI's language: the
// trace player keeps the judge's phrase, so `tui --trace` in zh shows the
// same Chinese sentence as the live run, not the English.
func TestTraceFirstViolationInZH(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	const name = "gc-pause-wrong-delete"
	s, err := bundled(t).Find(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	r.Run()
	en, zh := r.World().Chk.FirstViolation(), r.World().Chk.FirstViolationIn("zh")
	r.Close()
	if en == "" || zh == en {
		t.Fatalf("%s: first violation en %q, zh %q", name, en, zh)
	}
	m := traceModel(t, name, 120, 36)
	press(m, "g", "g") // to the end of the trace
	if got := m.Run().snap.FirstViolationPhrase.In("zh"); got != zh {
		t.Fatalf("the trace's first violation in zh is %q, the run's %q", got, zh)
	}
	if got := m.Run().Player().Final().FirstViolationIn(i18n.ZH); got != zh {
		t.Errorf("the trace's final report's first violation in zh is %q, the run's %q", got, zh)
	}
	press(m, "v") // the first violation in full
	v := strings.ReplaceAll(flat(m.View()), " ", "")
	if !strings.Contains(v, strings.ReplaceAll(zh, " ", "")) || strings.Contains(flat(m.View()), "still believed") {
		t.Errorf("the recorded trace's first violation is not shown in zh (%q):\n%s", zh, m.View())
	}
}

// The note a recorded trace refuses with is in the catalogue, so it reads
// in zh (the catalogue's key is the note's text: this fails if they part).
func TestRecordedNoteInZH(t *testing.T) {
	inZH(t)
	m := traceModel(t, "gc-pause-wrong-delete", 120, 36)
	if got := recordedNote(m.Run().Player()); got == tracefile.RecordedNote || !strings.Contains(got, "录制") {
		t.Errorf("the recorded-trace note in zh is %q", got)
	}
	press(m, "p")
	if v := flat(m.View()); strings.Contains(v, "not re-simulated") || !strings.Contains(v, "不会重新模拟") {
		t.Errorf("a refusal in zh does not say why in zh:\n%s", m.View())
	}
}
