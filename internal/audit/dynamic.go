package audit

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/deploy"
)

// Dynamo's dynamic engine flags (ai-dynamo/dynamo components/src/dynamo/trtllm,
// verified: dynamic_flags.py @97d80223, args.py @0a6a115c): dynamo.trtllm
// takes `--trtllm.<key>.<subkey> <value>` words its own parser does not know,
// builds a nested dict of them (set_nested, a later flag winning) and passes
// it as --override-engine-args' JSON, laid over the engine args with
// deep_update, --extra-engine-args or not. Dynamo's profiler writes them into
// the deployments it generates (aiconfigurator: "accepted by dynamo >=
// 1.1.0"), and Dynamo's docs run `python3 -m dynamo.trtllm ...
// --trtllm.kv_cache_config.enable_block_reuse true`.

// dynamicPrefix is DYNAMIC_FLAG_PREFIX.
const dynamicPrefix = "--trtllm."

// dynFlag is one --trtllm.* flag: its word and value as written.
type dynFlag struct {
	flag, value string
}

// dynamicNode builds the dict parse_dynamic_flags builds from the flags, each
// value typed by infer_type; every node's line is overrideLine plus the index
// of the flag that set it, so its origin names the flag. why is dynamo.trtllm's
// refusal when the flags make it exit, "" otherwise.
func dynamicNode(flags []dynFlag) (root *deploy.Node, why string) {
	root = &deploy.Node{Kind: deploy.KindMap, Line: overrideLine}
	for i, f := range flags {
		keys := strings.Split(strings.TrimPrefix(f.flag, dynamicPrefix), ".")
		for _, k := range keys {
			if k == "" {
				return nil, "Invalid dynamic flag (empty key segment): " + f.flag
			}
		}
		line := overrideLine + i
		d := root
		for _, k := range keys[:len(keys)-1] {
			// set_nested: d = d.setdefault(key, {}).
			p, ok := d.Get(k)
			if !ok {
				next := &deploy.Node{Kind: deploy.KindMap, Line: line}
				d.Pairs = append(d.Pairs, deploy.Pair{Key: &deploy.Node{Kind: deploy.KindStr, Str: k, Line: line}, Val: next, KeyLine: line})
				d = next
				continue
			}
			if p.Val.Kind != deploy.KindMap {
				// setdefault returns the value an earlier flag set,
				// which is no dict: set_nested raises on it.
				return nil, "set_nested raises on " + f.flag + ": an earlier --trtllm flag set " + k + " to a value (" + p.Val.TypeName() + "), not a dict"
			}
			d = p.Val
		}
		v := inferType(f.value)
		v.Line = line
		last := keys[len(keys)-1]
		set := false
		for j := range d.Pairs {
			if d.Pairs[j].KeyString() == last {
				// d[key] = value: the dict keeps the key's first place.
				d.Pairs[j].Val, d.Pairs[j].KeyLine = v, line
				set = true
			}
		}
		if !set {
			d.Pairs = append(d.Pairs, deploy.Pair{Key: &deploy.Node{Kind: deploy.KindStr, Str: last, Line: line}, Val: v, KeyLine: line})
		}
	}
	return root, ""
}

// Python's int() and float() texts, compiled on first use (not at start-up).
var (
	pyIntText   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?[0-9](?:_?[0-9])*$`) })
	pyFloatText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$`)
	})
	pyFloatWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)[+-]?(?:inf|infinity|nan)$`) })
)

// inferType is dynamic_flags.infer_type: Python's int(value), else
// float(value), else "true"/"false" in any case, else the string (int and
// float strip blanks and take _ between digits, as Python's do).
func inferType(s string) *deploy.Node {
	t := strings.TrimSpace(s)
	if pyIntText().MatchString(t) {
		n, ok := new(big.Int).SetString(strings.ReplaceAll(t, "_", ""), 10)
		if ok {
			return &deploy.Node{Kind: deploy.KindInt, Int: n}
		}
	}
	if pyFloatWord().MatchString(t) {
		f := math.Inf(1)
		if strings.Contains(strings.ToLower(t), "nan") {
			f = math.NaN()
		} else if t[0] == '-' {
			f = math.Inf(-1)
		}
		return &deploy.Node{Kind: deploy.KindFloat, Float: f}
	}
	if pyFloatText().MatchString(t) {
		f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
		if err == nil || strings.Contains(err.Error(), "range") {
			// Out of range: Python's float gives ±inf or 0.0, as ParseFloat.
			return &deploy.Node{Kind: deploy.KindFloat, Float: f}
		}
	}
	switch strings.ToLower(s) {
	case "true":
		return &deploy.Node{Kind: deploy.KindBool, Bool: true}
	case "false":
		return &deploy.Node{Kind: deploy.KindBool, Bool: false}
	}
	return &deploy.Node{Kind: deploy.KindStr, Str: s}
}
