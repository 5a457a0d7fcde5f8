package judge

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// A phrase renders its Subs in its own language; empty pieces vanish from
// a join; English is the trace's text.
func TestPhraseIn(t *testing.T) {
	cut := phrase("why-cut-off-watchdog", sim.S("owner", "A"), sim.S("node", "redis-1"), sim.I("since_ns", int64(2*time.Second)))
	why := join(join(Phrase{}, text("its lease on redis-1 expired at 3.000s")), cut)
	p := Phrase{ID: "violation-why", Args: []sim.Arg{sim.I("at_ns", int64(4*time.Second)), sim.S("client", "B"), sim.S("rival", "A")},
		Subs: []Sub{{"state", phrase("state-paused", sim.I("since_ns", int64(time.Second)))}, {"why", why}}}
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
