package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileNeverOverwrites(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.yaml")
	if err := os.WriteFile(p, []byte("user data"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(p, []byte("new"), false)
	if !errors.Is(err, ErrExists) {
		t.Fatalf("WriteFile over an existing file: err %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "user data" {
		t.Fatalf("existing file changed to %q", b)
	}
	if err := WriteFile(p, []byte("new"), true); err != nil {
		t.Fatalf("force: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("forced write left %q", b)
	}
	assertNoTemps(t, filepath.Dir(p), 1)
}

func TestCommitRefusesAFileThatAppearedMeanwhile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "trace.jsonl")
	f, err := Create(p, false)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("trace"))
	os.WriteFile(p, []byte("theirs"), 0o644)
	if err := f.Commit(); !errors.Is(err, ErrExists) {
		t.Fatalf("Commit: %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "theirs" {
		t.Fatalf("file that appeared meanwhile changed to %q", b)
	}
	assertNoTemps(t, filepath.Dir(p), 1)
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "x"), false)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Abort()
	assertNoTemps(t, dir, 0)
}

func TestBadTargetsAreRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing", "x"), dir} {
		if _, err := Create(p, true); err == nil {
			t.Errorf("Create(%s) succeeded", p)
		}
	}
}

func TestWriteNewPicksAFreeName(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.yaml")
	for i, want := range []string{"run.yaml", "run-2.yaml", "run-3.yaml"} {
		got, err := WriteNew(p, []byte{byte('a' + i)})
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(got) != want {
			t.Fatalf("write %d went to %s, want %s", i, got, want)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "a" {
		t.Fatalf("first file overwritten: %q", b)
	}
}

func assertNoTemps(t *testing.T, dir string, want int) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != want {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("%s holds %v, want %d file(s)", dir, names, want)
	}
}
