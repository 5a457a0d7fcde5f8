package explore

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// The progress lines speak the command line's language; English is what
// it always was.
func TestProgressInBothLanguages(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.EN) })
	cases := []struct {
		lang              i18n.Lang
		done, total       int
		elapsed           time.Duration
		want, start, line string
	}{
		{i18n.EN, 1200, 5000, 500 * time.Millisecond, "1200/5000 runs, 2400 runs/s, ETA 1.6s",
			"explore: searching 1 run (ctrl-c stops and reports what was found)\n", "explore: 0/1 runs\n"},
		{i18n.EN, 10, 10, time.Second, "10/10 runs, 10 runs/s, shrinking", "", ""},
		{i18n.ZH, 1200, 5000, 500 * time.Millisecond, "1200/5000 次运行，每秒 2400 次，预计还需 1.6s",
			"explore 正在搜索 1 次运行（ctrl-c 停止，并报告已找到的结果）\n", "explore 进度：0/1 次运行\n"},
		{i18n.ZH, 10, 10, time.Second, "10/10 次运行，每秒 10 次，正在缩减", "", ""},
	}
	for _, c := range cases {
		i18n.Set(c.lang)
		if got := Status(c.done, c.total, c.elapsed); got != c.want {
			t.Errorf("%s: Status = %q, want %q", c.lang, got, c.want)
		}
		if c.start == "" {
			continue
		}
		var b strings.Builder
		p := NewProgress(&b, false)
		p.every = time.Hour // the line below is drawn by the test, not the ticker
		p.Start(1)
		p.Update(0, 1)
		p.draw()
		p.Stop()
		if got := b.String(); got != c.start+c.line {
			t.Errorf("%s: progress printed %q, want %q", c.lang, got, c.start+c.line)
		}
	}
}
