package models

import (
	"strings"
	"testing"
)

// FuzzParse: a --catalog file never panics the reader, errors name the file, and
// every entry it accepts has an architecture and preferences in date order.
func FuzzParse(f *testing.F) {
	f.Add([]byte("models:\n  - arch: X\n    preferences:\n      - {since: 2026-07-20, value: PYTHON, pr: 1}\n"))
	f.Add([]byte("\ufeffmodels: [{arch: \"\\e]0;x\\a\", family: \"\\x9b\"}]\n"))
	f.Add([]byte("models: &a [*a]\n"))
	f.Add([]byte("models:\n  - arch: A\n  - arch: A\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("c.yaml", data, "")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, e := range c.Entries() {
			if strings.TrimSpace(e.Arch) == "" {
				t.Fatalf("entry without arch: %+v", e)
			}
			for i := 1; i < len(e.Preferences); i++ {
				if e.Preferences[i].Since < e.Preferences[i-1].Since {
					t.Fatalf("preferences out of order: %+v", e)
				}
			}
		}
	})
}
