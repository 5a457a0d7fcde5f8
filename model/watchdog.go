package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// watchdog renews a lease in the background, Redisson style: every `every`
// by the client's clock it runs the strategy's Renew, and stops when the key
// is no longer ours, when max_renewals is reached, or when the hold ends. It
// is a thread of the client process, so a GC pause stops it too; a hung work
// thread does not.
type watchdog struct {
	stopped bool
	wake    func()
}

// startWatchdog starts l's watchdog; nil (which stop accepts) when the
// lock has none, so that a hold without one allocates nothing for it. It
// is inlined, so such a hold costs no call either.
func (c *Client) startWatchdog(l *Lease) *watchdog {
	if cfg := c.w.Cfg.Lock.Watchdog; cfg != nil {
		return c.spawnWatchdog(l, cfg)
	}
	return nil
}

// spawnWatchdog is startWatchdog with the watchdog cfg.
func (c *Client) spawnWatchdog(l *Lease, cfg *WatchdogConfig) *watchdog {
	wd := &watchdog{}
	c.renewals = 0
	c.group.Spawn(c.Name+"/watchdog", c.w.Now(), func(p *sim.Proc) {
		t := &Thread{c: c, p: p}
		for wd.sleep(t, cfg.Every) && c.renew(t, l, cfg) {
		}
	})
	return wd
}

// sleep waits every by the client's clock, or until stop; false when the
// watchdog has been stopped.
func (wd *watchdog) sleep(t *Thread, every time.Duration) bool {
	if wd.stopped {
		return false
	}
	tk := t.p.ArmShared() // another thread may end it
	timer := t.c.afterLocal(every, func() { tk.Wake(nil) })
	wd.wake = func() { timer.Stop(); tk.Wake(nil) }
	t.p.Park()
	wd.wake = nil
	return !wd.stopped
}

// renew is one renewal by the strategy; false when renewal stops.
func (c *Client) renew(t *Thread, l *Lease, cfg *WatchdogConfig) bool {
	t.lastErr = nil
	if !c.w.strategy.Renew(t, l) {
		if cfg.RetryOnFailure && t.lastErr != nil {
			return c.renewAgain(l, cfg, t.lastErr)
		}
		c.w.Tell(c.Name, "renew-fail", "renew-fail", sim.S("token", l.Token))
		return false
	}
	c.renewals++
	c.w.Say(c.Name, "renewed", "renewed", []sim.Arg{sim.S("client", c.Name), sim.S("token", l.Token), sim.I("until_ms", msOr(l.Until)), sim.I("until_ns", int64(l.Until)),
		sim.I("renewal", int64(c.renewals))}, "watchdog extended %s (renewal %d), believes it holds until %s",
		l.Token, c.renewals, sim.FormatTime(l.Until))
	if cfg.MaxRenewals > 0 && c.renewals >= cfg.MaxRenewals {
		c.w.Tell(c.Name, "renew-cap", "renew-cap", sim.I("max", int64(cfg.MaxRenewals)))
		return false
	}
	return true
}

// stop ends the watchdog; a sleeping watchdog thread is woken so it can
// exit. It is inlined: a hold without a watchdog (nil) costs no call.
func (wd *watchdog) stop() {
	if wd != nil {
		wd.end()
	}
}

// end is stop of a watchdog that runs.
func (wd *watchdog) end() {
	wd.stopped = true
	if wd.wake != nil {
		w := wd.wake
		wd.wake = nil
		w()
	}
}

// renewAgain is on_failure: retry after a renewal that got no answer or an
// error: the watchdog tries again after its period, as Redisson's does
// (renewal/RenewalTask.java, run: "if (e != null) { log.error(...);
// schedule(); return; }"); it stops only when the script answers that the
// key is not ours (LockTask: hexists == 0 -> cancelExpirationRenewal). The
// strategies that renew through other threads (Redlock's parallel calls)
// leave lastErr nil and stop as before.
func (c *Client) renewAgain(l *Lease, cfg *WatchdogConfig, err error) bool {
	failure := "renew-failed-reply" // an error reply, in Redis's own words
	if err == ErrTimeout {
		failure = "renew-failed-timeout"
	}
	c.w.Tell(c.Name, "renew-retry", "renew-retry", sim.S("token", l.Token), sim.S("error", err.Error()), sim.S("failure", failure),
		sim.I("every_ns", int64(cfg.Every)))
	return true
}
