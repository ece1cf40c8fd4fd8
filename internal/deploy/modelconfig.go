package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"xcvr/internal/guard"
	"xcvr/internal/yamlpos"
	"xcvr/models"
)

// ModelConfig is what TensorRT-LLM reads from a checkpoint's HF config.json to pick
// the model class (spec §6.3).
type ModelConfig struct {
	File string
	// Arch is architectures[0]; empty when the list is missing, null or empty, which
	// TensorRT-LLM treats as an unknown model.
	Arch string
	// Architectures is the whole list; entries after the first are ignored upstream.
	Architectures []string
	ModelType     string
	// Eagle3 is true when the config has draft_vocab_size (an Eagle3 draft
	// checkpoint); ExecArch is then "EAGLE3" + Arch without "Eagle3".
	Eagle3   bool
	ExecArch string
	// ArchLine is the line of the architectures key (0 when absent).
	ArchLine int
	// MLA is is_mla(config) (tensorrt_llm/_torch/pyexecutor/config_utils.py):
	// kv_lora_rank and qk_rope_head_dim both present and truthy.
	MLA   bool
	Notes []string
}

// ReadModelConfig parses config.json. Only the keys that decide the model class are
// interpreted; the rest of the file may be anything JSON allows.
func ReadModelConfig(name string, data []byte) (*ModelConfig, error) {
	bom := bytes.HasPrefix(data, []byte(guard.BOM))
	data, err := guard.Check(name, data, guard.JSONLimits())
	if err != nil {
		return nil, err
	}
	if err := jsonIntLimit(name, data); err != nil {
		return nil, err
	}
	data = pyJSONConstants(data)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonErr(name, data, err)
	}
	if top == nil {
		return nil, &yamlpos.Error{File: name, Line: 1, Msg: "config.json must be a JSON object"}
	}
	lines := topLevelKeyLines(data)
	mc := &ModelConfig{File: name, ArchLine: lines["architectures"]}
	if bom {
		// transformers reads config.json as UTF-8 text and calls json.loads, which
		// refuses a BOM; xcvr reads past it so the rest can still be checked.
		mc.Notes = append(mc.Notes, name+" starts with a UTF-8 byte-order mark: xcvr skips it, but json.loads (how transformers reads config.json) raises 'JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig)'; save the file without it")
	}
	if raw, ok := top["architectures"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &mc.Architectures); err != nil {
			return nil, &yamlpos.Error{File: name, Line: lines["architectures"], Msg: "architectures must be a list of class names (strings)"}
		}
	}
	if raw, ok := top["model_type"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &mc.ModelType); err != nil {
			return nil, &yamlpos.Error{File: name, Line: lines["model_type"], Msg: "model_type must be a string"}
		}
	}
	if raw, ok := top["draft_vocab_size"]; ok && !isNull(raw) {
		mc.Eagle3 = true
	}
	mc.MLA = jsonTruthy(top["kv_lora_rank"]) && jsonTruthy(top["qk_rope_head_dim"])
	if len(mc.Architectures) == 0 {
		where := "has no architectures"
		if mc.ArchLine > 0 {
			where = fmt.Sprintf("has an empty architectures list (line %d)", mc.ArchLine)
		}
		mc.Notes = append(mc.Notes, name+" "+where+": TensorRT-LLM resolves no model class, so there is no preference and its log says 'for unknown model', and then it cannot build the model")
		return mc, nil
	}
	mc.Arch = mc.Architectures[0]
	mc.ExecArch = mc.Arch
	if mc.Arch == "" {
		// No class is registered under '': TensorRT-LLM finds no model class, as
		// for a missing list, but this is almost certainly a broken file.
		mc.Notes = append(mc.Notes, fmt.Sprintf("%s:%d: architectures[0] is an empty string: no model class is registered under '', so TensorRT-LLM treats the model as unknown and cannot build it", name, mc.ArchLine))
		return mc, nil
	}
	if len(mc.Architectures) > 1 {
		mc.Notes = append(mc.Notes, fmt.Sprintf("%s:%d: only architectures[0] (%s) is used; %s ignored",
			name, mc.ArchLine, mc.Arch, strings.Join(mc.Architectures[1:], ", ")))
	}
	if mc.Eagle3 {
		// modeling_auto.py: a draft_vocab_size config is an Eagle3 draft and runs
		// as "EAGLE3" + the architecture without "Eagle3" (str.replace: every one).
		mc.ExecArch = "EAGLE3" + strings.ReplaceAll(mc.Arch, "Eagle3", "")
	}
	return mc, nil
}

