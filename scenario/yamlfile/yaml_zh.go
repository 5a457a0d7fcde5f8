package yamlfile

import (
	"strings"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// yamlProblems are yaml.v3's parse problems (the text after "yaml: line
// N: ", from its scannerc.go and parserc.go) in Simplified Chinese, so an
// "invalid YAML: ..." message is Chinese through. A problem not listed
// stays as yaml.v3 wrote it.
var yamlProblems = []i18n.Entry{
	{Key: "block sequence entries are not allowed in this context", ZH: "此处不允许块序列的条目（- ）"},
	{Key: "mapping keys are not allowed in this context", ZH: "此处不允许映射的键"},
	{Key: "mapping values are not allowed in this context", ZH: "此处不允许映射的值"},
	{Key: "could not find expected ':'", ZH: "找不到应有的 ':'"},
	{Key: "did not find expected key", ZH: "找不到应有的键"},
	{Key: "did not find expected node content", ZH: "找不到应有的节点内容"},
	{Key: "did not find expected ',' or ']'", ZH: "找不到应有的 ',' 或 ']'"},
	{Key: "did not find expected ',' or '}'", ZH: "找不到应有的 ',' 或 '}'"},
	{Key: "did not find expected '-' indicator", ZH: "找不到应有的 '-' 标记"},
	{Key: "did not find expected <document start>", ZH: "找不到应有的文档开头"},
	{Key: "did not find expected comment or line break", ZH: "找不到应有的注释或换行"},
	{Key: "did not find expected whitespace", ZH: "找不到应有的空白"},
	{Key: "did not find expected whitespace or line break", ZH: "找不到应有的空白或换行"},
	{Key: "did not find expected alphabetic or numeric character", ZH: "找不到应有的字母或数字"},
	{Key: "did not find expected tag URI", ZH: "找不到应有的标签 URI"},
	{Key: "did not find expected '!'", ZH: "找不到应有的 '!'"},
	{Key: "did not find the expected '>'", ZH: "找不到应有的 '>'"},
	{Key: "did not find expected hexdecimal number", ZH: "找不到应有的十六进制数"},
	{Key: "found character that cannot start any token", ZH: "出现了不能作为任何记号开头的字符"},
	{Key: "found unexpected end of stream", ZH: "文件意外结束"},
	{Key: "found unexpected document indicator", ZH: "出现了意外的文档标记"},
	{Key: "found undefined tag handle", ZH: "出现了未定义的标签句柄"},
	{Key: "found unknown escape character", ZH: "出现了未知的转义字符"},
	{Key: "found invalid Unicode character escape code", ZH: "出现了无效的 Unicode 字符转义"},
	{Key: "found an incorrect leading UTF-8 octet", ZH: "出现了错误的 UTF-8 首字节"},
	{Key: "found an incorrect trailing UTF-8 octet", ZH: "出现了错误的 UTF-8 后续字节"},
	{Key: "found a tab character that violates indentation", ZH: "出现了破坏缩进的制表符"},
	{Key: "found a tab character where an indentation space is expected", ZH: "应为缩进空格的地方出现了制表符"},
	{Key: "found an indentation indicator equal to 0", ZH: "出现了等于 0 的缩进指示符"},
	{Key: "found unexpected non-alphabetical character", ZH: "出现了意外的非字母字符"},
	{Key: "found unknown directive name", ZH: "出现了未知的指令名"},
	{Key: "found incompatible YAML document", ZH: "出现了不兼容的 YAML 文档"},
	{Key: "control characters are not allowed", ZH: "不允许控制字符"},
	{Key: "alias value must not be empty", ZH: "别名不能为空"},
	{Key: "alias value must contain alphanumerical characters only", ZH: "别名只能含有字母和数字"},
	{Key: "unknown problem parsing YAML content", ZH: "解析 YAML 内容时出现未知问题"},
}

func init() { i18n.Register(yamlProblems...) }

// yamlProblem is yaml.v3's problem text as an argument of a message: a
// phrase of the catalogue when it has one (English unchanged), else the
// text as it is.
func yamlProblem(msg string) any {
	if !strings.Contains(msg, "%") && i18n.Has(msg) {
		return i18n.Msg{Format: msg}
	}
	return msg
}
