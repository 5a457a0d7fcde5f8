package scenario

import (
	"os"
	"testing"
)

func loadBundled(tb testing.TB) *File {
	tb.Helper()
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	f, err := Load("scenarios.yaml", data)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// BenchmarkBundledFile replays every bundled scenario once per iteration.
func BenchmarkBundledFile(b *testing.B) {
	f := loadBundled(b)
	for i := 0; i < b.N; i++ {
		for _, s := range f.Scenarios {
			r, err := NewRunner(s, Options{}, false)
			if err != nil {
				b.Fatal(err)
			}
			r.Run()
			r.Close()
		}
	}
}
