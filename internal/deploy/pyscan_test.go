package deploy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"xcvr/internal/oracle"
)

// TestPyYAMLLoadMatchesPyYAML runs PyYAML (the oracle) and PyYAMLLoad on shell
// scripts in the shapes sbatch jobs have: the same ScannerError, ParserError or
// ComposerError text, or both read the file.
func TestPyYAMLLoadMatchesPyYAML(t *testing.T) {
	p := oracle.Start(t, `import sys, json, yaml
for line in sys.stdin:
    path = json.loads(line)["path"]
    try:
        with open(path) as f:
            yaml.safe_load(f)
        out = "OK"
    except yaml.YAMLError as e:
        out = type(e).__module__ + "." + type(e).__name__ + ": " + str(e)
    print(json.dumps(out), flush=True)`)
	files, _ := filepath.Glob("testdata/scripts/*")
	if len(files) < 8 {
		t.Fatalf("only %d scripts", len(files))
	}
	kinds := map[string]int{}
	for _, f := range files {
		var want string
		if err := p.Ask(map[string]string{"path": f}, &want); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(f)
		got := PyYAMLLoad(f, string(data))
		if want == "OK" {
			if got != nil {
				t.Errorf("%s: PyYAML reads it, xcvr says %v", f, got)
			}
			continue
		}
		kinds[strings.SplitN(want, ":", 2)[0]]++
		if got == nil || got.Error() != want {
			t.Errorf("%s:\n xcvr %v\n  py  %s", f, got, want)
		}
	}
	if kinds[PyScannerError] < 4 || kinds[PyParserError] < 4 || kinds[PyComposerError] < 3 {
		t.Errorf("the scripts exercise too few errors: %v", kinds)
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

// TestPyB64Decode: base64.decodebytes as CPython 3.11.7 answers (pads before
// a quad's second character are skipped, a quad's pads end the data).
func TestPyB64Decode(t *testing.T) {
	for in, want := range map[string]string{
		"=0":      "!Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4",
		"Y":       "!Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4",
		"aGVsbG8": "!Incorrect padding", "a=Gk": "!Incorrect padding",
		"aGk=": "hi", "aG=k=": "hi", "aGVsbG8==x": "hello", "YWJj=": "abc", "YW==Jj": "a", "": "",
	} {
		out, exc := pyB64Decode([]byte(in))
		got := string(out)
		if exc != "" {
			got = "!" + exc
		}
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
