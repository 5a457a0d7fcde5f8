package yamlfile

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var testLimits = Limits{MaxVisits: 1000, MaxDepth: 4, MaxDuration: "24h"}

// read parses src and walks its root mapping with Fields (keys a and b),
// as a format built on the reader would.
func read(t *testing.T, src string, unknown func(*Parser, *yaml.Node, any)) ([]Entry, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	walk := func() (es []Entry, err error) {
		defer Catch(&err)
		p := NewParser("f.yaml", testLimits)
		p.Unknown = unknown
		return p.Fields(doc.Content[0], "top", []string{"a", "b"}), nil
	}
	return walk()
}

// TestFieldsAlone: the reader walks a mapping with merge keys and refuses
// a duplicate key at its own position, knowing nothing of any format.
func TestFieldsAlone(t *testing.T) {
	if _, err := read(t, "base: &b {b: 2}\n", nil); err == nil || err.Error() != `f.yaml:1:1: unknown field "base" in top (known: a, b)` {
		t.Fatalf("unknown key: %v", err)
	}
	es, err := read(t, "a: 1\n<<: {b: 2, a: 3}\n", nil)
	if err != nil || len(es) != 2 || es[0].Key != "a" || es[0].V.Value != "1" || es[1].Key != "b" {
		t.Fatalf("merge: %v %+v", err, es)
	}
	_, err = read(t, "a: 1\nb: 2\na: 3\n", nil)
	var e *Error
	if !errors.As(err, &e) || e.Pos != (Pos{Line: 3, Col: 1}) || e.Msg != `duplicate field "a" in top (first at line 1)` {
		t.Fatalf("duplicate: %v", err)
	}
}

// TestUnknownHook: a format's own message for a key that is not a field
// wins over the reader's "unknown field"; a hook that returns leaves it.
func TestUnknownHook(t *testing.T) {
	own := func(p *Parser, k *yaml.Node, what any) {
		if k.Value == "kind" {
			p.Fail(k, "unknown kind %s", Echo(k.Value))
		}
	}
	if _, err := read(t, "a: 1\nkind: 2\n", own); err == nil || err.Error() != `f.yaml:2:1: unknown kind "kind"` {
		t.Fatalf("hook: %v", err)
	}
	if _, err := read(t, "c: 1\n", own); err == nil || err.Error() != `f.yaml:1:1: unknown field "c" in top (known: a, b)` {
		t.Fatalf("after the hook: %v", err)
	}
}

// TestAliasBudget: aliases that expand past Limits.MaxVisits stop the walk.
func TestAliasBudget(t *testing.T) {
	src := "a: &x [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &y [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x]\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	walk := func(limit int) (err error) {
		defer Catch(&err)
		p := NewParser("f.yaml", Limits{MaxVisits: limit, MaxDepth: 4})
		var visit func(n *yaml.Node)
		visit = func(n *yaml.Node) {
			for _, c := range p.Resolve(n).Content {
				visit(c)
			}
		}
		visit(doc.Content[0])
		return nil
	}
	if err := walk(1000); err != nil {
		t.Fatalf("within the budget: %v", err)
	}
	if err := walk(100); err == nil || !strings.HasSuffix(err.Error(), ": the document is too large once its aliases are expanded (more than 100 nodes)") {
		t.Fatalf("past the budget: %v", err)
	}
}
