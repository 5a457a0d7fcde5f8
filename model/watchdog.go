package model

import (
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

func (c *Client) startWatchdog(l *Lease) *watchdog {
	wd := &watchdog{}
	cfg := c.w.Cfg.Lock.Watchdog
	if cfg == nil {
		return wd
	}
	c.renewals = 0
	c.group.Spawn(c.Name+"/watchdog", c.w.Now(), func(p *sim.Proc) {
		t := &Thread{c: c, p: p}
		for !wd.stopped {
			tk := p.Arm()
			timer := c.afterLocal(cfg.Every, func() { tk.Wake(nil) })
			wd.wake = func() { timer.Stop(); tk.Wake(nil) }
			p.Park()
			wd.wake = nil
			if wd.stopped {
				return
			}
			if !c.w.strategy.Renew(t, l) {
				c.w.Emit(c.Name, "renew-fail", "watchdog: renewal of %s failed (the key is no longer ours, or no answer in time); renewal stops", l.Token)
				return
			}
			c.renewals++
			c.w.Emit(c.Name, "renewed", "watchdog extended %s (renewal %d), believes it holds until %s",
				l.Token, c.renewals, sim.FormatTime(l.Until))
			if cfg.MaxRenewals > 0 && c.renewals >= cfg.MaxRenewals {
				c.w.Emit(c.Name, "renew-cap", "watchdog: max_renewals %d reached; renewal stops", cfg.MaxRenewals)
				return
			}
		}
	})
	return wd
}

// stop ends the watchdog; a sleeping watchdog thread is woken so it can exit.
func (wd *watchdog) stop() {
	wd.stopped = true
	if wd.wake != nil {
		w := wd.wake
		wd.wake = nil
		w()
	}
}
