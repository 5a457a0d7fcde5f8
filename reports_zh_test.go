package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/explore"
	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// compareGoldenArgs are the comparisons the compare goldens pin: a
// violation, Redlock's refusals, a stuck lock, a dropped modifier, and a
// skipped fault with a failed expectation (exit 1, a reproduce line).
var compareGoldenArgs = [][]string{
	{"compare", "-s", "gc-pause-wrong-delete", "--strategies", "set-del,redlock,redsync"},
	{"compare", "-s", "setnx-del-crash", "--strategies", "setnx-del,lua-release"},
	{"compare", "-s", "reentrant-nested", "--strategies", "lua-release,redlock"},
	{"compare", "-f", "testdata/compare-zh.yaml", "-s", "failover-twice", "--strategies", "set-del,redlock"},
}

// TestCompareTextInBothLanguages pins `lockstep compare`'s text in English
// (testdata/compare-en.golden: unchanged by the translation) and in
// Chinese (testdata/compare-zh.golden); LOCKSTEP_UPDATE_GOLDEN=1 rewrites
// them. The zh text has no English sentence left (noEnglish).
func TestCompareTextInBothLanguages(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		var out strings.Builder
		for _, args := range compareGoldenArgs {
			code, text, stderr := runLang(t, append([]string{"--lang", lang}, args...)...)
			if code == exitBadInput || stderr != "" {
				t.Fatalf("%s %q: exit %d, stderr %q", lang, args, code, stderr)
			}
			out.WriteString(text + "\n")
		}
		checkGolden(t, filepath.Join("testdata", "compare-"+lang+".golden"), out.String())
		if lang == "zh" {
			noEnglish(t, out.String())
		}
	}
}

// TestCompareJSONSameInBothLanguages: compare --json never changes with
// the language.
func TestCompareJSONSameInBothLanguages(t *testing.T) {
	for _, args := range compareGoldenArgs {
		args = append(args, "--json")
		_, en, _ := runLang(t, append([]string{"--lang", "en"}, args...)...)
		_, zh, _ := runLang(t, append([]string{"--lang", "zh"}, args...)...)
		if en == "" || en != zh {
			t.Errorf("%q: --json differs between en and zh (or is empty):\nen %.300q\nzh %.300q", args, en, zh)
		}
	}
}

// exploreGolden is one search of the explore goldens.
func exploreGolden(t *testing.T, name string, runs, maxFaults int, budget int64, strategies ...string) *explore.Result {
	t.Helper()
	s, ok := loadScenario("explore", "", name, os.Stderr)
	if !ok {
		t.Fatal("no scenario", name)
	}
	res, err := explore.Explore(context.Background(), explore.Config{Scenario: s, Strategies: strategies, Runs: runs, Seed: 1,
		Workers: 2, MaxFaults: maxFaults, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	res.Elapsed = 2 * time.Second // the wall time, fixed for the golden
	return res
}

// interrupted is res as an interrupted search that wrote its first
// counterexample would report it, its second strategy's violations only in
// runs cut short (the branches a finished search in a test does not
// reach), without changing res.
func interrupted(res *explore.Result) *explore.Result {
	out := *res
	out.Interrupted, out.Strategies = true, nil
	for i, sr := range res.Strategies {
		c := explore.StrategyResult{Strategy: sr.Strategy, Nodes: sr.Nodes, Dropped: sr.Dropped, Stats: sr.Stats,
			Counterexample: sr.Counterexample}
		switch {
		case i == 1: // its violations only in runs cut short: nothing to shrink
			c.Counterexample = nil
		case sr.Counterexample != nil:
			cx := *sr.Counterexample
			cx.Shrunk, cx.File = false, "out/"+res.Scenario+"-"+sr.Strategy+".yaml"
			c.Counterexample = &cx
		}
		out.Strategies = append(out.Strategies, &c)
	}
	return &out
}

// TestExploreTextInBothLanguages pins `lockstep explore`'s text in English
// (testdata/explore-en.golden: unchanged by the translation) and Chinese
// (testdata/explore-zh.golden): violations shrunk, kinds, a dropped
// modifier, runs cut short by the budget, an interrupted search.
func TestExploreTextInBothLanguages(t *testing.T) {
	wrong := exploreGolden(t, "gc-pause-wrong-delete", 100, 3, 0, "set-del", "lua-release")
	results := []*explore.Result{
		wrong,
		exploreGolden(t, "redlock-k3-clock-jump", 100, 3, 0),
		exploreGolden(t, "reentrant-nested", 20, 1, 0, "lua-release", "redlock"),
		exploreGolden(t, "gc-pause-wrong-delete", 20, 2, 60, "set-del"),
		interrupted(wrong),
	}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		i18n.Set(lang)
		var out strings.Builder
		for _, res := range results {
			printText(&out, res.WriteText)
			out.WriteString("\n")
		}
		i18n.Set(i18n.EN)
		checkGolden(t, filepath.Join("testdata", "explore-"+string(lang)+".golden"), out.String())
		if lang == i18n.ZH {
			noEnglish(t, out.String())
		}
	}
}

func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if os.Getenv("LOCKSTEP_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with LOCKSTEP_UPDATE_GOLDEN=1)", err)
	}
	if got != string(want) {
		t.Errorf("the text differs from %s:\n%s", golden, got)
	}
}

