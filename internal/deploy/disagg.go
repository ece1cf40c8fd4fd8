package deploy

import (
	"fmt"

	"xcvr/internal/yamlpos"
	"xcvr/resolver"
)

// The two roles of a disaggregated deployment, as xcvr's --role spells them.
const (
	RoleContext    = "context"
	RoleGeneration = "generation"
)

// Roles lists the roles in the order TensorRT-LLM processes their sections.
func Roles() []string { return []string{RoleContext, RoleGeneration} }

// sectionOf maps a role to its section key in the orchestrator YAML.
func sectionOf(role string) string {
	if role == RoleContext {
		return "context_servers"
	}
	return "generation_servers"
}

// disaggTopLevel lists the keys extract_disagg_cfg consumes itself
// (tensorrt_llm/llmapi/disagg_utils.py); every other top-level key is copied into
// both sections.
var disaggTopLevel = map[string]bool{
	"hostname": true, "port": true, "max_retries": true, "perf_metrics_max_requests": true,
	"return_perf_metrics": true, "perf_metrics_output_dir": true, "context_servers": true,
	"generation_servers": true, "conditional_disagg_config": true, "otlp_config": true,
	"disagg_cluster": true, "node_id": true, "schedule_style": true, "allow_request_chat_template": true,
	"gen_strip_message_history": true, "gen_tokids_ctxbytes": true, "num_workers": true,
	"disagg_coordinator_url": true,
}

// Disagg is a trtllm-serve disaggregated -c YAML, split into what each role's
// workers receive.
type Disagg struct {
	File string
	// Roles maps "context" and "generation" to that role's LLM args.
	Roles map[string]*Overlay
	// Inherited lists, per role, the top-level keys copied into its section.
	Inherited map[string][]string
	// TopLevel lists the top-level keys TensorRT-LLM copies into both sections,
	// whether or not a section repeats them (a section that does must keep the
	// same value).
	TopLevel []string
	Warnings []string
	// Servers maps a role to what its section says about the servers: how
	// many, and their host:port when the orchestrator is only given addresses.
	Servers map[string]Servers
}

// Servers is a section's num_instances and urls (extract_ctx_gen_cfgs).
type Servers struct {
	// Instances is num_instances (1 when not written).
	Instances int
	// InstancesLine is where num_instances is written (0 when not).
	InstancesLine int
	// URLs are the section's urls, as written; Line is the urls key's line.
	URLs []string
	Line int
	// LLMArgs is true when the section (with what it inherits) sets
	// cache_transceiver_config: the one worker argument that decides a
	// transceiver.
	LLMArgs bool
}

// sectionKeys are the keys extract_ctx_gen_cfgs and the router config take
// from a section themselves; the rest are the workers' LLM args.
var sectionKeys = map[string]bool{"num_instances": true, "urls": true, "router": true}

// OrchestratorOnly reports whether the file only tells trtllm-serve
// disaggregated where its servers are (every section lists urls, and no
// cache_transceiver_config is written for them): the workers were started on their own, each with its own --config, and
// this file decides nothing about their transceivers.
func (d *Disagg) OrchestratorOnly() bool {
	if len(d.Servers) == 0 {
		return false
	}
	for _, role := range Roles() {
		s, ok := d.Servers[role]
		if !ok || len(s.URLs) == 0 || s.LLMArgs {
			return false
		}
	}
	return true
}

func (d *Disagg) readServers(role string, sec, merged *Node) {
	if d.Servers == nil {
		d.Servers = map[string]Servers{}
	}
	s := Servers{Instances: 1}
	if p, ok := sec.Get("num_instances"); ok && p.Val.Kind == KindInt && p.Val.Int.IsInt64() {
		s.Instances, s.InstancesLine = int(p.Val.Int.Int64()), p.KeyLine
	}
	if p, ok := sec.Get("urls"); ok && p.Val.Kind == KindSeq {
		s.Line = p.KeyLine
		for _, it := range p.Val.Items {
			if it.Kind == KindStr {
				s.URLs = append(s.URLs, it.Str)
			} else {
				s.URLs = append(s.URLs, it.Repr())
			}
		}
	}
	_, s.LLMArgs = merged.Get("cache_transceiver_config")
	d.Servers[role] = s
}

// ConflictError is TensorRT-LLM's refusal to start when a top-level key and a
// section set different values. Error() renders FILE:LINE: and the upstream
// message verbatim.
type ConflictError struct {
	File       string
	Key        string
	ServerType string // "context_servers" or "generation_servers"
	// TopLine and SectionLine are where the two values were written.
	TopLine, SectionLine   int
	TopValue, SectionValue string
}

// Message is TensorRT-LLM's exception, verbatim (it has no trailing full stop).
func (e *ConflictError) Message() string {
	return fmt.Sprintf("ValueError: Parameter %s is specified both in the top-level and in the %s section, but with different values", e.Key, e.ServerType)
}

