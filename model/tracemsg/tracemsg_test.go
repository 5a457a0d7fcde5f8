package tracemsg

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// docs/trace-format.md lists the whole catalogue, between its markers;
// LOCKSTEP_UPDATE_DOCS=1 rewrites the list from the catalogue.
func TestCatalogueIsDocumented(t *testing.T) {
	const path, begin, end = "../../docs/trace-format.md", "<!-- ids:begin -->\n", "<!-- ids:end -->"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", path, begin, end)
	}
	want := DocTable()
	if got := doc[i+len(begin) : j]; got != want {
		if os.Getenv("LOCKSTEP_UPDATE_DOCS") != "" {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's id table is not the catalogue's (LOCKSTEP_UPDATE_DOCS=1 go test ./model/tracemsg rewrites it)", path)
	}
}

// Every template's placeholders have a known format, and its braces pair.
func TestTemplatesAreWellFormed(t *testing.T) {
	formats := map[string]bool{"": true, "dur": true, "rdur": true, "sdur": true, "time": true, "until": true, "msg": true, "srdur": true}
	for _, m := range catalogue {
		s := m.Template
		for {
			open := strings.IndexAny(s, "{}")
			if open < 0 {
				break
			}
			end := strings.IndexByte(s[open+1:], '}')
			if s[open] == '}' || end < 0 || strings.ContainsAny(s[open+1:open+1+end], "{") {
				t.Errorf("%s: unpaired brace in %q", m.ID, m.Template)
				break
			}
			name, format, _ := strings.Cut(s[open+1:open+1+end], ":")
			if name == "" || !formats[format] {
				t.Errorf("%s: placeholder %q", m.ID, s[open:open+2+end])
			}
			s = s[open+2+end:]
		}
		if m.Meaning == "" {
			t.Errorf("%s: no meaning", m.ID)
		}
	}
}

func TestRender(t *testing.T) {
	for _, c := range []struct {
		id   string
		args []sim.Arg
		want string
	}{
		{"pause", []sim.Arg{sim.S("client", "A"), sim.I("for_ns", int64(1500*time.Millisecond))}, "GC pause begins (1.5s): every thread of A stops"},
		{"node-crashed-already", []sim.Arg{sim.S("node", "redis-1"), sim.I("until_ns", int64(Forever))},
			"redis-1 crashes while already down: it stays down for good (a crash without restart_after)"},
		{"node-crashed-already", []sim.Arg{sim.S("node", "redis-1"), sim.I("until_ns", int64(3*time.Second))},
			"redis-1 crashes while already down: it stays down until 3.000s"},
		{"client-clock-jump", []sim.Arg{sim.S("client", "A"), sim.I("by_ns", int64(-2*time.Second)), sim.S("fault", "clock_jump")}, "A clock -2s (clock_jump)"},
		{"clock-jump-expired", []sim.Arg{sim.S("jump", "jump-tag"), sim.S("node", "redis-1"), sim.I("by_ns", int64(20*time.Second)), sim.S("key", "k"), sim.I("early_ns", int64(1500*time.Microsecond))}, "redis-1 clock +20s: k expired 2ms early"},
		{"jump-tag", []sim.Arg{sim.S("node", "redis-1"), sim.I("by_ns", int64(-1500*time.Microsecond))}, "redis-1 clock -2ms"},
		{"released", nil, "released {token}"}, // a missing argument shows, never panics
	} {
		if got, ok := Render(c.id, c.args); !ok || got != c.want {
			t.Errorf("Render(%s) = %q, %v; want %q", c.id, got, ok, c.want)
		}
	}
	if _, ok := Render("no-such-id", nil); ok {
		t.Error("an unknown id rendered")
	}
}

// Rendering into a reused buffer does not allocate: the hot lines pay no
// more than their fmt-built text did.
func TestAppendDoesNotAllocate(t *testing.T) {
	args := []sim.Arg{sim.S("node", "redis-2"), sim.I("counter", 7)}
	buf := make([]byte, 0, 256)
	if a := testing.AllocsPerRun(100, func() { buf = Append(buf[:0], "node-ok-counter", args) }); a != 0 {
		t.Errorf("Append allocates %.0f times", a)
	}
}

// A msg piece renders in its place from the same arguments, "" renders
// nothing, and a piece that names itself, or an unknown id, stops at the
// depth bound as a placeholder instead of looping.
func TestPiecesAreBounded(t *testing.T) {
	args := []sim.Arg{sim.S("client", "A"), sim.S("counter", "counter"), sim.I("value", 3), sim.S("outcome", "write-applied"),
		sim.S("token_note", "write-token-note"), sim.I("fence", 7), sim.S("job_note", ""), sim.S("lost_note", "")}
	if got, _ := Render("write", args); got != "A wrote counter = 3 [token 7]" {
		t.Errorf("write: %q", got)
	}
	self := []sim.Arg{sim.S("outcome", "write")}
	if got, _ := Render("write", self); got != "{outcome:msg}" {
		t.Errorf("a piece naming its own id: %q", got)
	}
	if got, _ := Render("write", []sim.Arg{sim.S("outcome", "no-such-id")}); got != "{outcome:msg}" {
		t.Errorf("an unknown piece: %q", got)
	}
	if got, _ := Render("write", []sim.Arg{sim.I("outcome", 1)}); got != "{outcome:msg}" {
		t.Errorf("an integer piece: %q", got)
	}
}

// A piece's arguments are found under its path first, then further out:
// two pieces of one id in one line each say their own.
func TestPiecesScopeTheirArguments(t *testing.T) {
	args := []sim.Arg{sim.S("a", "how-expired"), sim.S("a.node", "redis-1"), sim.I("a.at_ns", int64(3*time.Second)),
		sim.S("b", "how-expired"), sim.S("b.node", "redis-2"), sim.I("at_ns", int64(4*time.Second))}
	want := "its lease on redis-1 expired at 3.000s; its lease on redis-2 expired at 4.000s"
	if got, _ := Render("why-join", args); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	buf := make([]byte, 0, 256)
	if a := testing.AllocsPerRun(100, func() { buf = AppendIn(buf[:0], "zh", "why-join", args) }); a != 0 {
		t.Errorf("rendering pieces allocates %.0f times", a)
	}
}

// Every id is in the catalogue once: the index is built on first use, so
// its own panic would only fire in the first run that renders a line.
func TestCatalogueIDsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range catalogue {
		if seen[m.ID] {
			t.Fatalf("id %s twice in the catalogue", m.ID)
		}
		seen[m.ID] = true
	}
	if len(byID()) != len(catalogue) {
		t.Fatalf("the index has %d ids, the catalogue %d", len(byID()), len(catalogue))
	}
}
