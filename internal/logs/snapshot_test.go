package logs

import (
	"reflect"
	"strings"
	"testing"
)

// A snapshot is finished on a copy: folding the lines printed before the rank
// into the ranked process must not change the parse that goes on, however
// often the explorer or check-logs -f takes one. (The findings' slice was
// shared: each snapshot added the unranked findings' count again.)
func TestSnapshotLeavesTheParseAlone(t *testing.T) {
	text := "[TRT-LLM] [W] Terminating generation request 1 due to KV cache transfer timeout\n" +
		"[TRT-LLM] [RANK 0] [W] Terminating generation request 2 due to KV cache transfer timeout\n"
	want, err := Parse("x", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser("x")
	if _, err := p.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		got := p.Snapshot()
		if len(got.Processes) != 1 || !reflect.DeepEqual(got.Processes[0].Findings, want.Processes[0].Findings) {
			t.Fatalf("snapshot %d: findings %+v, Parse gives %+v", i, got.Processes[0].Findings, want.Processes[0].Findings)
		}
	}
	got, _ := p.Close()
	if !reflect.DeepEqual(got.Processes[0].Findings, want.Processes[0].Findings) {
		t.Fatalf("after snapshots the parse ends with findings %+v, Parse gives %+v", got.Processes[0].Findings, want.Processes[0].Findings)
	}
}
