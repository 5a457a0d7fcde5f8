package recipe_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

const key = "lock:test"

func newWorld(t *testing.T, cfg model.Config) *model.World {
	t.Helper()
	w, err := model.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// runUntil steps the world's kernel up to true time end.
func runUntil(w *model.World, end time.Duration) {
	for {
		at, ok := w.K.Next()
		if !ok || at > end {
			return
		}
		w.K.Step()
	}
}
