package deploy

import "testing"

// TestMayResolveIsConservative checks the first-character filter against the
// patterns it lets resolvePlain skip: a scalar mayResolve rejects matches none
// of them, whatever its first byte and whatever follows.
func TestMayResolveIsConservative(t *testing.T) {
	rest := []string{"", "0", "1", "1_0", "7", ":30", ":5:59", ".5", ".5e+3", "e+3", "inf", "Inf", "nan", "NaN",
		"ull", "ULL", "es", "ES", "o", "O", "n", "N", "ff", "rue", "alse", "0b1", "x1f", "b10", "_", "999-01-01",
		"000-01-01", "000-1-1 1:02:03.5 +01:00", "000-01-01T10:00:00Z", "~", "/c", " x"}
	patterns := map[string]func(string) bool{
		"null": reNull().MatchString, "bool": reBool().MatchString, "int": reInt().MatchString,
		"float": reFloat().MatchString, "timestamp": reTime().MatchString,
	}
	for b := 0; b < 256; b++ {
		for _, r := range rest {
			s := string([]byte{byte(b)}) + r
			if mayResolve(s) {
				continue
			}
			for name, match := range patterns {
				if match(s) {
					t.Errorf("mayResolve(%q) = false, but the %s resolver matches it", s, name)
				}
			}
		}
	}
	if !mayResolve("") {
		t.Error(`mayResolve("") = false; the null resolver claims ""`)
	}
}
