package guard

import (
	"fmt"

	"xcvr/internal/yamlpos"
)

// YAML scans raw YAML text, before any parser sees it, for nesting deeper than
// lim.MaxDepth and for more than lim.MaxEntries lines plus flow entries. go-yaml
// tokenises the whole file and recurses once per level, so a 60 KB file of "- - -
// …" or "[[[…" would cost seconds and gigabytes before a depth check on its tree
// could run.
//
// Depth counts flow collections ("[", "{") and block collections: each line's
// indentation is compared with the lines above it (as the YAML scanner's indent
// stack does), and every compact "- " or "? " indicator on a line, and a "key:"
// after them, opens one more level. Lines of block scalars ("|", ">"), of
// multi-line quoted scalars and of flow collections are not structure and are
// skipped. The scan is deliberately approximate where YAML is ambiguous without a
// full parse (it can over-count odd plain scalars by a level) but it never lets a
// deep document through, and it is linear in the input.
func YAML(name string, data []byte, lim Limits) error {
	s := yamlScan{name: name, data: StripBOM(data), lim: lim, line: 1}
	return s.run()
}

type level struct{ col, n int }

type yamlScan struct {
	name  string
	data  []byte
	lim   Limits
	line  int
	col   int
	flow  int
	count int
	// cost sums, over every entry, the entries before it in its collection.
	cost int
	// indents holds the enclosing block collections: their columns and how many
	// entries (keys or items) each has had so far.
	indents []level
	// block is true inside a block scalar whose parent line is indented blockInd.
	block    bool
	blockInd int
}

func (s *yamlScan) errAt(col int, format string, args ...any) error {
	return &yamlpos.Error{File: s.name, Line: s.line, Col: max(col, 1), Msg: fmt.Sprintf(format, args...)}
}

func (s *yamlScan) entry() error {
	s.count++
	if s.lim.MaxEntries > 0 && s.count > s.lim.MaxEntries {
		return s.errAt(s.col, "refused: more than %d lines or list entries; this is not a configuration file", s.lim.MaxEntries)
	}
	return nil
}

