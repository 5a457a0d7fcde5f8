package scenario_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// glossaryTerm is one row of docs/glossary.md's checked table: the English
// forms a story may use, and the Chinese term its translation must use.
type glossaryTerm struct {
	en []*regexp.Regexp
	zh string
}

// checkedGlossary reads the first table of docs/glossary.md.
func checkedGlossary(t *testing.T) []glossaryTerm {
	data, err := os.ReadFile("../docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	var terms []glossaryTerm
	inTable := false
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break // the first table ends at its first non-row line
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		en, zh := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if en == "en" || strings.HasPrefix(en, "--") {
			continue
		}
		g := glossaryTerm{zh: zh}
		for _, form := range strings.Split(en, ",") {
			g.en = append(g.en, regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(strings.TrimSpace(form))+`(s|es|ed|d|ing|al|als)?\b`))
		}
		terms = append(terms, g)
	}
	if len(terms) < 15 {
		t.Fatalf("docs/glossary.md's checked table has %d rows; want the issue's terms and the product's", len(terms))
	}
	return terms
}

// Every bundled scenario has a Chinese title and story that differ from
// the English ones, use the glossary's terms where the English uses its
// words, and cite the tutorials by title, never as "seed 00N" or by a path
// outside the project.
func TestBundledTranslations(t *testing.T) {
	terms := checkedGlossary(t)
	// Scenario names (partitioned-holder-watchdog) are not prose.
	names := regexp.MustCompile(`\b[a-z0-9]+(-[a-z0-9]+)+\b`)
	cite := regexp.MustCompile(`(?i)seed 00\d|\.\./shared|shared/seeds`)
	for _, s := range scenariotest.File(t).Scenarios {
		zh := s.I18n
		if zh == nil || zh.Zh == nil || zh.Zh.Title == "" || zh.Zh.Story == "" {
			t.Errorf("%s: no zh title and story", s.Name)
			continue
		}
		if zh.Zh.Title == s.Title || zh.Zh.Story == s.Story {
			t.Errorf("%s: the zh title or story is the English one", s.Name)
		}
		for _, text := range []string{s.Title, s.Story, zh.Zh.Title, zh.Zh.Story} {
			if m := cite.FindString(text); m != "" {
				t.Errorf("%s: cites %q; cite the tutorials by title (docs/sources.md)", s.Name, m)
			}
		}
		// A term may wrap at a space ("GC\n停顿"), never inside a word.
		story := strings.ReplaceAll(zh.Zh.Story, "\n", " ")
		en := names.ReplaceAllString(s.Story, "")
		for _, g := range terms {
			for _, re := range g.en {
				if m := re.FindString(en); m != "" && !strings.Contains(story, g.zh) {
					t.Errorf("%s: the English story says %q but the zh story lacks %s", s.Name, m, g.zh)
					break
				}
			}
		}
	}
}

// The translations never reach a run: a scenario with and without its
// i18n block gives the same trace hash.
func TestTranslationsDoNotChangeTheRun(t *testing.T) {
	for _, s := range scenariotest.File(t).Scenarios[:3] {
		plain := *s
		plain.I18n = nil
		var hashes []string
		for _, x := range []*scenario.Scenario{s, &plain} {
			r, err := runner.New(x, scenario.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			hashes = append(hashes, r.Run().TraceHash)
		}
		if s.I18n == nil || hashes[0] != hashes[1] {
			t.Errorf("%s: i18n %v, trace hashes %v", s.Name, s.I18n != nil, hashes)
		}
	}
}

// docs/sources.md lists, under each tutorial and each side of the debate,
// every bundled scenario whose story cites it.
func TestSourcesDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/sources.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{} // heading -> body
	var head string
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			head = h
			continue
		}
		sections[head] += line + "\n"
	}
	sources := []struct{ cite, heading string }{
		{"《分布式锁：从 SET NX 到 Redlock》", "《分布式锁：从 SET NX 到 Redlock》"},
		{"《分布式锁：SET NX EX 之外，还有五道坑》", "《分布式锁：SET NX EX 之外，还有五道坑》"},
		{"《分布式锁》 (cs-note)", "《分布式锁》 (cs-note, Redis 高级特性)"},
		{"《第 11 章 分布式锁（含 Redlock 争议）》", "《第 11 章 分布式锁（含 Redlock 争议）》"},
		{"How to do distributed locking", `Kleppmann, "How to do distributed locking" (2016)`},
		{"Is Redlock safe?", `antirez, "Is Redlock safe?" (2016)`},
		{"redis.io", `redis.io, "Distributed Locks with Redis"`},
	}
	for _, s := range scenariotest.File(t).Scenarios {
		for _, src := range sources {
			body, ok := sections[src.heading]
			if !ok {
				t.Fatalf("docs/sources.md has no section %q", src.heading)
			}
			if strings.Contains(s.Story, src.cite) && !strings.Contains(body, "| `"+s.Name+"` |") {
				t.Errorf("%s cites %s, but docs/sources.md's section on it does not list it", s.Name, src.cite)
			}
		}
	}
}
