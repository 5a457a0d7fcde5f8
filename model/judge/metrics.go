package judge

import "time"

// Metrics are the run's verdict, computed from ground truth (true time),
// never from what a client believes. The meanings are the scenario format's.
type Metrics struct {
	Safe              bool          `json:"safe"`
	Violations        int64         `json:"violations"`
	LostUpdates       int64         `json:"lost_updates"`
	FencingRejections int64         `json:"fencing_rejections"`
	WrongReleases     int64         `json:"wrong_releases"`
	Stuck             bool          `json:"stuck"`
	Acquired          int64         `json:"acquired"`
	FailedAcquires    int64         `json:"failed_acquires"`
	MaxWait           time.Duration `json:"-"`
}

// Get returns a metric by its format name as an integer (booleans 0/1,
// max_wait in milliseconds), and false for an unknown name.
func (m Metrics) Get(name string) (int64, bool) {
	for _, f := range [...]struct {
		name string
		v    int64
	}{
		{"safe", b2i(m.Safe)}, {"violations", m.Violations}, {"lost_updates", m.LostUpdates},
		{"fencing_rejections", m.FencingRejections}, {"wrong_releases", m.WrongReleases},
		{"stuck", b2i(m.Stuck)}, {"acquired", m.Acquired}, {"failed_acquires", m.FailedAcquires},
		{"max_wait", m.MaxWait.Milliseconds()},
	} {
		if f.name == name {
			return f.v, true
		}
	}
	return 0, false
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
