package i18n

// reportEntries: the sentences of `lockstep compare`'s table and
// explanations (scenario.Comparison.WriteText) and of `lockstep explore`'s
// report (explore.Result.WriteText). Strategy, metric and fault kind names,
// verdicts and commands stay Latin: they are the format's words. The
// first violation and the stuck reason come from the judge's phrases, and
// the trace lines they cite from the trace's catalogue (model/tracemsg).
var reportEntries = []Entry{
	// compare
	{Key: "%d strategies", One: "%d strategy", ZH: "%d 个策略"},
	{Key: "same clients, faults and seed %d under %s\n\n", ZH: "相同的客户端、故障和种子 %d，共 %s\n\n"},
	{Ctx: "compare row", Key: "verdict", ZH: "结论"},
	{Ctx: "compare row", Key: "dropped", ZH: "未采用"},
	{Key: "  why: %s\n", ZH: "  原因：%s\n"},
	{Key: "    after: %s\n", ZH: "    此前的故障：%s\n"},
	{Key: "  ✗ %s %s (got %s)\n", ZH: "  ✗ %s %s（实际 %s）\n"},
	{Key: "  dropped: %s\n", ZH: "  未采用：%s\n"},
	{Key: "\nreproduce: %s\n", ZH: "\n复现：%s\n"},
	{Key: "no two clients ever held the lock at once", ZH: "从没有两个客户端同时持有锁"},
	{Key: "no two clients ever held the lock at once; %d attempt(s) refused without a valid quorum, the first by %s",
		ZH: "从没有两个客户端同时持有锁；%d 次尝试因没有有效的多数派而被拒绝，第一次是 %s"},
	{Key: "%s at %s: %s", ZH: "%s 在 %s：%s"},

	// tui --trace: scenario.RecordedNote (TestRecordedNoteInZH keeps the key its text)
	{Key: "a recorded trace is not re-simulated: no faults, export or compare", ZH: "录制的 trace 不会重新模拟：不能注入故障、导出或对比"},

	// explore
	{Key: "explore %s: faults %s, 1-%d per run, seed %d, event budget %d per run\n",
		ZH: "explore %s：故障 %s，每次运行 1-%d 个，种子 %d，每次运行的事件预算 %d\n"},
	{Key: "%s in %s (%.0f runs/s)\n", ZH: "%s，用时 %s（每秒 %.0f 次运行）\n"},
	{Key: "interrupted: the rates cover the runs that finished, of %d per strategy (runs cut off were dropped)\n",
		ZH: "已中断：比率只涵盖已完成的运行（每个策略本应运行 %d 次；被打断的运行已丢弃）\n"},
	{Key: "%d runs", One: "%d run", ZH: "%d 次运行"},
	{Key: "%d faults", One: "%d fault", ZH: "%d 个故障"},
	{Ctx: "explore column", Key: "strategy", ZH: "策略"},
	{Ctx: "explore column", Key: "nodes", ZH: "节点"},
	{Ctx: "explore column", Key: "runs", ZH: "运行"},
	{Ctx: "explore column", Key: "unsafe", ZH: "不安全"},
	{Ctx: "explore column", Key: "interval", ZH: "区间"},
	{Ctx: "explore column", Key: "lost updates", ZH: "更新丢失"},
	{Ctx: "explore column", Key: "stuck", ZH: "卡死"},
	{Ctx: "explore column", Key: "budget exhausted", ZH: "预算用完"},
	{Ctx: "explore column", Key: "fencing rejections", ZH: "围栏令牌拒绝"},
	{Ctx: "explore column", Key: "wrong releases", ZH: "误删"},
	{Ctx: "explore column", Key: "unheld releases", ZH: "释放未持有的锁"},
	{Ctx: "explore column", Key: "refused writes", ZH: "被拒绝的写入"},
	{Ctx: "explore column", Key: "duplicate writes", ZH: "重复写入"},
	{Ctx: "explore column", Key: "deadlocks", ZH: "死锁"},
	{Ctx: "explore column", Key: "holds/s", ZH: "每秒持有次数"},
	{Key: "%s: runs without %s\n", ZH: "%s：运行时不带 %s\n"},
	{Key: "%s: %s cut short by the event budget (%d events): not known safe (raise it with --budget)\n",
		ZH: "%s：%s被事件预算（%d 个事件）截断：不能算作安全（用 --budget 调高）\n"},
	{Key: "%s: violations only in runs cut short by the event budget\n", ZH: "%s：违反只出现在被事件预算截断的运行中\n"},
	{Key: "%s: no violation in %s\n", ZH: "%s：%s中没有违反\n"},
	{Key: "with a %s: %d", ZH: "含 %s 的：%d"},
	{Key: "%s: of the %s that violated safety, runs %s\n", ZH: "%s：在违反安全性的 %s中，%s\n"},
	{Key: "  run %d, %s, not shrunk (interrupted):\n", ZH: "  第 %d 次运行，%s，未缩减（已中断）：\n"},
	{Key: "  run %d shrunk from %s to %d in %s%s:\n", ZH: "  第 %d 次运行从 %s缩减到 %d 个，用了 %s%s：\n"},
	{Key: ", shrink budget spent", ZH: "，缩减预算已用完"},
	{Key: "at %s: %s", ZH: "在 %s：%s"},
	{Key: "  written: %s\n  replay: %s\n", ZH: "  已写入：%s\n  重放：%s\n"},
	{Key: "  (use --out DIR to write it as a scenario file)\n", ZH: "  （用 --out DIR 把它写成场景文件）\n"},

	// explore's progress on stderr
	{Key: "explore: searching %s (ctrl-c stops and reports what was found)\n", ZH: "explore 正在搜索 %s（ctrl-c 停止，并报告已找到的结果）\n"},
	{Key: "explore: %s\n", ZH: "explore 进度：%s\n"},
	{Key: "%d/%d runs", ZH: "%d/%d 次运行"},
	{Key: "%s, %.0f runs/s, shrinking", ZH: "%s，每秒 %.0f 次，正在缩减"},
	{Key: "%s, %.0f runs/s, ETA %s", ZH: "%s，每秒 %.0f 次，预计还需 %s"},
}