// ModelKey is the architecture name to resolve the preference with, and a note
// saying why. The preference comes from the class registered for architectures[0]
// when there is one (MODEL_CLASS_MAPPING.get(architectures[0], model_cls)); only
// otherwise from the class actually executed, such as the Eagle3 rename.
func (mc *ModelConfig) ModelKey(cat *models.Catalog) (string, string) {
	if mc.Arch == "" {
		return "", ""
	}
	if mc.ExecArch == mc.Arch {
		return mc.Arch, ""
	}
	if _, ok := cat.Get(mc.Arch); ok {
		return mc.Arch, fmt.Sprintf("Eagle3 draft (draft_vocab_size): runs as %s, but the preference comes from %s, the class registered for architectures[0]", mc.ExecArch, mc.Arch)
	}
	return mc.ExecArch, fmt.Sprintf("Eagle3 draft (draft_vocab_size): %s is renamed %s and the preference is that class's", mc.Arch, mc.ExecArch)
}

// jsonIntLimit refuses what json.loads refuses: an integer literal with more than
// PyMaxStrDigits digits (int() raises ValueError; floats have no such limit).
func jsonIntLimit(name string, data []byte) error {
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c >= '0' && c <= '9':
			if i > 0 && (data[i-1] == '.' || data[i-1] == 'e' || data[i-1] == 'E' ||
				((data[i-1] == '+' || data[i-1] == '-') && i > 1 && (data[i-2] == 'e' || data[i-2] == 'E'))) {
				// A fraction or an exponent: float() has no digit limit.
				for i+1 < len(data) && data[i+1] >= '0' && data[i+1] <= '9' {
					i++
				}
				continue
			}
			j := i
			for j < len(data) && data[j] >= '0' && data[j] <= '9' {
				j++
			}
			if j-i > PyMaxStrDigits && (j == len(data) || (data[j] != '.' && data[j] != 'e' && data[j] != 'E')) {
				l, col := lineCol(data, int64(i))
				return &yamlpos.Error{File: name, Line: l, Col: col, Msg: PyIntLimitError(j - i)}
			}
			i = j - 1
		}
	}
	return nil
}

// pyJSONConstants returns data with the constants json.loads takes beyond JSON
// (NaN, Infinity, -Infinity) written as numbers of the same length and truth
// value (1.0, 1e000000, -1e000000), so that encoding/json reads a config.json
// transformers reads: _dict_from_json_file is json.loads(text), and a
// transformers before the {"__float__": ...} tags (2025) saved an infinite or
// NaN attribute bare. Positions and lines stay those of the file. data is
// copied only when it holds one.
func pyJSONConstants(data []byte) []byte {
	out := data
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		case c == '"':
			inStr = true
			continue
		}
		var from, to string
		switch {
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			from, to = "NaN", "1.0"
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			from, to = "Infinity", "1e000000"
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			from, to = "-Infinity", "-1e000000"
		default:
			continue
		}
		if &out[0] == &data[0] {
			out = bytes.Clone(data)
		}
		copy(out[i:], to)
		i += len(from) - 1
	}
	return out
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// jsonErr positions a JSON decoding error at FILE:LINE:COL.
func jsonErr(name string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read up to and including the one refused;
		// at the end of the input, nothing was refused and the position is
		// just past the last byte (where json.loads puts it too).
		off = se.Offset - 1
		if se.Offset >= int64(len(data)) && strings.HasPrefix(se.Error(), "unexpected end of JSON input") {
			off = se.Offset
		}
		// A literal that goes wrong (nan, tru) is refused where it stops
		// spelling true, false or null; json.loads names where it starts.
		if strings.Contains(se.Error(), " in literal ") {
			for off > 0 && off <= int64(len(data)) && isLetter(data[off-1]) {
				off--
			}
		}
	case errors.As(err, &te):
		// Only the top-level value is decoded into a type (a map): the error
		// is that value's, so it points where the value starts.
		off = int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
		msg = "config.json must be a JSON object, not " + te.Value
	}
	e := &yamlpos.Error{File: name, Msg: msg}
	if off >= 0 {
		e.Line, e.Col = lineCol(data, off)
	}
	return e
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// topLevelKeyLines returns the line of each top-level key (the last occurrence,
// which is the one Python's json keeps). data is valid JSON (json.Unmarshal
// accepted it), so one pass over the bytes that tracks strings and depth is enough:
// a token decoder costs an allocation per value, seconds on a 16 MiB file.
func topLevelKeyLines(data []byte) map[string]int {
	out := map[string]int{}
	depth, line := 0, 1
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '{':
			depth++
			expectKey = depth == 1
		case '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		case '"':
			start, startLine := i, line
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if depth == 1 && expectKey {
				var key string
				if err := json.Unmarshal(data[start:i+1], &key); err == nil {
					out[key] = startLine
				}
				expectKey = false
			}
		}
	}
	return out
}

// jsonTruthy is Python's truth value of a JSON value as json.loads reads it:
// false for a missing key, null, false, 0, "", [] and {}.
func jsonTruthy(raw json.RawMessage) bool {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}
