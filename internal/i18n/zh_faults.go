package i18n

// faultEntries: the questions the TUI asks before it injects a fault (the
// `i`-style keys of the run view), keyed by faults.Spec.Prompt.Label's
// English format; "%s" is the selected process. Kind and field names
// (latency, loss, for) stay in Latin script: they are the format's words,
// and the answer is typed in them.
var faultEntries = []Entry{
	{Key: "GC pause %s for", ZH: "让 %s GC 停顿，时长"},
	{Key: "hang %s's work thread (its watchdog runs on) for", ZH: "让 %s 的业务线程卡住（看门狗继续运行），时长"},
	{Key: "hang %s's work thread for", ZH: "让 %s 的业务线程卡住，时长"},
	{Key: "crash %s; restart after (0s: stays down)", ZH: "让 %s 崩溃；多久后重启（0s：保持宕机）"},
	{Key: "jump %s's clock by (±)", ZH: "让 %s 的时钟跳变（±）"},
	{Key: "%s's clock runs at × true speed", ZH: "%s 的时钟以真实速度的多少倍（×）运行"},
	{Key: "isolate %s for", ZH: "让 %s 与所有进程断开，时长"},
	{Key: "partition: groups split by |, then for", ZH: "网络分区：各组以 | 分隔，然后是时长"},
	{Key: "slow %s's links: +latency [loss 0..1] [for]", ZH: "让 %s 的链路变慢：+latency [loss 0..1] [for]"},
}
