package scenario_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// transcriptDir holds one transcript per bundled scenario.
const transcriptDir = "../testdata/transcripts"

// transcriptUpdate is the command that rewrites the transcripts; the test
// names it in every failure and in every file's header.
const transcriptUpdate = "go test ./scenario -run TestTranscripts -update"

// transcriptMaxLines caps the trace part of one transcript: a longer trace
// keeps its first transcriptMaxLines lines, and the trace hash in the
// summary still covers all of it. It keeps testdata/transcripts reviewable
// (a few MB in all) while every short scenario is pinned line by line.
const transcriptMaxLines = 200_000

// transcriptName is what a scenario name may be to name a file.
var transcriptName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// TestTranscripts pins the behaviour of every bundled scenario: its whole
// trace as a person reads it, and the report of `lockstep run`, must equal
// testdata/transcripts/<scenario>.txt byte for byte. A reordered or
// reworded trace line fails here even when every metric still holds. After
// an intended change, regenerate with `go test ./scenario -run
// TestTranscripts -update` and commit the new transcripts on their own,
// saying why they changed.
func TestTranscripts(t *testing.T) {
	f := scenariotest.File(t)
	want := map[string]bool{}
	for _, s := range f.Scenarios {
		if !transcriptName.MatchString(s.Name) {
			t.Fatalf("scenario %q cannot name a transcript file", s.Name)
		}
		want[s.Name+".txt"] = true
		t.Run(s.Name, func(t *testing.T) {
			got := transcript(t, s)
			path := filepath.Join(transcriptDir, s.Name+".txt")
			if scenario.Updating() {
				if err := safefile.WriteFile(path, got, true); err != nil {
					t.Fatal(err)
				}
				return
			}
			old, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v\n(to create it: %s)", err, transcriptUpdate)
			}
			if d := scenario.FirstDiff(old, got); d != "" {
				t.Errorf("%s differs from this run:\n%s\nIf the change is intended: %s", path, d, transcriptUpdate)
			}
		})
	}
	checkStaleTranscripts(t, want)
}

// checkStaleTranscripts fails on (or, updating, removes) a transcript whose
// scenario is no longer bundled, so a rename cannot leave an orphan behind.
func checkStaleTranscripts(t *testing.T, want map[string]bool) {
	entries, err := os.ReadDir(transcriptDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if want[e.Name()] {
			continue
		}
		path := filepath.Join(transcriptDir, e.Name())
		if !scenario.Updating() {
			t.Errorf("%s belongs to no bundled scenario (remove it: %s)", path, transcriptUpdate)
		} else if err := os.Remove(path); err != nil {
			t.Error(err)
		}
	}
}

// transcript runs s and renders its trace and report.
func transcript(t *testing.T, s *scenario.Scenario) []byte {
	t.Helper()
	r, err := runner.New(s, scenario.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	var b bytes.Buffer
	writeTranscript(&b, rep, r.Events())
	return b.Bytes()
}

// writeTranscript writes the header, the trace in aligned columns (time,
// process, event kind, message) and the report with its trace hash.
func writeTranscript(b *bytes.Buffer, rep *runner.Report, events []sim.Event) {
	fmt.Fprintf(b, "# lockstep transcript: scenario %s, seed %d, from scenarios.yaml\n", rep.Scenario, rep.Seed)
	fmt.Fprintf(b, "# The trace (time, process, event, message), then the report of `lockstep run -s %s`.\n", rep.Scenario)
	fmt.Fprintf(b, "# Regenerate after an intended change: %s\n", transcriptUpdate)
	shown := events
	if len(events) > transcriptMaxLines {
		shown = events[:transcriptMaxLines]
		fmt.Fprintf(b, "# Capped: the first %d of %d trace lines; the trace hash below covers all of them.\n",
			len(shown), len(events))
	}
	b.WriteString("\n")
	writeTrace(b, shown)
	if len(shown) < len(events) {
		fmt.Fprintf(b, "... %d more trace lines\n", len(events)-len(shown))
	}
	b.WriteString("\n-- report\n")
	rep.WriteText(b)
	fmt.Fprintf(b, "  trace hash %s, %d trace lines, %d kernel events\n", rep.TraceHash, rep.Events, rep.KernelSteps)
}

// writeTrace writes events one a line, the time right-aligned and process
// and kind padded to the widest of each, so the columns line up. Text is
// escaped: a transcript is read in a terminal.
func writeTrace(b *bytes.Buffer, events []sim.Event) {
	type row struct{ at, proc, kind, msg string }
	rows := make([]row, len(events))
	var wAt, wProc, wKind int
	for i, e := range events {
		r := row{sim.FormatTime(e.At), termtext.Escape(e.Proc), termtext.Escape(e.Kind), termtext.Escape(e.Msg)}
		wAt, wProc, wKind = max(wAt, len(r.at)), max(wProc, len(r.proc)), max(wKind, len(r.kind))
		rows[i] = r
	}
	for _, r := range rows {
		line := fmt.Sprintf("%*s  %-*s  %-*s  %s", wAt, r.at, wProc, r.proc, wKind, r.kind, r.msg)
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
}
