package tracemsg

import (
	"strings"
)

// DocTable is the catalogue as the Markdown table docs/trace-format.md
// holds between its "ids:begin" and "ids:end" markers
// (TestCatalogueIsDocumented keeps the two the same).
func DocTable() string {
	var b strings.Builder
	b.WriteString("| id | args | English template | zh template | meaning |\n|---|---|---|---|---|\n")
	for i, m := range catalogue {
		b.WriteString("| `" + m.ID + "` | " + strings.Join(argNames(m.Template), ", ") + " | " +
			docTemplate(m.Template) + " | " + docTemplate(template(zh, i)) + " | " + m.Meaning + " |\n")
	}
	return b.String()
}

// docTemplate is a template as the table shows it.
func docTemplate(t string) string {
	if t == "" {
		return "(not rendered from its args yet)"
	}
	return "`" + t + "`"
}

// argNames are the arguments a template names, in order, each once.
func argNames(t string) []string {
	var out []string
	seen := map[string]bool{}
	for {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			return out
		}
		t = t[open+1:]
		end := strings.IndexByte(t, '}')
		if end < 0 {
			return out
		}
		name, _, _ := strings.Cut(t[:end], ":")
		if !seen[name] {
			seen[name] = true
			out = append(out, "`"+name+"`")
		}
		t = t[end+1:]
	}
}
