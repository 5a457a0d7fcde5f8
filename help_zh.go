package main

import "github.com/lockstep-sim/lockstep/internal/i18n"

// The Simplified Chinese help texts, keyed by the English constants they
// translate (internal/i18n: the English text is the key).
func init() {
	i18n.Register(
		i18n.Entry{Key: usage, ZH: usageZH},
		i18n.Entry{Key: listSynopsis, ZH: "用法：lockstep list [-f FILE]\n\n列出 FILE 中的场景（默认：内置场景）。"},
		i18n.Entry{Key: runSynopsis, ZH: runSynopsisZH},
		i18n.Entry{Key: tuiSynopsis, ZH: tuiSynopsisZH},
		i18n.Entry{Key: compareSynopsis, ZH: compareSynopsisZH},
		i18n.Entry{Key: checkSynopsis, ZH: checkSynopsisZH},
		i18n.Entry{Key: exploreSynopsis, ZH: exploreSynopsisZH},
	)
}

const usageZH = `lockstep — 以确定性的方式观察 Redis 分布式锁如何失效。

用法：
  lockstep                         在内置场景上打开 TUI
  lockstep tui [-f FILE] [-s NAME] 在另一个文件上打开 TUI，或直接进入一个场景
  lockstep run [flags]             无界面重放场景并检查其预期
  lockstep compare -s NAME [flags] 用多种策略运行同一场景，并排对比
  lockstep explore -s NAME [flags] 随机搜索故障安排寻找违反；把出错的安排缩到最小
  lockstep check HISTORY.jsonl     用同一个检查器判定别处录下的历史（或 trace）
  lockstep tui --trace FILE        在运行视图中打开录制的 trace
  lockstep list [-f FILE]          列出文件中的场景
  lockstep help [COMMAND]          显示帮助

运行 'lockstep help run' 查看某个命令的参数。
--lang en|zh（所有命令；否则 LOCKSTEP_LANG，否则按 locale）选择语言。
退出码：0 所有预期成立，1 有预期不成立，2 输入有误。
`

const runSynopsisZH = `用法：lockstep run [-f FILE] [-s NAME]... [--seed N] [--budget N] [--lua MODE]
                    [--json | --mermaid] [--trace FILE [--force]]

无界面、确定性地重放场景，并检查每个场景的 expect: 块。每个场景输出一段：
结论（SAFE/UNSAFE、STUCK）、各项指标、每条预期（✓ 或 ✗）、首个违反的解释；
失败的场景另有一行 reproduce:，照原样重放它。同一文件、同一种子总得到同一
trace。--mermaid 改为输出每次运行的 Mermaid sequenceDiagram（可粘贴到任何
Mermaid 渲染器）。

--json 只输出一个 JSON 文档。--trace FILE 把 trace 以 JSON lines 原子地写出
（docs/trace-format.md：含世界的头部、带消息 id 的事件、判定器读到的历史、
带哈希的结尾记录）；它从不替换输入文件，也不替换已有文件，除非给了 --force。
'lockstep tui --trace FILE' 打开它，'lockstep check FILE' 判定它。--trace -
只把 trace 写到标准输出，报告写到标准错误；不能与 --json 同用。

退出码：0 所有预期成立，1 有预期不成立（或某次运行用完了 --budget），2 输入
有误（文件无法读取或无效、场景名未知、参数有误、输出无法写出）。`

const tuiSynopsisZH = `用法：lockstep tui [-f FILE] [-s NAME] [--compare a,b] [--budget N]
       lockstep tui --trace FILE [-s NAME]

打开交互视图：选择场景，播放、暂停，前进、后退，在光标处注入故障，把运行
写成场景文件，并排对比两个策略。在视图内按 ? 查看所有按键。遵循 NO_COLOR。
TUI 为了能后退会保留一次运行的所有事件，所以一次运行最多 --budget 个内核
事件（默认是无界面命令的十分之一）；需要更多的运行会显示为被截断。

--trace FILE 在运行视图中打开录制的 trace（lockstep run --trace、harness；
docs/trace-format.md）：步进、时间线、日志和各面板都只由 trace 重建。不会
重新模拟，所以不能注入故障。含多段 trace 的文件需要 -s NAME。`