func (s *yamlScan) tooDeep(col int) error {
	return s.errAt(col, "refused: nested deeper than %d levels", s.lim.MaxDepth)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// lineStart handles the block structure of the line starting at i; it returns the
// index to continue scanning from (the end of the line when the line is skipped).
func (s *yamlScan) lineStart(i int) (int, error) {
	d := s.data
	ind := 0
	for i+ind < len(d) && d[i+ind] == ' ' {
		ind++
	}
	j := i + ind
	end := j
	for end < len(d) && d[end] != '\n' {
		end++
	}
	blank := j >= len(d) || d[j] == '\n' || d[j] == '\r' || d[j] == '#'
	if s.block {
		if blank || ind > s.blockInd {
			return end, nil
		}
		s.block = false
	}
	if blank || s.flow > 0 {
		return i, nil
	}
	if ind == 0 && end-j >= 3 && (string(d[j:j+3]) == "---" || string(d[j:j+3]) == "...") && (end-j == 3 || isBlank(d[j+3])) {
		s.indents = s.indents[:0]
		return i, nil
	}
	// Compact indicators: "- - - x", "? - x", "- key: v".
	k := j
	var buf [16]int
	opens := buf[:0] // columns where this line opens or continues a collection
	for k < end && (d[k] == '-' || d[k] == '?') && (k+1 == len(d) || isBlank(d[k+1])) {
		if s.lim.MaxDepth > 0 && len(opens) > s.lim.MaxDepth {
			return 0, s.tooDeep(k - i + 1)
		}
		opens = append(opens, k-i)
		k++
		for k < end && (d[k] == ' ' || d[k] == '\t') {
			k++
		}
	}
	// Does the rest start a mapping entry ("key:" followed by a blank)? Only the
	// part before a comment counts; quotes are not tracked here, which at worst
	// counts one level too many.
	content := k
	stop := end
	for p := k; p < end; p++ {
		if d[p] == '#' && p > k && (d[p-1] == ' ' || d[p-1] == '\t') {
			stop = p
			break
		}
	}
	for stop > k && isBlank(d[stop-1]) {
		stop--
	}
	for p := k; p < stop; p++ {
		if d[p] == ':' && (p+1 == stop || d[p+1] == ' ' || d[p+1] == '\t') {
			opens = append(opens, content-i)
			break
		}
		if d[p] == '[' || d[p] == '{' || d[p] == '"' || d[p] == '\'' {
			break
		}
	}
	if len(opens) > 0 {
		// The first collection on the line starts at its indentation: an entry of
		// the collection already open at that column, or a new one.
		for len(s.indents) > 0 && s.indents[len(s.indents)-1].col > ind {
			s.indents = s.indents[:len(s.indents)-1]
		}
		if top := len(s.indents) - 1; top >= 0 && s.indents[top].col == ind {
			s.indents[top].n++
			n := s.indents[top].n
			if s.lim.MaxKeys > 0 && n > s.lim.MaxKeys {
				return 0, s.errAt(ind+1, "refused: more than %d entries in one block mapping or list; this is not a configuration file", s.lim.MaxKeys)
			}
			// The parser's cost is the sum of the squares of the mappings'
			// sizes: bound that too, or ten mappings of 5,000 keys cost ten times
			// one.
			s.cost += n
			if s.lim.MaxKeys > 0 && s.cost > s.lim.MaxKeys*(s.lim.MaxKeys+1)/2 {
				return 0, s.errAt(ind+1, "refused: too many keys in block mappings in all (as costly to parse as one mapping of more than %d); this is not a configuration file", s.lim.MaxKeys)
			}
		} else {
			s.indents = append(s.indents, level{col: ind, n: 1})
		}
		for _, col := range opens[1:] {
			s.indents = append(s.indents, level{col: col, n: 1})
		}
		if s.lim.MaxDepth > 0 && len(s.indents) > s.lim.MaxDepth {
			return 0, s.tooDeep(opens[len(opens)-1] + 1)
		}
	}
	// A block scalar header ("key: |", "- >-", "|2+") ends the line: the lines
	// indented deeper than this one are its text.
	if stop > j {
		p := stop - 1
		for p > j && (d[p] == '+' || d[p] == '-' || (d[p] >= '1' && d[p] <= '9')) {
			p--
		}
		if (d[p] == '|' || d[p] == '>') && (p == j || d[p-1] == ' ' || d[p-1] == '\t') {
			s.block, s.blockInd = true, ind
		}
	}
	return i, nil
}

func (s *yamlScan) run() error {
	d := s.data
	prev := byte('\n')
	s.col = 0
	for i := 0; i < len(d); i++ {
		if prev == '\n' {
			next, err := s.lineStart(i)
			if err != nil {
				return err
			}
			if next > i {
				// A skipped line (block scalar text): jump to its newline.
				s.col += next - i
				i = next
				if i >= len(d) {
					break
				}
			}
		}
		c := d[i]
		s.col++
		if c == '\n' {
			if err := s.entry(); err != nil {
				return err
			}
			s.line++
			s.col = 0
			prev = c
			continue
		}
		tokenStart := prev == '\n' || prev == ' ' || prev == '\t' || prev == ':' || prev == ',' ||
			prev == '[' || prev == '{' || prev == '-' || prev == '?'
		switch {
		case c == '#' && (prev == '\n' || prev == ' ' || prev == '\t'):
			for i+1 < len(d) && d[i+1] != '\n' {
				i++
				s.col++
			}
		case (c == '"' || c == '\'') && tokenStart:
			// Skip the quoted scalar, honouring \" in double quotes and '' in
			// single; its lines still count.
			for i+1 < len(d) {
				i++
				e := d[i]
				s.col++
				if e == '\n' {
					if err := s.entry(); err != nil {
						return err
					}
					s.line++
					s.col = 0
					continue
				}
				if c == '"' && e == '\\' && i+1 < len(d) && d[i+1] != '\n' {
					i++
					s.col++
					continue
				}
				if e == c {
					if c == '\'' && i+1 < len(d) && d[i+1] == '\'' {
						i++
						s.col++
						continue
					}
					break
				}
			}
		case (c == '[' || c == '{') && tokenStart:
			s.flow++
			if s.lim.MaxDepth > 0 && s.flow+len(s.indents) > s.lim.MaxDepth {
				return s.tooDeep(s.col)
			}
		case (c == ']' || c == '}') && s.flow > 0:
			s.flow--
		case c == ',' && s.flow > 0:
			if err := s.entry(); err != nil {
				return err
			}
		}
		prev = c
	}
	return nil
}
