package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// `lockstep --lang zh run` writes its text report in Chinese: titles,
// the sentences around the metrics, the first violation and the stuck
// reason (the judge's phrases), the summary. Pinned for three scenarios
// (a wrong release, a stuck lock, a fencing rejection) in
// testdata/run-zh.golden; LOCKSTEP_UPDATE_GOLDEN=1 rewrites it. The
// English report of the same run is the transcripts' business, and
// --json is the same in both languages (TestJSONSameInBothLanguages).
func TestRunTextInChinese(t *testing.T) {
	args := []string{"--lang", "zh", "run", "-s", "gc-pause-wrong-delete", "-s", "setnx-del-crash", "-s", "fencing-token-kleppmann"}
	code, out, stderr := runCLI(t, args...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden := filepath.Join("testdata", "run-zh.golden")
	if os.Getenv("LOCKSTEP_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with LOCKSTEP_UPDATE_GOLDEN=1 go test -run TestRunTextInChinese .)", err)
	}
	if out != string(want) {
		t.Errorf("the zh report differs from %s:\n%s", golden, out)
	}
	for _, en := range []string{"strategy ", "first violation:", "stuck:", "(got ", "scenarios:"} {
		if strings.Contains(out, en) {
			t.Errorf("the zh report still says %q", en)
		}
	}
}

// The whole catalogue as the binary has it (with the entries packages such
// as scenario register at init) is complete: every entry has its zh text,
// different from the English, with the same verbs.
func TestRegisteredCatalogueComplete(t *testing.T) {
	for _, p := range i18n.Check(i18n.Entries()) {
		t.Error(p)
	}
}
