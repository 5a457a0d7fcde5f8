package scenario_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// errorInZH is err's text in zh, failing when err cannot say it or when
// the catalogue lacks a sentence of it.
func errorInZH(t *testing.T, err error) string {
	t.Helper()
	le, ok := err.(interface{ ErrorIn(i18n.Lang) string })
	if !ok {
		t.Fatalf("%T %q has no ErrorIn", err, err)
	}
	i18n.Missing()
	zh := le.ErrorIn(i18n.ZH)
	if m := i18n.Missing(); len(m) > 0 {
		t.Errorf("%q: the catalogue lacks %q", zh, m)
	}
	if le.ErrorIn(i18n.EN) != err.Error() {
		t.Errorf("ErrorIn(en) %q is not Error %q", le.ErrorIn(i18n.EN), err)
	}
	return zh
}

// Validate's error (a scenario built in code) says itself in zh, its
// English exactly what it was ("scenario NAME: problem").
func TestValidateErrorInZH(t *testing.T) {
	s := *scenariotest.Scenario(t, "gc-pause-wrong-delete")
	s.Clients = nil
	err := s.Validate()
	if err == nil {
		t.Fatal("a scenario without clients is valid")
	}
	if !strings.HasPrefix(err.Error(), `scenario "gc-pause-wrong-delete": `) {
		t.Errorf("en %q", err)
	}
	if zh := errorInZH(t, err); !strings.HasPrefix(zh, `场景 "gc-pause-wrong-delete"：`) || zh == err.Error() {
		t.Errorf("zh %q", zh)
	}
}

// ForStrategy's errors (a design no file could hold, a profile that cannot
// take it) say themselves in zh, keep their English byte for byte, and
// still unwrap to the DesignError.
func TestForStrategyErrorsInZH(t *testing.T) {
	s := *scenariotest.Scenario(t, "gc-pause-wrong-delete")
	s.Lock.Strategy, s.Lock.Reentrant, s.Lock.Fair = "lua-release", true, true
	_, _, err := scenario.ForStrategy(&s, "redlock")
	de := &scenario.DesignError{}
	if err == nil || !errors.As(err, &de) {
		t.Fatalf("err %v: not a DesignError", err)
	}
	if want := fmt.Sprintf("scenario %q: %s", s.Name, de.Msg); err.Error() != want {
		t.Errorf("en %q, want %q", err, want)
	}
	if zh := errorInZH(t, err); !strings.Contains(zh, `场景 "gc-pause-wrong-delete"：lock.fair 和 lock.reentrant`) {
		t.Errorf("zh %q", zh)
	}

	_, _, err = scenario.ProfileLock("no-such-lib", s.Lock)
	if zh := errorInZH(t, err); !strings.Contains(zh, "未知的客户端库 \"no-such-lib\"") {
		t.Errorf("zh %q", zh)
	}
}
