package scenario

import (
	"os"
	"regexp"
	"testing"
)

// docs/scenarios.md is the user's map of the bundled file: it must name
// every bundled scenario in its tables, and name none that does not exist.
func TestScenariosDocMatchesBundledFile(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllSubmatch(doc, -1) {
		rows[string(m[1])] = true
	}
	known := map[string]bool{}
	for _, s := range loadBundled(t).Scenarios {
		known[s.Name] = true
		if !rows[s.Name] {
			t.Errorf("docs/scenarios.md has no row for %s", s.Name)
		}
	}
	for name := range rows {
		if !known[name] {
			t.Errorf("docs/scenarios.md describes %s, which is not in scenarios.yaml", name)
		}
	}
}
