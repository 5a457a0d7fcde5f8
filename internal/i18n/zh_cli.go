package i18n

// cliEntries: the command line's shared words and flag texts. Each
// command's synopsis is registered by the command itself (Register).
var cliEntries = []Entry{
	{Key: "%d scenarios: %d ok, %d failed\n", One: "%d scenario: %d ok, %d failed\n", ZH: "%d 个场景：%d 个通过，%d 个失败\n"},
	{Key: "Flags:", ZH: "参数："},
	{Key: "%s (%d to %d)", ZH: "%s（%d 到 %d）"},
	{Key: "the `LANGUAGE` of messages: en or zh (default: $LOCKSTEP_LANG, else the locale)", ZH: "消息的语言 `LANGUAGE`：en 或 zh（默认：$LOCKSTEP_LANG，否则按 locale）"},
	{Key: "scenario `FILE` (default: the bundled scenarios.yaml)", ZH: "场景文件 `FILE`（默认：内置的 scenarios.yaml）"},
	{Key: "`N` kernel events per run before it is cut short as BUDGET EXHAUSTED", ZH: "每次运行最多 `N` 个内核事件，超出即以 BUDGET EXHAUSTED 截断"},
	{Key: "print one JSON array, an object per history, instead of text", ZH: "输出一个 JSON 数组（每段历史一个对象），代替文本"},
	{Key: "the outcome to require, as an expect: block's YAML body (`EXPECT`)", ZH: "要求的结果，写成 expect: 块的 YAML 内容（`EXPECT`）"},
	{Key: "the scenario `NAME` to compare (required)", ZH: "要对比的场景 `NAME`（必填）"},
	{Key: "comma-separated `LIST` of strategies (default lua-release,redlock)", ZH: "逗号分隔的策略列表 `LIST`（默认 lua-release,redlock）"},
	{Key: "override the scenario's seed with `N` (>= 0)", ZH: "用 `N` 覆盖场景的种子（>= 0）"},
	{Key: "print one JSON array, an object per strategy, instead of the table", ZH: "输出一个 JSON 数组（每个策略一个对象），代替表格"},
	{Key: "the scenario `NAME` whose world is explored (required)", ZH: "要探索其世界的场景 `NAME`（必填）"},
	{Key: "comma-separated `LIST` of strategies (default: the scenario's own)", ZH: "逗号分隔的策略列表 `LIST`（默认：场景自己的策略）"},
	{Key: "`N` random schedules per strategy", ZH: "每个策略 `N` 个随机故障安排"},
	{Key: "`S`: every schedule derives from it and the run's index (default 1)", ZH: "`S`：每个故障安排都由它和运行序号导出（默认 1）"},
	{Key: "`K` runs in parallel (0: GOMAXPROCS)", ZH: "并行运行 `K` 个（0：GOMAXPROCS）"},
	{Key: "at most `M` faults per schedule", ZH: "每个故障安排最多 `M` 个故障"},
	{Key: "write each counterexample to `DIR` (created if missing; never overwrites); default: write nothing", ZH: "把每个反例写到 `DIR`（不存在则创建；从不覆盖）；默认：不写"},
	{Key: "print the result as one JSON object instead of text", ZH: "把结果输出为一个 JSON 对象，代替文本"},
	{Key: "run only scenario `NAME` (repeatable, or comma-separated)", ZH: "只运行场景 `NAME`（可重复，或用逗号分隔）"},
	{Key: "override every scenario's seed with `N` (>= 0)", ZH: "用 `N` 覆盖每个场景的种子（>= 0）"},
	{Key: "print one JSON array, an object per scenario, instead of text", ZH: "输出一个 JSON 数组（每个场景一个对象），代替文本"},
	{Key: "write the event trace as JSON lines to `FILE` ('-' for stdout); never overwrites without --force", ZH: "把事件 trace 以 JSON lines 写到 `FILE`（'-' 为标准输出）；没有 --force 从不覆盖"},
	{Key: "let --trace replace an existing file", ZH: "允许 --trace 替换已有文件"},
	{Key: "print a Mermaid sequenceDiagram of each run instead of its report", ZH: "为每次运行输出 Mermaid sequenceDiagram，代替报告"},
	{Key: "how scripts run: `fast` (Go fast path) or interpreted (miniredis's Lua); same outcome", ZH: "脚本的执行方式：`fast`（Go 快速路径）或 interpreted（miniredis 的 Lua）；结果相同"},
	{Key: "open scenario `NAME` at once instead of the picker", ZH: "直接打开场景 `NAME`，不经过场景列表"},
	{Key: "compare two strategies `a,b` side by side (with -s: at once; otherwise after picking)", ZH: "并排对比两个策略 `a,b`（带 -s：立即；否则在选择场景之后）"},
	{Key: "open the recorded trace `FILE` instead of simulating (no fault injection)", ZH: "打开录制的 trace 文件 `FILE`，不做模拟（不能注入故障）"},
	{Key: "comma-separated fault `KINDS` to draw from (any of %s)", ZH: "逗号分隔的故障种类 `KINDS`，从中抽取（可选：%s）"},

	// the command line's own error sentences (the text of an error from
	// elsewhere, a loader's FILE:LINE:COL: message, stays as it comes)
	{Key: "writing to stdout: %v", ZH: "写标准输出失败：%v"},
	{Key: "unexpected argument %q (scenarios are chosen with -s NAME)", ZH: "多余的参数 %q（用 -s NAME 选择场景）"},
	{Key: "--trace opens a recorded trace: -f, --compare and --budget do not apply", ZH: "--trace 打开的是录制的 trace：-f、--compare 和 --budget 不适用"},
	{Key: "%v (see 'lockstep help %s')", ZH: "%v（见 'lockstep help %s'）"},
	{Key: "%s: is a directory, not a scenario file", ZH: "%s：是目录，不是场景文件"},
	{Key: "%s: %d bytes: the TUI opens traces of at most %d bytes (lockstep check judges any size)", ZH: "%s：%d 字节：TUI 最多打开 %d 字节的 trace（lockstep check 可判定任意大小）"},
	{Key: "lockstep: unknown command %q\n\n%s", ZH: "lockstep：未知命令 %q\n\n%s"},
	{Key: "lockstep tui: --compare takes two strategies, like --compare lua-release,redlock (got %q)\n", ZH: "lockstep tui：--compare 需要两个策略，例如 --compare lua-release,redlock（收到 %q）\n"},
}
