package slot

import "testing"

// The cluster specification's test vector, and slots that CLUSTER KEYSLOT
// answers on a real cluster.
func TestSlots(t *testing.T) {
	if got := crc16("123456789"); got != 0x31C3 {
		t.Errorf("crc16(123456789) = %#x, want 0x31c3 (the specification's vector)", got)
	}
	for key, want := range map[string]int{"foo": 12182, "bar": 5061, "hello": 866, "": 0,
		"{user1000}.following": Of("user1000"), "foo{}{bar}": Of("foo{}{bar}")} {
		if got := Of(key); got != want {
			t.Errorf("Of(%q) = %d, want %d", key, got, want)
		}
	}
}

func TestHashTags(t *testing.T) {
	for key, tag := range map[string]string{
		"lock:{order}:1": "order", "{user1000}.following": "user1000",
		"foo{}{bar}": "foo{}{bar}", "foo{{bar}}zap": "{bar", "foo{bar}{zap}": "bar",
		"no-tag": "no-tag", "open{only": "open{only",
	} {
		if got := Tag(key); got != tag {
			t.Errorf("Tag(%q) = %q, want %q", key, got, tag)
		}
	}
	if other, ok := Same([]string{"lock:order:1", "lock:order:2"}); ok || other != "lock:order:2" {
		t.Errorf("lock:order:1 and :2 share a slot (%d, %d)", Of("lock:order:1"), Of("lock:order:2"))
	}
	if _, ok := Same([]string{"lock:{order}:1", "lock:{order}:2"}); !ok {
		t.Error("a hash tag does not put keys in one slot")
	}
}
