package build

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
)

// clientKnobs is lock l's knobs as the model takes them.
func clientKnobs(l scenario.Lock) model.ClientKnobs {
	k := model.ClientKnobs{Wait: l.Wait, FairTimeout: l.FairTimeout, CheckBeforeWrite: l.CheckBeforeWrite, Regrant: l.Regrant,
		HoldAtLeast: l.HoldAtLeast}
	if l.Notify == model.NotifyPubSub {
		k.Notify = model.NotifyPubSub
	}
	if d := l.Driver; d != nil {
		k.DriverRetries, k.DriverSkipsLock = d.Retries, !d.LockCommands
	}
	return k
}

// watchdogConfig is lock.watchdog as the model takes it; nil for none.
func watchdogConfig(w *scenario.Watchdog) *model.WatchdogConfig {
	if w == nil {
		return nil
	}
	return &model.WatchdogConfig{Every: w.Every, MaxRenewals: w.MaxRenewals, RetryOnFailure: w.OnFailure == scenario.WatchdogRetry, AbortWork: w.AbortWork}
}
