package judge

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// A phrase renders its Subs in its own language; empty pieces vanish from
// a join; English is the trace's text.
func TestPhraseIn(t *testing.T) {
	cut := phrase("why-cut-off-watchdog", sim.S("owner", "A"), sim.S("node", "redis-1"), sim.I("since_ns", int64(2*time.Second)))
	why := join(join(Phrase{}, text("its lease on redis-1 expired at 3.000s")), cut)
	p := Phrase{ID: "violation-why", Args: withPiece([]sim.Arg{sim.I("at_ns", int64(4*time.Second)), sim.S("client", "B"), sim.S("rival", "A")},
		"state", phrase("state-paused", sim.I("since_ns", int64(time.Second)))),
		Subs: []Sub{{"why", why}}}
	for lang, want := range map[string]string{
		"en": "4.000s: B acquired while A (paused since 1.000s) still believed it held the lock (its lease on redis-1 expired at 3.000s; " +
			"A has been cut off from redis-1 by the network since 2.000s, which did not let its watchdog renew it)",
		"zh": "4.000s：B 加锁成功，而 A（自 1.000s 起处于 GC 停顿）仍以为自己持有锁（its lease on redis-1 expired at 3.000s；" +
			"A 自 2.000s 起被网络分区与 redis-1 隔开，它的看门狗没能为锁续期）",
		"fr": "4.000s: B acquired while A (paused since 1.000s) still believed it held the lock (its lease on redis-1 expired at 3.000s; " +
			"A has been cut off from redis-1 by the network since 2.000s, which did not let its watchdog renew it)",
	} {
		if got := p.In(lang); got != want {
			t.Errorf("In(%s)\n got %q\nwant %q", lang, got, want)
		}
	}
	if got := (Phrase{}).In("zh"); got != "" {
		t.Errorf("the zero phrase is %q", got)
	}
	if got := join(text(""), Phrase{}); got.ID != "" {
		t.Errorf("join of nothing is %v", got)
	}
}

// Every message id the judge builds a phrase of is in the catalogue with a
// zh template: a typo would render as "{id}".
func TestPhraseIDsAreCatalogued(t *testing.T) {
	re := regexp.MustCompile(`(?:phrase\(|ID: |id = |id := |id, args := |joinWith\()"([A-Za-z0-9-]+)"`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			n++
			if zh, ok := tracemsg.Template("zh", m[1]); !ok || zh == "" {
				t.Errorf("%s: phrase id %q has no zh template in model/tracemsg", f, m[1])
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d phrase ids found: the pattern is broken", n)
	}
}
