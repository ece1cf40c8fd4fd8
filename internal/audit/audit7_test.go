package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A trtllm-serve started without --port listens on 8000 (serve.py's
// default): an orchestrator url on 8000 reaches it, in a script (by host
// and port) and through a Kubernetes Service that forwards to 8000. Such
// a server was left aggregated. One without --host listens on localhost
// only: an orchestrator that reaches it by another name is refused, which
// is said.
func TestDefaultPortRoutes(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"default-port/launch.sh default-port/disagg.yaml default-port/worker.yaml", []string{
			"context 7: its port 8000 (no --port: trtllm-serve's default) is in the orchestrator's context_servers urls: localhost:8000 at default-port/disagg.yaml:6 | ",
			"generation 8: its --port 8001 is in the orchestrator's generation_servers urls: localhost:8001 at default-port/disagg.yaml:10 | ",
		}},
		{"k8s-default-port.yaml", []string{
			"context 39: the orchestrator's context_servers urls list it: llama-a:80 at k8s-default-port.yaml:19 (ConfigMap trtllm-cfg, disagg.yaml:6), whose port 80 its Service llama-a (k8s-default-port.yaml:49) forwards to its port 8000 (no --port: trtllm-serve's default) | ",
			"generation 71: the orchestrator's generation_servers urls list it: llama-b:8000 at k8s-default-port.yaml:23 (ConfigMap trtllm-cfg, disagg.yaml:10), whose port 8000 its Service llama-b (k8s-default-port.yaml:81) forwards to its port 8000 (no --port: trtllm-serve's default) | no --host: trtllm-serve listens on localhost (its default, serve.py) and takes no connection from another address, but the orchestrator reaches it as llama-b (llama-b:8000 at k8s-default-port.yaml:23 (ConfigMap trtllm-cfg, disagg.yaml:10)): start it with --host 0.0.0.0 (or its own address)",
		}},
	} {
		r := audit(t, "1.3.0rc29", strings.Fields(c.file)...)
		var got []string
		for _, e := range r.Entries {
			got = append(got, fmt.Sprintf("%s %d: %s | %s", e.Worker.Role, e.Worker.Source.Line, e.Worker.RoleFrom, strings.Join(e.Worker.Notes, "; ")))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: workers\n%s\nwant\n%s", c.file, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}
