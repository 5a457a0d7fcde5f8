// Package slot is Redis Cluster's key-to-slot mapping, and nothing else of a
// cluster: CRC16 (XMODEM) of the key's hash tag, or of the whole key, mod
// 16384. A command over several keys is refused with CROSSSLOT when they
// map to different slots; a hash tag ("lock:{order}:1") puts keys in one
// slot. The rules are the cluster specification's (redis.io, "Redis
// cluster specification", "Hash tags").
package slot

// Slots is the number of hash slots of a Redis Cluster.
const Slots = 16384

// CrossSlot is the error a cluster node answers a command whose keys do
// not all hash to one slot.
const CrossSlot = "CROSSSLOT Keys in request don't hash to the same slot"

// Of is the hash slot of key.
func Of(key string) int { return int(crc16(Tag(key)) % Slots) }

// Tag is the part of key that is hashed: the content of the first {...}
// when it is not empty, otherwise the whole key. Only the first '{' counts,
// and the first '}' after it.
func Tag(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] != '{' {
			continue
		}
		for j := i + 1; j < len(key); j++ {
			if key[j] == '}' {
				if j == i+1 {
					return key // "{}": the whole key is hashed
				}
				return key[i+1 : j]
			}
		}
		return key // no closing brace
	}
	return key
}

// Same reports whether every key maps to the slot of the first; when not,
// it returns the first key whose slot differs.
func Same(keys []string) (other string, ok bool) {
	if len(keys) < 2 {
		return "", true
	}
	s := Of(keys[0])
	for _, k := range keys[1:] {
		if Of(k) != s {
			return k, false
		}
	}
	return "", true
}

// crc16 is CRC-16/XMODEM (polynomial 0x1021, initial value 0), the
// checksum of the cluster specification's reference implementation.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