// Error renders FILE:LINE: message, with both values for the operator.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s:%d: %s (top level line %d: %s; %s line %d: %s)", e.File, e.SectionLine, e.Message(),
		e.TopLine, e.TopValue, e.ServerType, e.SectionLine, e.SectionValue)
}

// ReadDisagg reads the orchestrator YAML and applies TensorRT-LLM's inheritance: any
// top-level key it does not consume is copied into context_servers and
// generation_servers, and a section that already sets the key to a different value
// (Python ==, so whole dicts are compared) stops start-up with *ConflictError.
// Validation problems inside cache_transceiver_config land in each role's
// Overlay.ConfigErrors.
func ReadDisagg(name string, data []byte) (*Disagg, error) {
	if err := ShellScript(name, data); err != nil {
		return nil, err
	}
	doc, err := ParseYAML(name, data)
	if err != nil {
		return nil, manifestHint(name, data, err)
	}
	if err := notWorker(name, doc.Root); err != nil {
		return nil, err
	}
	d, err := ReadDisaggNode(name, doc.Root)
	if err != nil {
		return nil, err
	}
	d.Warnings = append(doc.Warnings, d.Warnings...)
	return d, nil
}

// ReadDisaggNode is ReadDisagg on a document already parsed (one document of a
// multi-document file, or a ConfigMap value).
func ReadDisaggNode(name string, root *Node) (*Disagg, error) {
	d := &Disagg{File: name, Roles: map[string]*Overlay{}, Inherited: map[string][]string{}}
	if root == nil || root.Kind == KindNull {
		root = &Node{Kind: KindMap, Line: 1, Col: 1}
		d.Warnings = append(d.Warnings, name+": the file is empty; both roles get TensorRT-LLM's defaults (disaggregation off)")
	}
	if root.Kind != KindMap {
		return nil, &yamlpos.Error{File: name, Line: root.Line, Col: root.Col,
			Msg: "the disaggregated config must be a mapping with context_servers and generation_servers"}
	}
	sections := map[string]*Node{}
	for _, role := range Roles() {
		key := sectionOf(role)
		sec := &Node{Kind: KindMap, Line: root.Line, Col: root.Col}
		if p, ok := root.Get(key); ok {
			switch p.Val.Kind {
			case KindNull:
			case KindMap:
				// Copy the pairs so inheritance does not alter a shared (aliased) node.
				sec = &Node{Kind: KindMap, Line: p.Val.Line, Col: p.Val.Col, Pairs: append([]Pair(nil), p.Val.Pairs...)}
			default:
				return nil, &yamlpos.Error{File: name, Line: p.Val.Line, Col: p.Val.Col,
					Msg: fmt.Sprintf("%s must be a mapping, got %s", key, p.Val.TypeName())}
			}
		} else {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no %s section; TensorRT-LLM treats it as empty", name, key))
		}
		sections[role] = sec
	}
	// Same loop order as extract_disagg_cfg: each top-level key, then context
	// before generation, so the first conflict reported is the one it raises.
	// Index each section's own keys once: a section repeats a top-level key at
	// most once (the parser merged duplicates), so a lookup replaces the scan.
	secIndex := map[string]keyIndex{}
	for _, role := range Roles() {
		ix := keyIndex{}
		for i, q := range sections[role].Pairs {
			ix.add(q.Key, i)
		}
		secIndex[role] = ix
	}
	for _, p := range root.Pairs {
		if p.Key.Kind == KindStr && disaggTopLevel[p.Key.Str] {
			continue
		}
		d.TopLevel = append(d.TopLevel, p.KeyString())
		for _, role := range Roles() {
			sec := sections[role]
			found := false
			if i := secIndex[role].find(sec.Pairs, p.Key); i >= 0 {
				q := sec.Pairs[i]
				found = true
				if !PyEqual(q.Val, p.Val) {
					return nil, &ConflictError{File: name, Key: p.KeyString(), ServerType: sectionOf(role),
						TopLine: p.KeyLine, SectionLine: q.KeyLine, TopValue: p.Val.Repr(), SectionValue: q.Val.Repr()}
				}
			}
			if !found {
				sec.Pairs = append(sec.Pairs, p)
				d.Inherited[role] = append(d.Inherited[role], p.KeyString())
			}
		}
	}
	for _, role := range Roles() {
		ov := &Overlay{File: name}
		if err := ov.readLLMArgs(sections[role]); err != nil {
			return nil, err
		}
		ov.Static.Role = resolver.Field[string]{Value: role, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: name}}
		// The sections' keys are not checked against TorchLlmArgs' fields:
		// trtllm-serve's disaggregated MPI worker passes them through
		// get_llm_args, whose own parameters (free_gpu_memory_fraction, ...)
		// are accepted there too, and a file with urls is not read by the
		// workers at all.
		if p, ok := root.Get(sectionOf(role)); ok && p.Val.Kind == KindMap {
			d.readServers(role, p.Val, sections[role])
		}
		d.Roles[role] = ov
		d.Warnings = append(d.Warnings, ov.Warnings...)
	}
	return d, nil
}
