package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// mergeYAML deep-merges a fix snippet into a parsed file, as an operator merging
// the snippet by hand (or with yq) would.
func mergeYAML(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeYAML(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// The fix of upgrade-check --disagg, merged into the file as printed, must give a
// file TensorRT-LLM loads and whose every role starts under the TO version, for
// each place the cache_transceiver_config can be written: a section of its own,
// the top level only (copied into both sections), and the top level repeated
// unchanged in a section.
func TestUpgradeCheckDisaggFixesMerge(t *testing.T) {
	const head = "hostname: localhost\nport: 8000\nbackend: pytorch\n"
	const ctxSec = "context_servers:\n  num_instances: 1\n  urls: [\"localhost:8001\"]\n"
	const genSec = "generation_servers:\n  num_instances: 1\n  urls: [\"localhost:8002\"]\n"
	const ctc = "  backend: UCX\n  kv_transfer_timeout_ms: 600000\n"
	const nested = "  cache_transceiver_config:\n    backend: UCX\n    kv_transfer_timeout_ms: 600000\n"
	files := map[string]string{
		"sections":          head + ctxSec + nested + genSec + nested,
		"top-level":         head + "cache_transceiver_config:\n" + ctc + ctxSec + genSec,
		"top-repeated":      head + "cache_transceiver_config:\n" + ctc + ctxSec + genSec + nested,
		"top-repeated-both": head + "cache_transceiver_config:\n" + ctc + ctxSec + nested + genSec + nested,
	}
	for name, text := range files {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "disagg.yaml")
			if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, role := range []string{"", "context", "generation"} {
				args := []string{"upgrade-check", "--from", "1.3.0rc29", "--to", "1.4.0rc1", "--disagg", file,
					"--model", "Qwen3ForCausalLM", "-o", "json"}
				if role != "" {
					args = append(args, "--role", role)
				}
				out, errOut, code := run(t, nil, args...)
				if code != 1 {
					t.Fatalf("role %q: exit %d, want 1 (UCX breaks at #17495); stderr %q", role, code, errOut)
				}
				var got struct {
					Findings []struct {
						Role string `json:"role"`
						Fix  *struct {
							YAML string `json:"yaml"`
						} `json:"fix"`
					} `json:"findings"`
				}
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatal(err)
				}
				for _, f := range got.Findings {
					if f.Fix == nil {
						t.Fatalf("role %s: no fix", f.Role)
					}
					var doc, fix map[string]any
					if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
						t.Fatal(err)
					}
					if err := yaml.Unmarshal([]byte(f.Fix.YAML), &fix); err != nil {
						t.Fatalf("role %s: fix is not YAML: %v\n%s", f.Role, err, f.Fix.YAML)
					}
					mergeYAML(doc, fix)
					for _, line := range strings.Split(f.Fix.YAML, "\n") {
						if c, ok := strings.CutPrefix(line, "# delete "); ok {
							keys := strings.Split(c, ".")
							m := doc
							for _, k := range keys[:len(keys)-1] {
								m = m[k].(map[string]any)
							}
							delete(m, keys[len(keys)-1])
						}
					}
					patched, err := yaml.Marshal(doc)
					if err != nil {
						t.Fatal(err)
					}
					fixed := filepath.Join(dir, "fixed-"+f.Role+".yaml")
					if err := os.WriteFile(fixed, patched, 0o600); err != nil {
						t.Fatal(err)
					}
					// The fixed file must load, and this role must start under the
					// new version (the other role may still need its own fix).
					out, errOut, code := run(t, nil, "explain", "--trtllm", "1.4.0rc1", "--disagg", fixed,
						"--role", f.Role, "--model", "Qwen3ForCausalLM")
					if code != 0 || !strings.Contains(out, "C++ transceiver") {
						t.Errorf("role %s, fix\n%s\nmerged into the file:\n%s\nexplain exit %d, stderr %q\n%s",
							f.Role, f.Fix.YAML, patched, code, errOut, out)
					}
				}
			}
		})
	}
}

// diff's chains say the versions came from --from and --to (or the default), as
// explain's JSON says --trtllm: not the default of the --trtllm flag diff refuses.
func TestDiffVersionOrigins(t *testing.T) {
	for _, c := range []struct {
		args     []string
		from, to string
	}{
		{[]string{"--from", "1.3.0rc25", "--to", "1.3.0rc26"}, "flag --from", "flag --to"},
		{[]string{"--from", "1.3.0rc25"}, "flag --from", "xcvr-default"},
	} {
		out, errOut, code := run(t, nil, append([]string{"diff", "-o", "json"}, c.args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got struct {
			From, To struct {
				Inputs struct {
					Trtllm struct {
						Origin string `json:"origin"`
					} `json:"trtllm"`
				} `json:"inputs"`
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.From.Inputs.Trtllm.Origin != c.from || got.To.Inputs.Trtllm.Origin != c.to {
			t.Errorf("%v: origins %q, %q; want %q, %q", c.args, got.From.Inputs.Trtllm.Origin, got.To.Inputs.Trtllm.Origin, c.from, c.to)
		}
	}
}

// diff and upgrade-check read a file for each version, as explain does: a
// non-string transceiver_runtime is refused with the literals of that version's
// era ('auto' only from #16164 on), so each side's error is explain's.
func TestCompareReadsFileForEachVersion(t *testing.T) {
	file := filepath.Join(t.TempDir(), "worker.yaml")
	if err := os.WriteFile(file, []byte("cache_transceiver_config:\n  backend: NIXL\n  transceiver_runtime: 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	explainErr := func(v string) string {
		out, _, _ := run(t, nil, "explain", "--trtllm", v, "--config", file, "-o", "json")
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil || e.Error == "" {
			t.Fatalf("explain %s: %v %q", v, err, out)
		}
		return e.Error
	}
	from, to := explainErr("1.3.0rc20"), explainErr("1.4.0rc1")
	if from == to {
		t.Fatal("the eras' errors should differ")
	}
	out, _, _ := run(t, nil, "diff", "--from", "1.3.0rc20", "--to", "1.4.0rc1", "--config", file, "-o", "json")
	var d struct {
		From, To struct {
			Error string `json:"error"`
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.From.Error != from || d.To.Error != to {
		t.Errorf("diff errors\n%q\n%q\nwant explain's\n%q\n%q", d.From.Error, d.To.Error, from, to)
	}
	out, _, _ = run(t, nil, "upgrade-check", "--from", "1.3.0rc20", "--to", "1.4.0rc1", "--config", file, "-o", "json")
	var u struct {
		Findings []struct {
			FromError string `json:"from_error"`
			ToError   string `json:"to_error"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &u); err != nil || len(u.Findings) != 1 {
		t.Fatalf("%v %q", err, out)
	}
	if u.Findings[0].FromError != from || u.Findings[0].ToError != to {
		t.Errorf("upgrade-check errors\n%q\n%q\nwant explain's\n%q\n%q", u.Findings[0].FromError, u.Findings[0].ToError, from, to)
	}
}
