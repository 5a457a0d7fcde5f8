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

	// the answers a prompt refuses (faults.PromptError)
	{Key: "%s needs a positive duration", ZH: "%s 需要一个正的时长"},
	{Key: "a %s needs a positive duration", ZH: "%s 需要一个正的时长（网络分区）"},
	{Key: "%q is not a duration (try 35s, 1.5s, -5s)", ZH: "%q 不是时长（试试 35s、1.5s、-5s）"},
	{Key: "%q is not a clock rate from %g to %g (try 1.5 for fast, 0.5 for slow)", ZH: "%q 不是 %g 到 %g 之间的时钟速率（快用 1.5，慢用 0.5）"},
	{Key: "a clock jump of 0 changes nothing", ZH: "时钟跳变 0 什么也不改变"},
	{Key: "restart after must not be negative", ZH: "重启等待时间不能为负"},
	{Key: "rest can stand for one group only", ZH: "rest 只能代表一个组"},
	{Key: "give two groups or more, split by | (e.g. A redis-1 | rest 10s)", ZH: "至少给出两个组，用 | 分隔（例如 A redis-1 | rest 10s）"},
	{Key: "rest is empty: every process is in another group", ZH: "rest 为空：每个进程都已在别的组里"},
	{Key: "%q: give latency, then loss and for if you like (e.g. 200ms 0.1 10s)", ZH: "%q：先给 latency，需要的话再给 loss 和 for（例如 200ms 0.1 10s）"},
	{Key: "%q is not an extra latency (try 200ms)", ZH: "%q 不是额外延迟（试试 200ms）"},
	{Key: "%q is not a loss probability from 0 to 1", ZH: "%q 不是 0 到 1 之间的丢包概率"},
	{Key: "%q is not a positive duration", ZH: "%q 不是正的时长"},
	{Key: "no extra latency and no loss changes nothing", ZH: "没有额外延迟也没有丢包，什么也不改变"},
	// The TUI's refusals before a prompt opens (faults' Spec.Refuse, views'
	// refuseResource) and a refused injection.
	{Key: "evict makes a node drop the lock key: tab to Nodes and select a master", ZH: "evict 让节点丢掉锁的 key：按 tab 切到节点并选一个主库"},
	{Key: "failover promotes a master's replica: tab to Nodes and select a master", ZH: "failover（主从切换）把主库的从库提升为主库：按 tab 切到节点并选一个主库"},
	{Key: "a hang stalls a client's work thread: tab to Clients and select one", ZH: "hang 让客户端的工作线程卡住：按 tab 切到客户端并选一个"},
	{Key: "a GC pause stops a client: tab to Clients and select one", ZH: "GC 停顿让客户端停下：按 tab 切到客户端并选一个"},
	{Key: "%s does not apply to the resource, a process on the network only: i isolates it, s slows its links, P partitions it", ZH: "%s 不适用于资源，它只是网络上的一个进程：i 隔离它，s 让它的链路变慢，P 把它分区"},
	{Key: "not injected: %s", ZH: "未注入：%s"},
	{Key: "%s: ", ZH: "%s："}, // a fault prompt's question before its answer
}
