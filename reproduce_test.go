package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// inDir runs the built binary (as "lockstep" on PATH) in dir, either with
// args or, when line is set, as a shell command line exactly as printed.
func inDir(t *testing.T, dir, line string, args ...string) (int, string) {
	t.Helper()
	bin := lockstepBinary(t)
	var cmd *exec.Cmd
	if line != "" {
		cmd = exec.Command("sh", "-c", line)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	}
	t.Fatalf("%v %q: %v", args, line, err)
	return 0, ""
}

// lineAfter is the text after prefix on the first line that has it.
func lineAfter(t *testing.T, out, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(prefix) + `(.*)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q line in:\n%s", prefix, out)
	}
	return m[1]
}

// block is the report block of one scenario in run's text output.
func block(out, name string) string {
	for _, b := range strings.Split(out, "\n\n") {
		if strings.HasPrefix(b, name+"  [") {
			return b
		}
	}
	return ""
}

// TestReproduceLinesReproduce: the reproduce: lines of run and compare,
// and explore's replay: line, run by a shell exactly as printed from the
// directory the command ran in, give the same outcome: a file name with a
// space and a quote, and every flag that matters (--lua, --budget,
// --strategies, --seed) survive.
func TestReproduceLinesReproduce(t *testing.T) {
	dir := t.TempDir()
	name := "my file's.yaml"
	two := strings.Replace(pauseYAML, "%s", "true", 1) + strings.TrimPrefix(strings.Replace(strings.Replace(pauseYAML, "%s", "false", 1), "name: pause", "name: other", 1), "version: 1\nscenarios:\n")
	if err := os.WriteFile(filepath.Join(dir, name), []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out := inDir(t, dir, "", "run", "-f", name, "-s", "other,pause", "--seed", "7", "--lua", "interpreted", "--budget", "5000000")
	if code != exitFailed {
		t.Fatalf("run: exit %d, want 1:\n%s", code, out)
	}
	line := lineAfter(t, out, "reproduce: ")
	for _, want := range []string{"'my file'\\''s.yaml'", "-s pause", "--seed 7", "--lua interpreted", "--budget 5000000"} {
		if !strings.Contains(line, want) {
			t.Errorf("reproduce line %q lacks %q", line, want)
		}
	}
	again, out2 := inDir(t, dir, line)
	if again != code || block(out2, "pause") != block(out, "pause") || block(out, "pause") == "" {
		t.Errorf("%s: exit %d\n%s\nwant exit %d and the block\n%s", line, again, out2, code, block(out, "pause"))
	}

	code, out = inDir(t, dir, "", "compare", "-f", name, "-s", "pause", "--strategies", "set-del,redlock", "--seed", "7", "--budget", "5000000")
	if code != exitFailed {
		t.Fatalf("compare: exit %d, want 1:\n%s", code, out)
	}
	line = lineAfter(t, out, "reproduce: ")
	if again, out2 := inDir(t, dir, line); again != code || out2 != out {
		t.Errorf("%s: exit %d\n%s\nwant exit %d and\n%s", line, again, out2, code, out)
	}

	code, out = inDir(t, dir, "", "explore", "-f", "../"+filepath.Base(dir)+"/"+name, "-s", "other", "--runs", "300", "--seed", "3",
		"--budget", "5000000", "--out", "out dir")
	if code != exitOK {
		t.Fatalf("explore: exit %d:\n%s", code, out)
	}
	line = lineAfter(t, out, "replay: ")
	if !strings.Contains(line, "--budget 5000000") || !strings.Contains(line, "'out dir/") {
		t.Errorf("replay line %q lacks the budget or the quoted path", line)
	}
	if again, out2 := inDir(t, dir, line); again != exitOK || !strings.Contains(out2, "[ok]  UNSAFE") {
		t.Errorf("%s: exit %d, want 0 (an UNSAFE run that expects it):\n%s", line, again, out2)
	}
}
