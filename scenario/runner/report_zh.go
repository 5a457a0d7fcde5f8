package runner

import "github.com/lockstep-sim/lockstep/internal/i18n"

// The text report's sentences in Simplified Chinese (the catalogue of
// internal/i18n, keyed by the English). Metric names, verdicts and
// commands stay Latin: they are the format's words.
func init() {
	i18n.Register(
		i18n.Entry{Key: "  strategy %s%s, seed %d, %s simulated, %d events\n", ZH: "  策略 %s%s，种子 %d，模拟时间 %s，%d 个事件\n"},
		i18n.Entry{Key: " (client %s)", ZH: "（客户端库 %s）"},
		i18n.Entry{Key: "  %s %s %s (got %s)\n", ZH: "  %s %s %s（实际 %s）\n"},
		i18n.Entry{Key: "  first violation: %s\n", ZH: "  首个违反：%s\n"},
		i18n.Entry{Key: "  stuck: %s\n", ZH: "  卡死：%s\n"},
		i18n.Entry{Key: "  deadlock: %s\n", ZH: "  死锁：%s\n"},
		i18n.Entry{Key: "  event budget exhausted at t=%s after %d kernel events: the run was cut short and judges only what ran (raise it with --budget)\n",
			ZH: "  事件预算在 t=%s 用完，已执行 %d 个内核事件：运行被提前截断，只评判已运行的部分（用 --budget 调高）\n"},
		i18n.Entry{Key: "  cancelled at t=%s: the run was stopped before its end\n", ZH: "  在 t=%s 被取消：运行在结束前被停止\n"},
		i18n.Entry{Key: "  skipped: %s\n", ZH: "  跳过：%s\n"},
		i18n.Entry{Key: "  reproduce: %s\n", ZH: "  复现：%s\n"},
	)
}

// FirstViolationIn is the report's first violation in l: the judge's
// phrase rendered in zh under i18n.ZH, FirstViolation (the English)
// otherwise; "" when there is none. For a caller that prints one report
// of many (explore's counterexample).
func (rep *Report) FirstViolationIn(l i18n.Lang) string {
	return rep.in(l, rep.FirstViolation, rep.FirstViolationPhrase)
}
