package deploy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"xcvr/internal/yamlpos"
)

// Limits on what xcvr agrees to read. Real worker and orchestrator YAMLs are a few
// kilobytes and nest a handful of levels; the limits only have to stop hostile or
// mistaken input (a checkpoint shard passed as --config, an alias bomb) quickly and
// in bounded memory.
const (
	// MaxFileBytes is the largest file any reader accepts.
	MaxFileBytes = 16 << 20
	// MaxDepth is the deepest nesting of mappings and sequences accepted.
	MaxDepth = 64
	// MaxNodes bounds the number of values a document expands to, counting every
	// alias as a full copy of its anchor (what PyYAML's consumers would walk).
	MaxNodes = 200_000
	// MaxEntries bounds the lines and flow-collection entries checked before
	// parsing: go-yaml builds a token list and tree for the whole file first, which
	// for a 16 MiB list costs seconds and gigabytes. Real configs have hundreds.
	MaxEntries = 50_000
	// MaxLineBytes bounds one line of YAML: go-yaml allocates dozens of bytes per
	// byte of a scalar, and no configuration value is this long.
	MaxLineBytes = 64 << 10
)

// ReadFile reads path, refusing files over MaxFileBytes before reading them whole.
// "-" is not special here; callers decide what stdin means.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes {
		return nil, tooBig(path, st.Size())
	}
	return ReadLimited(path, f)
}

// ReadLimited reads r to the end but never holds more than MaxFileBytes+1 bytes,
// so a pipe or a /proc file cannot make xcvr allocate without bound.
func ReadLimited(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooBig(name, int64(len(data)))
	}
	return data, nil
}

func tooBig(name string, n int64) error {
	more := ""
	if n > MaxFileBytes {
		more = "more than "
	}
	if n == MaxFileBytes+1 {
		n = MaxFileBytes
	}
	return &yamlpos.Error{File: name, Msg: fmt.Sprintf("refused: %s%.1f MiB is over the %d MiB limit; this is not a configuration file",
		more, float64(n)/(1<<20), MaxFileBytes>>20)}
}

// CheckText refuses data that cannot be a text configuration file: too large, NUL
// bytes or other control characters, or invalid UTF-8. The error names FILE:LINE:COL
// of the first bad byte. A UTF-8 byte-order mark is allowed (PyYAML skips it).
func CheckText(name string, data []byte) error {
	if len(data) > MaxFileBytes {
		return tooBig(name, int64(len(data)))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	line, col := 1, 1
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
				col = 1
				i++
				continue
			case c == 0:
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: "refused: binary data (NUL byte); this is not a text file"}
			case c < 0x20 && c != '\t' && c != '\r', c == 0x7f:
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("refused: control character 0x%02x; this is not a text file", c)}
			}
			i++
			col++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return &yamlpos.Error{File: name, Line: line, Col: col, Msg: "refused: invalid UTF-8; this is not a text file"}
		}
		i += size
		col++
	}
	return nil
}

// checkFlowDepth scans the raw text for flow collections ("[", "{") opened deeper
// than MaxDepth, and for more than MaxEntries lines and flow entries, before the
// YAML parser (which recurses once per level and tokenises the whole file) sees
// them.
// It is deliberately approximate: it skips comments and quoted scalars and counts
// only brackets that start a token, so it can over-count in odd plain scalars but
// never lets a deep "[[[[..." through.
func checkFlowDepth(name string, data []byte) error {
	depth := 0
	line, col := 1, 0
	prev := byte('\n')
	entries := 0
	tooMany := func() error {
		return &yamlpos.Error{File: name, Line: line, Col: max(col, 1), Msg: fmt.Sprintf("refused: more than %d lines or list entries; this is not a configuration file", MaxEntries)}
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		col++
		if col > MaxLineBytes {
			return &yamlpos.Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("refused: a line longer than %d KiB; this is not a configuration file", MaxLineBytes>>10)}
		}
		if c == '\n' {
			if entries++; entries > MaxEntries {
				return tooMany()
			}
			line++
			col = 0
			prev = c
			continue
		}
		tokenStart := prev == '\n' || prev == ' ' || prev == '\t' || prev == ':' || prev == ',' ||
			prev == '[' || prev == '{' || prev == '-' || prev == '?'
		switch {
		case c == '#' && (prev == '\n' || prev == ' ' || prev == '\t'):
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case (c == '"' || c == '\'') && tokenStart:
			// Skip the quoted scalar, honouring \" in double quotes and '' in single.
			for i+1 < len(data) {
				i++
				d := data[i]
				if d == '\n' {
					line++
					col = 0
				} else {
					col++
				}
				if c == '"' && d == '\\' && i+1 < len(data) {
					i++
					col++
					continue
				}
				if d == c {
					if c == '\'' && i+1 < len(data) && data[i+1] == '\'' {
						i++
						col++
						continue
					}
					break
				}
			}
		case (c == '[' || c == '{') && tokenStart:
			depth++
			if depth > MaxDepth {
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("refused: nested deeper than %d levels", MaxDepth)}
			}
		case (c == ']' || c == '}') && depth > 0:
			depth--
		case c == ',' && depth > 0:
			if entries++; entries > MaxEntries {
				return tooMany()
			}
		}
		prev = c
	}
	return nil
}
