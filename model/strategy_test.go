package model

import "testing"

// TestRegisterStrategyTwicePanics: two packages claiming one name is found
// at start-up, not by whichever init happened to run last.
func TestRegisterStrategyTwicePanics(t *testing.T) {
	const name = "test-strategy-registered-twice"
	t.Cleanup(func() { delete(strategyFactories, name) })
	RegisterStrategy(name, func(LockConfig) Strategy { return nil })
	defer func() {
		if recover() == nil {
			t.Error("a second RegisterStrategy of one name did not panic")
		}
	}()
	RegisterStrategy(name, func(LockConfig) Strategy { return nil })
}