// englishWord is a word of an English sentence: letters, lower case or
// capitalised ("a", "lock", "The"). Names (A, redis-1, lua-release,
// lock.ttl), commands and verdicts in capitals (SET, DEL, SAFE), numbers
// and Chinese are not words.
var englishWord = regexp.MustCompile(`^(a|[A-Za-z][a-z]+)$`)

// notSentences are the parts of a zh report that are not lockstep's
// sentences: commands, and text from other parts that is English still
// (a fault's own description, a Redlock tally's "why"), which their own
// catalogues are to translate.
var notSentences = regexp.MustCompile(`lockstep [^\n]*|--out DIR|pause [A-Za-z0-9-]+ for [^\n]*|no quorum|\btrue\b|\bfalse\b`)

// noEnglish fails on an English sentence left in a zh report: three words
// in a row.
func noEnglish(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		run := 0
		for _, tok := range strings.Fields(notSentences.ReplaceAllString(line, " ")) {
			if !englishWord.MatchString(strings.Trim(tok, `()[],;:.!?"'`)) {
				run = 0
				continue
			}
			if run++; run == 3 {
				t.Errorf("English left in the zh text: %q", line)
				break
			}
		}
	}
}

// TestExploreJSONSameInBothLanguages: explore --json never changes with
// the language.
func TestExploreJSONSameInBothLanguages(t *testing.T) {
	args := []string{"explore", "-s", "gc-pause-wrong-delete", "--strategies", "set-del,redlock", "--runs", "60", "--max-faults", "3", "--json"}
	_, en, _ := runLang(t, append([]string{"--lang", "en"}, args...)...)
	_, zh, _ := runLang(t, append([]string{"--lang", "zh"}, args...)...)
	if !strings.Contains(en, `"first_violation": "`) || en != zh {
		t.Errorf("--json differs between en and zh (or has no counterexample):\nen %.300q\nzh %.300q", en, zh)
	}
}

// `lockstep check` of a recorded trace explains its first violation in
// the language asked, from the judge's phrase, as `run` does.
func TestCheckTextInZH(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	if code, _, stderr := runLang(t, "run", "-s", "gc-pause-wrong-delete", "--trace", trace); code != exitOK {
		t.Fatalf("run --trace: exit %d, %s", code, stderr)
	}
	_, run, _ := runLang(t, "--lang", "zh", "run", "-s", "gc-pause-wrong-delete")
	_, check, _ := runLang(t, "--lang", "zh", "check", trace)
	const first = "  首个违反：30.052s：B 加锁成功，而 A（自 1.000s 起处于 GC 停顿）仍以为自己持有锁"
	if !strings.Contains(run, first) || !strings.Contains(check, first) || strings.Contains(check, "still believed") {
		t.Errorf("check in zh does not explain as run does:\nrun:\n%s\ncheck:\n%s", run, check)
	}
}
