package scenario

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
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

// docs/scenario-format.md's table of limits and scenario/limits.go agree:
// every exported limit has a row, and the row states its value.
func TestLimitsDocMatchesCode(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenario-format.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\w+)` \\| .* \\| ([^|]+) \\|$").FindAllSubmatch(doc, -1) {
		rows[string(m[1])] = string(m[2])
	}
	values := map[string]string{
		"MaxFileSize": fmt.Sprint(MaxFileSize), "MaxScenarios": fmt.Sprint(MaxScenarios),
		"MaxClients": fmt.Sprint(MaxClients), "MaxFaults": fmt.Sprint(MaxFaults),
		"MaxNodes": fmt.Sprint(MaxNodes), "MaxReplicas": fmt.Sprint(MaxReplicas),
		"MaxSentinels": fmt.Sprint(MaxSentinels), "MaxHolds": fmt.Sprint(MaxHolds),
		"MaxNested": fmt.Sprint(MaxNested), "MaxTotalHolds": fmt.Sprint(MaxTotalHolds),
		"MaxAttempts": fmt.Sprint(MaxAttempts), "MaxRenewals": fmt.Sprint(MaxRenewals),
		"MaxBackoff": fmt.Sprint(MaxBackoff), "MaxDuration": fmtDur(MaxDuration),
		"MinTTL": fmtDur(MinTTL), "MinCycle": fmtDur(MinCycle),
		"MaxNameLen": fmt.Sprint(MaxNameLen), "MaxClientNameLen": fmt.Sprint(MaxClientNameLen),
		"MaxKeyLen": fmt.Sprint(MaxKeyLen), "MaxTitleLen": fmt.Sprint(MaxTitleLen),
		"MaxStoryLen": fmt.Sprint(MaxStoryLen), "DefaultEventBudget": fmt.Sprint(DefaultEventBudget),
		"MaxLinks": fmt.Sprint(MaxLinks),
	}
	values["MaxDriverRetries"] = fmt.Sprint(MaxDriverRetries)
	// Every exported constant of limits.go is in values (so in the table).
	f, err := goparser.ParseFile(token.NewFileSet(), "limits.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, sp := range g.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					if _, ok := values[n.Name]; n.IsExported() && !ok {
						t.Errorf("limits.go exports %s, which this test and the docs' table of limits lack", n.Name)
					}
				}
			}
		}
	}
	for name, v := range values {
		row, ok := rows[name]
		switch {
		case !ok:
			t.Errorf("docs/scenario-format.md has no row for %s", name)
		case !strings.HasPrefix(row, v):
			t.Errorf("docs/scenario-format.md says %s is %q; the code says %s", name, row, v)
		}
	}
}
