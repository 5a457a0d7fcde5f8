package i18n

// restEntries: the last sentences of the reports and the scenario's
// checks that other tables do not hold: why a comparison column dropped a
// modifier of the design (scenario.Dropped), and the errors of
// Scenario.Validate and ForStrategy that a scenario built in code, or a
// comparison, reaches past the loader.
var restEntries = []Entry{
	{Key: "client %s does not use it", ZH: "客户端库 %s 不使用它"},

	// scenario.Validate, ForStrategy and ProfileLock (a scenario built in
	// code, or a comparison's column)
	{Key: "scenario %s: %s", ZH: "场景 %s：%s"},
	{Key: "scenario %s under strategy %s: %s", ZH: "场景 %s 在策略 %s 下：%s"},
	{Key: "client %s: %s", ZH: "客户端库 %s：%s"},
	{Key: "unknown client profile %q (profiles: %s)", ZH: "未知的客户端库 %q（可用的客户端库：%s）"},

	// a run cut short (runner.Report.VerdictIn): the verdicts stay Latin
	{Key: "BUDGET EXHAUSTED (%s until then)", ZH: "BUDGET EXHAUSTED（截至此时 %s）"},
	{Key: "CANCELLED (%s until then)", ZH: "CANCELLED（截至此时 %s）"},

	// --strategies (runner.CheckStrategies: compare and explore)
	{Key: "%s; profiles: %s", ZH: "%s；客户端库：%s"},
	{Key: "no strategies to compare (known: %s)", ZH: "没有要对比的策略（已知：%s）"},
	{Key: "unknown strategy %q (known: %s)", ZH: "未知的策略 %q（已知：%s）"},
	{Key: "strategy %q named twice", ZH: "策略 %q 被列出了两次"},
}
