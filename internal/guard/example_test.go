package guard_test

import (
	"fmt"
	"os"
	"path/filepath"

	"xcvr/internal/guard"
)

// Readers take a whole file through ReadFile with the limits for its kind; the
// bytes returned have passed the checks and lost their BOM.
func ExampleReadFile() {
	dir, _ := os.MkdirTemp("", "guard")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "gen.yaml")
	_ = os.WriteFile(p, []byte("\ufeffcache_transceiver_config:\n  backend: NIXL\n"), 0o600)
	data, err := guard.ReadFile(p, guard.YAMLLimits())
	fmt.Printf("%q %v\n", data[:25], err)

	_ = os.WriteFile(p, []byte("k: "+string(make([]byte, 3))+"\n"), 0o600)
	_, err = guard.ReadFile(p, guard.YAMLLimits())
	fmt.Println(err != nil)
	// Output:
	// "cache_transceiver_config:" <nil>
	// true
}

// Streams (logs) are opened with Open, which refuses a FIFO or a device before
// it could block; the caller bounds what it reads.
func ExampleOpen() {
	_, err := guard.Open("/dev/null", guard.Limits{})
	fmt.Println(err)
	// Output:
	// /dev/null: refused: a device, not a regular file; xcvr opens only regular files, so it never waits on a writer that does not come
}