const compareSynopsisZH = `用法：lockstep compare [-f FILE] -s NAME [--strategies a,b,...] [--seed N] [--budget N] [--json]

对每个策略（默认 lua-release,redlock）各运行一次同一场景，客户端、故障和
种子都相同，输出一张表：每个策略一列，行是结论和每项指标，然后是每个结论
的原因，以及某个世界跳过的故障。需要比 redis.nodes 更多节点的策略会得到
它们（Redlock：5 个，除非 redis.nodes 为 3 或更多）；指向某个世界没有的节点
的故障在那里被跳过并报告。客户端配置（redsync、redisson、redisson-redlock、
node-redlock、redislock、redis-py、shedlock）也是一列：该库的设计，加上场景
的 lock.key、ttl 和 fencing。

场景的 expect: 块描述的是它自己的策略，所以只在那一列检查。--json 输出一个
JSON 数组，每个策略一个对象，字段同 'lockstep run --json'，另有 nodes 和 why。
失败的对比以一行 reproduce: 结尾，照原样重放它。

退出码：0 场景的预期在它自己策略的那一列成立（或没有对比那个策略），1 不成立，
2 输入有误（文件无法读取或无效、场景或策略未知、参数有误）。`

const checkSynopsisZH = `用法：lockstep check [--json] [--expect EXPECT] HISTORY.jsonl（或 - 表示标准输入）

用 lockstep 自己的检查器判定别处录下的历史：每个客户端做了什么的 JSON lines
（acquire、release、enter、leave、read、write，带令牌和值），以及已知时每个
节点上锁 key 发生了什么（set、deleted、expired，带持有者和 TTL）——
docs/history-format.md。'lockstep run --trace' 或 harness 写出的 trace 也是
一段历史（docs/trace-format.md）。输出与 'lockstep run' 相同形式的报告
（--json：一个 JSON 数组，每段历史一个对象）。

--expect 接受 expect: 块的内容（YAML），例如 --expect 'safe: false' 或
--expect '{violations: ">= 1", lost_updates: 0}'。不给时，历史安全且没有卡死即通过。

退出码：0 所有预期成立（或历史是安全的），1 不成立，2 输入有误（文件无法读取、
某行有误：FILE:LINE: message、参数有误）。`

const exploreSynopsisZH = `用法：lockstep explore [-f FILE] -s NAME [--strategies a,b] [--faults kinds]
                        [--runs N] [--seed S] [--workers K] [--max-faults M]
                        [--budget N] [--out DIR] [--json]

随机搜索故障安排，寻找安全性违反。场景 NAME 给出世界（节点、从库、客户端、
锁的设置、时长）；它自己的故障和预期不使用。每次运行从 --faults 的种类中抽取
1 到 --max-faults 个故障，目标随机（世界中的客户端和节点），时间随机（在客户端
仍在工作的时段内均匀分布），幅度按锁的 TTL 缩放（停顿、分区和时钟跳变最多
2 倍 TTL），全部由 --seed 和运行序号导出：同样的参数在任何 --workers 下都得到
同样的报告。

按策略报告：运行次数、违反安全性的比例（带 95% 的 Wilson 区间）、出现更新丢失
和锁卡死的比例、被事件预算截断的运行（--budget；从不算作安全）、围栏令牌拒绝、
误删，以及违反的运行中每种故障各出现多少次。需要比 redis.nodes 更多节点的策略
会得到它们（Redlock：5 个），它的故障打在它自己的节点上。--strategies 也接受
客户端配置（redsync、redisson、redisson-redlock、node-redlock、redislock、
redis-py、shedlock）。

对每个出错的策略，故障最少的那次违反运行会被缩小（去掉故障、缩短停顿和分区、
减小跳变、把故障提前），直到任何单步缩小都不再保留违反，然后输出。带 --out DIR
时它还会写成
DIR/<scenario>-<strategy>-s<seed>-r<runs>-m<max-faults>-<tag>.yaml（tag：
--faults 和 --budget 的哈希），带 expect: {safe: false}；对它运行 'lockstep run -f'
退出码为 0，'lockstep tui -f' 可以打开它。从不替换文件：名字被占用时使用下一个
空闲的 -2、-3 ……。DIR 在搜索之前检查。不带 --out 时什么也不写。

进度写到标准错误：终端上是进度条，否则每隔几秒一行。Ctrl-C 或 SIGTERM 会停止
搜索，包括正在进行的运行；已经找到的仍会报告并写出（未缩小），被打断的运行丢弃。
第二次 Ctrl-C 立即结束。

退出码：0 搜索完成（无论是否找到违反：看报告或 --json），2 输入有误（文件无法
读取或无效、场景、策略或故障种类未知、参数有误、--out 不可用、反例或报告无法
写出；报告会先输出），130 被 Ctrl-C 或 SIGTERM 中断（报告之后）。`
