package tracemsg

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

var placeholderRE = regexp.MustCompile(`\{[^{}]*\}`)

// placeholders are a template's placeholders, "name:format", sorted, each once.
func placeholders(t string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range placeholderRE.FindAllString(t, -1) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// zhSameAsEnglish are the ids whose zh text may equal the English one (a
// text of names and commands only, or English kept as it is); each says why.
var zhSameAsEnglish = map[string]bool{
	"why-text": true, // English text the judge keeps (model/judge.text)
	"write":    true, // its whole wording is its outcome's piece
	// a fault's description as the scenario format spells it: kind,
	// target and a signed duration, no words
	"fault-desc":      true,
	"fault-desc-kind": true,
	"fault-desc-jump": true,
	"evict-error":     true, // the node's own error text
}

// Every id the English catalogue renders has a zh template that differs
// from the English and names exactly the same placeholders with the same
// formats; an id not rendered in English has no zh template either.
func TestZHTemplatesMatchEnglish(t *testing.T) {
	for _, m := range catalogue {
		z, ok := Template("zh", m.ID)
		if !ok {
			t.Fatalf("%s: Template(zh) unknown", m.ID)
		}
		if m.Template == "" {
			if z != "" {
				t.Errorf("%s: a zh template for an id English does not render from its args", m.ID)
			}
			continue
		}
		if z == "" {
			t.Errorf("%s: no zh template (model/tracemsg/zh.go)", m.ID)
			continue
		}
		if z == m.Template && !zhSameAsEnglish[m.ID] {
			t.Errorf("%s: the zh template is the English one: %q", m.ID, z)
		}
		if e, c := strings.Join(placeholders(m.Template), " "), strings.Join(placeholders(z), " "); e != c {
			t.Errorf("%s: placeholders differ\n  en %s\n  zh %s", m.ID, e, c)
		}
		if strings.Count(z, "{") != strings.Count(z, "}") {
			t.Errorf("%s: unpaired brace in zh %q", m.ID, z)
		}
	}
}

// glossary is docs/glossary.md's terms as the English templates use them:
// an English template that matches en must have zh's term in its zh one.
var glossary = []struct {
	en *regexp.Regexp
	zh string
}{
	{regexp.MustCompile(`(?i)\bwatchdog\b`), "看门狗"},
	{regexp.MustCompile(`(?i)\brenew(al|als|s|ed)?\b`), "续期"},
	{regexp.MustCompile(`(?i)\bfencing\b`), "围栏令牌"},
	{regexp.MustCompile(`(?i)\b(quorum|majority)\b`), "多数派"},
	{regexp.MustCompile(`(?i)\bvalidity\b`), "有效时间"},
	{regexp.MustCompile(`(?i)\bfail ?over\b`), "主从切换"},
	{regexp.MustCompile(`(?i)\bsplit[- ]brain\b`), "脑裂"},
	{regexp.MustCompile(`(?i)\bclock jump(s|ed)?\b|\bclock \{by_ns`), "时钟跳变"},
	{regexp.MustCompile(`(?i)\bwrong release\b|deleted the lock .* that \{owner\} holds`), "误删"},
	{regexp.MustCompile(`(?i)\block([\s,:;)]|$)`), "锁"}, // not lock.wait, a field
	{regexp.MustCompile(`(?i)\blease\b`), "租约"},
	{regexp.MustCompile(`\bGC pause\b`), "GC 停顿"},
	{regexp.MustCompile(`(?i)\bbelieve[sd]?\b`), "以为"},
	{regexp.MustCompile(`(?i)\bpartition\b`), "分区"},
	{regexp.MustCompile(`(?i)\breplicas?\b`), "从库"},
	{regexp.MustCompile(`(?i)\bdrift\b`), "漂移"},
}

// Where an English template uses a glossary term, its zh template uses the
// tutorials' term for it (docs/glossary.md).
func TestZHUsesGlossaryTerms(t *testing.T) {
	hits := 0
	for _, m := range catalogue {
		z, _ := Template("zh", m.ID)
		if m.Template == "" {
			continue
		}
		for _, g := range glossary {
			if g.en.MatchString(m.Template) && !strings.Contains(z, g.zh) {
				t.Errorf("%s: the English says %q, the zh lacks %s: %q", m.ID, g.en.FindString(m.Template), g.zh, z)
			}
			if g.en.MatchString(m.Template) {
				hits++
			}
		}
	}
	if hits < 20 {
		t.Errorf("only %d glossary hits: the term patterns are broken", hits)
	}
}

func TestRenderIn(t *testing.T) {
	forever := []sim.Arg{sim.S("node", "redis-1"), sim.I("until_ns", int64(Forever))}
	for _, c := range []struct {
		lang, id string
		args     []sim.Arg
		want     string
	}{
		{"zh", "pause", []sim.Arg{sim.S("client", "A"), sim.I("for_ns", int64(1500*time.Millisecond))}, "GC 停顿开始（1.5s）：A 的所有线程停下"},
		{"zh", "node-crashed-already", forever, "redis-1 在已宕机时再次崩溃：它保持宕机，永久（崩溃且没有 restart_after）"},
		{"zh", "node-crashed-already", []sim.Arg{sim.S("node", "redis-1"), sim.I("until_ns", int64(3*time.Second))}, "redis-1 在已宕机时再次崩溃：它保持宕机，直到 3.000s"},
		{"en", "node-crashed-already", forever, "redis-1 crashes while already down: it stays down for good (a crash without restart_after)"},
		{"zh", "client-clock-jump", []sim.Arg{sim.S("client", "A"), sim.I("by_ns", int64(-2*time.Second)), sim.S("fault", "clock_jump")}, "A 时钟跳变 -2s（clock_jump）"},
		{"zh", "clock-jump-expired", []sim.Arg{sim.S("jump", "jump-tag"), sim.S("node", "redis-1"), sim.I("by_ns", int64(20*time.Second)), sim.S("key", "k"), sim.I("early_ns", int64(1500*time.Microsecond))}, "redis-1 时钟跳变 +20s：k 提前 2ms 过期"},
		{"zh", "released", nil, "释放了 {token}"}, // a missing argument shows, never panics
	} {
		if got, ok := RenderIn(c.lang, c.id, c.args); !ok || got != c.want {
			t.Errorf("RenderIn(%s, %s) = %q, %v; want %q", c.lang, c.id, got, ok, c.want)
		}
		if got := string(AppendIn([]byte("x"), c.lang, c.id, c.args)); got != "x"+c.want {
			t.Errorf("AppendIn(%s, %s) = %q", c.lang, c.id, got)
		}
	}
	for _, c := range []struct{ lang, id string }{{"fr", "pause"}, {"zh", "no-such-id"}, {"zh", "cmd"}} {
		if s, ok := RenderIn(c.lang, c.id, nil); ok {
			t.Errorf("RenderIn(%s, %s) = %q, true; want false", c.lang, c.id, s)
		}
	}
}

// In every language the English rendering is Render's, byte for byte.
func TestRenderInEnglishIsRender(t *testing.T) {
	args := []sim.Arg{sim.S("node", "n"), sim.S("client", "c"), sim.I("for_ns", 5e6), sim.I("until_ns", 7e9)}
	for _, m := range catalogue {
		want, _ := Render(m.ID, args)
		if got, ok := RenderIn("en", m.ID, args); !ok || got != want {
			t.Errorf("%s: RenderIn(en) = %q, want %q", m.ID, got, want)
		}
	}
}

// AppendIn into a reused buffer does not allocate, in zh as in English.
func TestAppendInDoesNotAllocate(t *testing.T) {
	args := []sim.Arg{sim.S("node", "redis-2"), sim.I("until_ns", int64(Forever))}
	buf := make([]byte, 0, 256)
	for _, l := range Languages {
		if a := testing.AllocsPerRun(100, func() { buf = AppendIn(buf[:0], l, "node-crashed-already", args) }); a != 0 {
			t.Errorf("AppendIn(%s) allocates %.0f times", l, a)
		}
	}
}

// BenchmarkAppendIn renders a nested-fault line in each language into a
// reused buffer.
func BenchmarkAppendIn(b *testing.B) {
	args := []sim.Arg{sim.S("client", "A"), sim.I("for_ns", 5e8), sim.I("until_ns", 7e9)}
	for _, l := range Languages {
		b.Run(l, func(b *testing.B) {
			buf := make([]byte, 0, 256)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf = AppendIn(buf[:0], l, "pause-end-nested", args)
			}
		})
	}
}
