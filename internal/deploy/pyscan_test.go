package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPyYAMLScanMatchesPyYAML runs PyYAML (the oracle) and PyYAMLScan on shell
// scripts in the shapes sbatch jobs have: the same ScannerError text, or both
// read the file. A file PyYAML's parser (not its scanner) refuses is not
// modelled and is skipped, by name.
func TestPyYAMLScanMatchesPyYAML(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 (the PyYAML oracle) not found")
	}
	files, _ := filepath.Glob("testdata/scripts/*")
	if len(files) < 8 {
		t.Fatalf("only %d scripts", len(files))
	}
	scanner := 0
	for _, f := range files {
		name := filepath.Base(f)
		cmd := exec.Command(py, "-c", `import sys, yaml
try:
    yaml.safe_load(open(sys.argv[1]))
    print("OK")
except yaml.scanner.ScannerError as e:
    print("SCANNER\n" + str(e))
except yaml.YAMLError as e:
    print("OTHER\n" + str(e))`, name)
		cmd.Dir = "testdata/scripts"
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		kind, want, _ := strings.Cut(strings.TrimRight(string(out), "\n"), "\n")
		data, _ := os.ReadFile(f)
		got := PyYAMLScan(name, string(data))
		switch kind {
		case "OK":
			if got != nil {
				t.Errorf("%s: PyYAML reads it, xcvr says %v", name, got)
			}
		case "SCANNER":
			scanner++
			if got == nil || strings.TrimPrefix(got.Error(), "yaml.scanner.ScannerError: ") != want {
				t.Errorf("%s:\n xcvr %v\n  py  %s", name, got, want)
			}
		default:
			t.Logf("%s: PyYAML's parser refuses it (not modelled): %s", name, want)
		}
	}
	if scanner < 4 {
		t.Errorf("only %d scripts exercise a scanner error", scanner)
	}
}

// An sbatch script given as --config is refused with PyYAML's message and
// line, not go-yaml's.
func TestShellScriptRefusedAsPyYAML(t *testing.T) {
	data, err := os.ReadFile("testdata/scripts/sbatch-if.sh")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadWorkerConfig("sbatch-if.sh", data)
	want := "sbatch-if.sh:7:1: a shell script, not YAML; yaml.safe_load refuses it:\nyaml.scanner.ScannerError: while scanning a simple key\n  in \"sbatch-if.sh\", line 5, column 1\ncould not find expected ':'\n  in \"sbatch-if.sh\", line 7, column 1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
