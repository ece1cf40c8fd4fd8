package crash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// xcvrBinary returns xcvr built once for this package's tests, which run it
// as a whole process (each built its own copy, the same way). It skips with
// -short.
func xcvrBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "xcvr-crash-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "xcvr")
		if out, err := exec.Command("go", "build", "-o", built.bin, "xcvr").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
