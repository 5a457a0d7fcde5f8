package yamlfile

import "github.com/lockstep-sim/lockstep/internal/i18n"

// messages are the reader's own messages in Simplified Chinese (the
// catalogue of internal/i18n, keyed by the English format): the bytes'
// checks, yaml.v3's errors, the walker's, and the phrases nested in them
// (Describe's "a list", KnownList's count). Names, values and units stay
// as the file wrote them. scenario's TestLoaderMessagesTranslated scans
// this package too and requires an entry for every format.
var messages = []i18n.Entry{
	// the file's encoding and its YAML
	{Key: "the file is UTF-16 (or UTF-32) text; lockstep reads UTF-8 only: save it as UTF-8", ZH: "文件是 UTF-16（或 UTF-32）文本；lockstep 只读 UTF-8：请另存为 UTF-8"},
	{Key: "invalid UTF-8 (the byte 0x%02x): the file must be UTF-8 text", ZH: "无效的 UTF-8（字节 0x%02x）：文件必须是 UTF-8 文本"},
	{Key: "a raw control character (%s) is not allowed in YAML text; the file may not be a text file", ZH: "YAML 文本中不允许出现原始控制字符（%s）；这可能不是文本文件"},
	{Key: "tabs are not allowed for indentation; use spaces", ZH: "缩进中不允许使用制表符；请用空格"},
	{Key: "invalid YAML: %s", ZH: "无效的 YAML：%s"},
	{Key: "alias *%s refers to an anchor &%s that is not defined before it", ZH: "别名 *%s 引用的锚点 &%s 没有在它之前定义"},
	{Key: "the document is too large once its aliases are expanded (more than %d nodes)", ZH: "展开别名后文档过大（超过 %d 个节点）"},
	{Key: "merge keys (<<) nested more than %d deep", ZH: "合并键（<<）嵌套超过 %d 层"},
	{Key: "this mapping is merged (<<) into itself", ZH: "这个映射被合并（<<）进了它自己"},
	{Key: "a merge key (<<) takes a mapping or a list of mappings, not %s", ZH: "合并键（<<）接受一个映射或映射的列表，而不是%s"},
	{Key: "a merge key (<<) takes a mapping or a list of mappings, not a list holding %s", ZH: "合并键（<<）接受一个映射或映射的列表，而不是包含%s的列表"},

	// the shapes of values (Describe's phrases and what holds them)
	{Key: "a mapping", ZH: "映射"},
	{Key: "a list", ZH: "列表"},
	{Key: "nothing (the value is empty)", ZH: "空值（什么都没写）"},
	{Key: "the value %s", ZH: "值 %s"},
	{Key: "an unsupported YAML node", ZH: "不支持的 YAML 节点"},
	{Key: "%s must be a mapping (key: value lines), not %s", ZH: "%s 必须是映射（key: value 的行），而不是%s"},
	{Key: "keys in %s must be plain names, not %s", ZH: "%s 中的键必须是普通名字，而不是%s"},
	{Key: "%s must be a list (lines starting with \"- \"), not %s", ZH: "%s 必须是列表（以 \"- \" 开头的行），而不是%s"},
	{Key: "%s must be a single value, not %s", ZH: "%s 必须是单个值，而不是%s"},
	{Key: "%s has no value (give one or remove the line)", ZH: "%s 没有值（请给出一个，或删掉这一行）"},
	{Key: "%s must be text, not a %s value", ZH: "%s 必须是文本，而不是 %s 值"},
	{Key: "%s must be a whole number, not %s", ZH: "%s 必须是整数，而不是 %s"},
	{Key: "%s: %s is far too large (see the limits in docs/scenario-format.md)", ZH: "%s：%s 太大了（上限见 docs/scenario-format.md）"},
	{Key: "%s: %d is far too large (see the limits in docs/scenario-format.md)", ZH: "%s：%d 太大了（上限见 docs/scenario-format.md）"},
	{Key: "%s must be a number, not %s", ZH: "%s 必须是数字，而不是 %s"},
	{Key: "%s must be a finite number, not %s", ZH: "%s 必须是有限的数字，而不是 %s"},
	{Key: "%s must be true or false (unquoted), not %s", ZH: "%s 必须是 true 或 false（不加引号），而不是 %s"},
	{Key: "%s: %s", ZH: "%s：%s"},
	{Key: "%s has no unit; did you mean %ss? (durations look like 1.5s, 250ms, 2m)", ZH: "%s 没有单位；是想写 %ss 吗？（时长的写法如 1.5s、250ms、2m）"},
	{Key: "%s is far too long: durations are at most %s", ZH: "%s 太长了：时长最多 %s"},
	{Key: "%s is not a duration (durations look like 1.5s, 250ms, 2m)", ZH: "%s 不是时长（时长的写法如 1.5s、250ms、2m）"},
	{Key: "%s is not a duration (durations look like 1.5s, 250ms, 2m, 1h30m)", ZH: "%s 不是时长（时长的写法如 1.5s、250ms、2m、1h30m）"},
	{Key: "too many %s: the limit is %d", ZH: "%s 太多：上限是 %d"},
	{Key: "%s… and %d more", ZH: "%s……还有 %d 个"},

	// the keys of a mapping
	{Key: "unknown field %s in %s (known: %s)", ZH: "%s 不是 %s 中的字段（已知：%s）"},
	{Key: "duplicate field %s in %s (first at line %d)", ZH: "字段 %s 在 %s 中重复（第一次在第 %d 行）"},
}

func init() { i18n.Register(messages...) }
