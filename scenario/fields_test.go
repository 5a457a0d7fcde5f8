package scenario

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Each key of the format is spelled once: as its const in fields.go. Any
// other string literal of the scenario layer (this package and its
// sub-packages: the reader, the build, the runner, the players) equal to a key (a "ttl" in a switch,
// a map key, an exporter's mapping) is a second spelling that the field
// table would not know about.
func TestFieldNamesSpelledOnce(t *testing.T) {
	var files []string // the format's package and the scenario layer's others
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	type lit struct {
		val string
		at  token.Position
	}
	var others []lit
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := goparser.ParseFile(fset, f, nil, goparser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(af) { // prebuilt/table.go: scenarios.yaml's values (a strategy named redlock), as Go
			continue
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && f == "fields.go" && strings.HasPrefix(vs.Names[0].Name, "key") {
				v, _ := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
				keys[v] = true
				return false
			}
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				v, _ := strconv.Unquote(bl.Value)
				others = append(others, lit{v, fset.Position(bl.Pos())})
			}
			return true
		})
	}
	if len(keys) < 40 {
		t.Fatalf("found %d key consts in fields.go; the test no longer reads it right", len(keys))
	}
	for _, l := range others {
		if keys[l.val] {
			t.Errorf("%s: %q is a field name of the format: use its const from fields.go", l.at, l.val)
		}
	}
}

// Every field of every table survives an export and a load: a file that
// sets each one to a value other than its default reads back the same.
func TestFieldTablesRoundTrip(t *testing.T) {
	data, err := os.ReadFile("../testdata/good/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// full.yaml leaves a few fields at their defaults or zero; set them.
	text := strings.NewReplacer("parallel: false", "parallel: true", "jitter: 0s", "jitter: 3ms",
		"restart_delay: 0s", "restart_delay: 2s", "nested: 0 ", "nested: 1 ", "seed: 1 ", "seed: 7 ",
		"clock: wall", "clock: monotonic", "max_renewals: 0 ", "max_renewals: 4 ").Replace(string(data))
	f, err := Load("full.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	if !s.Lock.Redlock.Parallel || s.Network.Jitter == 0 || s.Redis.RestartDelay == 0 || s.Clients[0].Nested != 1 ||
		s.Seed != 7 || s.Redis.Clock != "monotonic" || s.Lock.Watchdog.MaxRenewals != 4 {
		t.Fatalf("the replacements did not take: %+v", s)
	}
	out, err := Export(s, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load("exported.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got, want := *back.Scenarios[0], *s
	for _, x := range []*Scenario{&got, &want} {
		x.Pos, x.FaultPos = Pos{}, nil
		for i := range x.Clients {
			x.Clients[i].Pos = Pos{}
		}
		for i := range x.Expect {
			x.Expect[i].Pos = Pos{}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lost in export:\n got %+v\nwant %+v\n%s", got, want, out)
	}
}
