package ui

import (
	"regexp"
	"testing"

	"xcvr/resolver"
)

// The explorer draws values that came from files, /proc and flags: their control
// characters must show as escapes, never reach the terminal raw.
func TestHostileValuesRenderEscaped(t *testing.T) {
	s := testSpec()
	s.Model.Raw = "Evil\x1b]0;owned\x07ForCausalLM"
	s.Backend.Raw = "UCX\x1b[2J\u009b31m"
	s.Backend.Origin = resolver.Origin{Kind: resolver.OriginFile, Detail: "/tmp/\u202egen.yaml:3"}
	s.Env["TRTLLM_USE_UCX_KVCACHE"] = resolver.EnvVar{Value: "1\r\x1b]52;c;AAAA\x07", Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	sgr := regexp.MustCompile(`\x1b\[[0-9;:]*m`)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := New(Options{Spec: s, Width: size[0], Height: size[1]})
		for _, frame := range []string{m.View().Content, keys(t, m, "tab", "enter").View().Content} {
			for _, r := range sgr.ReplaceAllString(frame, "") {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
					t.Fatalf("%dx%d: raw %U in frame:\n%q", size[0], size[1], r, frame)
				}
			}
		}
	}
}
