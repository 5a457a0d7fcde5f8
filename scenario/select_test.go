package scenario

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// LoadSelected gives exactly the scenario the full load gives, positions
// included, for every bundled scenario, alone and in company; an unknown
// name falls back to the full load, whose error lists every name.
func TestLoadSelectedMatchesLoad(t *testing.T) {
	data, full := readBundled(t)
	for _, want := range full.Scenarios {
		f, err := LoadSelected("scenarios.yaml", data, []string{want.Name})
		if err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		if len(f.Scenarios) != 1 || !reflect.DeepEqual(f.Scenarios[0], want) {
			t.Fatalf("%s: selected load differs from the full load", want.Name)
		}
	}
	first, last := full.Scenarios[0], full.Scenarios[len(full.Scenarios)-1]
	f, err := LoadSelected("scenarios.yaml", data, []string{last.Name, first.Name, last.Name})
	if err != nil || len(f.Scenarios) != 2 || !reflect.DeepEqual(f.Scenarios, []*Scenario{first, last}) {
		t.Fatalf("two names: %v, %d scenarios", err, len(f.Scenarios))
	}
	f, err = LoadSelected("scenarios.yaml", data, []string{first.Name, "no-such"})
	if err != nil || len(f.Scenarios) != len(full.Scenarios) {
		t.Fatalf("an unknown name should fall back to the full file: %v", err)
	}
	if _, err := f.Find("no-such"); err == nil || !strings.Contains(err.Error(), last.Name) {
		t.Fatalf("the error should list every name: %v", err)
	}
}

// An empty name is refused, not taken as "all of them".
func TestLoadSelectedEmptyName(t *testing.T) {
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadSelected("scenarios.yaml", data, []string{"gc-pause-lua-release", ""})
	if err == nil || err.Error() != "scenarios.yaml: a scenario name is empty: name a scenario of the file (lockstep list shows them)" {
		t.Errorf("LoadSelected with an empty name = %v", err)
	}
}

// A kept scenario that does not load is reported as the full load reports
// it: at its line in the whole file, not in the text kept.
func TestLoadSelectedErrorAtFileLine(t *testing.T) {
	data, full := readBundled(t)
	last := full.Scenarios[len(full.Scenarios)-1]
	item := []byte("  - name: " + last.Name + "\n")
	at := bytes.Index(data, item)
	if at < 0 {
		t.Fatalf("no item line for %s", last.Name)
	}
	bad := slices.Concat(data[:at], item, []byte("    no_such_key: 1\n"), data[at+len(item):])
	_, want := Load("scenarios.yaml", bad)
	_, got := LoadSelected("scenarios.yaml", bad, []string{last.Name})
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("LoadSelected error %v, want the full load's %v", got, want)
	}
	if !strings.Contains(want.Error(), fmt.Sprintf(":%d:", bytes.Count(data[:at], []byte("\n"))+2)) {
		t.Fatalf("the error %v is not at the line after %s's item line", want, last.Name)
	}
}

// The comment lines outside the items' bodies are not parsed; a line of a
// story that starts with # is the story's, and stays.
func TestLoadSelectedDropsOnlyComments(t *testing.T) {
	data, full := readBundled(t)
	first := full.Scenarios[0]
	k, ok := selectScenarios(data, []string{first.Name})
	if !ok {
		t.Fatalf("%s not found", first.Name)
	}
	for _, l := range bytes.SplitAfter(k.text, []byte("\n")) {
		if commentLine(l) {
			t.Fatalf("comment line kept: %q", l)
		}
	}
	// A story line starting with #, and comments before the item.
	at := bytes.Index(data, []byte("  - name: "+first.Name+"\n"))
	st := at + bytes.Index(data[at:], []byte("    story: |\n")) + len("    story: |\n")
	edited := slices.Concat(data[:at], []byte("# a comment\n  # a banner\n"), data[at:st], []byte("      # not a comment\n"), data[st:])
	want, err := Load("scenarios.yaml", edited)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadSelected("scenarios.yaml", edited, []string{first.Name})
	if err != nil || !reflect.DeepEqual(got.Scenarios[0], want.Scenarios[0]) {
		t.Fatalf("LoadSelected %v; want the full load's scenario", err)
	}
	if !strings.HasPrefix(got.Scenarios[0].Story, "# not a comment\n") {
		t.Fatalf("story %q", got.Scenarios[0].Story)
	}
}

// Reading stops at the first item after the last name: a top-level key
// written after the list is not in the kept text, and the selected load
// falls back to the full one, which reads it.
func TestLoadSelectedStopsAfterTheLastName(t *testing.T) {
	data, full := readBundled(t)
	first := full.Scenarios[0]
	version := []byte("version: 1\n")
	at := bytes.Index(data, version)
	if at < 0 {
		t.Fatal("no version line in the bundled file")
	}
	moved := slices.Concat(data[:at], data[at+len(version):], version)
	k, ok := selectScenarios(moved, []string{first.Name})
	if !ok || bytes.Contains(k.text, version) || !bytes.Contains(k.text, []byte("  - name: "+first.Name+"\n")) {
		t.Fatalf("kept text of %s (found %v) should end with its item:\n%s", first.Name, ok, k.text)
	}
	want, err := Load("scenarios.yaml", moved)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadSelected("scenarios.yaml", moved, []string{first.Name})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("LoadSelected %v; want the full load's file", err)
	}
}
