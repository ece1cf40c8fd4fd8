package logs

import (
	"strings"
	"testing"
)

// TestNixlAgentAddress: the C++ NIXL agent says the address it listens on
// ("NixlTransferAgent::NixlTransferAgent mAddress: IP:PORT"). One that peers
// on other nodes cannot reach (a link-local 169.254.x.x, which a GB200 node
// with hostNetwork lists before eth0; a loopback one; "UNKNOWN IP" when it
// found none) is said at that line with TRTLLM_NIXL_INTERFACE as the fix; a
// routable one says nothing more.
func TestNixlAgentAddress(t *testing.T) {
	for addr, want := range map[string]string{
		"169.254.3.1:44865":   "link-local address (169.254.3.1)",
		"UNKNOWN IP:44865":    "found no IPv4 interface",
		"127.0.0.1:5555":      "loopback address (127.0.0.1)",
		"100.64.130.148:4486": "",
		"10.0.0.7:32787":      "",
	} {
		lg, _ := Parse("f.log", strings.NewReader("[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: "+addr+"\n"))
		if len(lg.Processes) != 1 || lg.Processes[0].Backend != "NIXL" {
			t.Fatalf("%s: %s %+v", addr, sources(lg), lg.Processes)
		}
		var impl []string
		for _, im := range lg.Processes[0].Implications {
			impl = append(impl, im.Text)
		}
		got := strings.Join(impl, "\n")
		if want == "" && strings.Contains(got, "NIXL agent") || want != "" && (!strings.Contains(got, want) || !strings.Contains(got, "TRTLLM_NIXL_INTERFACE")) {
			t.Errorf("%s: implications %q, want %q", addr, impl, want)
		}
	}
}
