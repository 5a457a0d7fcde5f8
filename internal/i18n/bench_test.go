package i18n

import "testing"

// BenchmarkT measures one lookup and fill, as a frame of the TUI does a
// few dozen times.
func BenchmarkT(b *testing.B) {
	for _, l := range []Lang{EN, ZH} {
		b.Run(string(l), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = l.Sprintf("end of the run (%d steps, %d events)", 48, 54)
			}
		})
	}
}
