package help

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestNightlyFixtureIsEra2 keeps testdata/nightly, the node page's nightly
// install, a copy of internal/install's era-2 fixture without version.py and
// with a dist-info METADATA instead: a change to the era-2 fixture that is not
// copied here would leave the page's example on a tree no other test reads.
func TestNightlyFixtureIsEra2(t *testing.T) {
	era2, nightly := "../install/testdata/era2", "testdata/nightly"
	const metadata = "site-packages/tensorrt_llm-1.5.0rc1.dev2026112500.dist-info/METADATA"
	seen := map[string]bool{}
	err := filepath.WalkDir(era2, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(era2, p)
		if rel == "site-packages/tensorrt_llm/version.py" {
			return nil
		}
		seen[rel] = true
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(nightly, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not the era-2 fixture's copy (%v): cp %s %s", rel, err, p, filepath.Join(nightly, rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(nightly, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(nightly, p)
		if !seen[rel] && rel != metadata {
			t.Errorf("%s: in the nightly fixture only", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
