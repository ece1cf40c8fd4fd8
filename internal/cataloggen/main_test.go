package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"xcvr/assets"
	"xcvr/models"
)

// TestGeneratedCatalogIsCurrent fails when models/builtin_gen.go is not what
// the generator makes of assets/models.yaml today: someone edited the YAML
// without running `go generate ./models`.
func TestGeneratedCatalogIsCurrent(t *testing.T) {
	want, err := Generate(assets.ModelsYAML)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../models/builtin_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("models/builtin_gen.go is stale: run `go generate ./models`")
	}
}

// TestGeneratedCatalogIsTheParsedOne compares values, not text: the catalog
// the binary carries is exactly what parsing the YAML gives.
func TestGeneratedCatalogIsTheParsedOne(t *testing.T) {
	parsed, err := models.Parse("assets/models.yaml", assets.ModelsYAML, "built-in")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := models.Builtin().Entries(), parsed.Entries(); !reflect.DeepEqual(got, want) {
		t.Fatalf("the generated catalog differs from the parsed one:\n got %d entries\nwant %d entries", len(got), len(want))
	}
}

// TestRenderRefusesWhatItCannotWrite: a field kind the generator does not
// know is an error, not silently dropped data.
func TestRenderRefusesWhatItCannotWrite(t *testing.T) {
	var b bytes.Buffer
	if err := value(&b, reflect.ValueOf(map[string]int{"a": 1}), false); err == nil {
		t.Fatal("a map was written without an error")
	}
	if err := value(&b, reflect.ValueOf(struct{ x int }{1}), false); err == nil {
		t.Fatal("an unexported field was written without an error")
	}
}
