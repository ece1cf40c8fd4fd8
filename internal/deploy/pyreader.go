package deploy

import (
	"fmt"
	"unicode/utf8"

	"xcvr/internal/termsafe"
	"xcvr/internal/yamlpos"
)

// pyReaderError is the ReaderError PyYAML's Reader (yaml/reader.py) raises
// before scanning, or nil: a character outside tab, LF, CR, printable ASCII,
// NEL and the printable Unicode planes. bom says the file started with a byte
// order mark (the guard has dropped it; Python's position counts it).
func pyReaderError(name string, data []byte, bom bool) error {
	line, start, pos := 1, 0, 0
	if bom {
		pos = 1
	}
	for i, r := range string(data) {
		ok := r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0x7e) || r == 0x85 ||
			(r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd) || (r >= 0x10000 && r <= 0x10ffff)
		if r == utf8.RuneError {
			_, size := utf8.DecodeRune(data[i:])
			ok = size == 3 // a real U+FFFD; a byte that is not UTF-8 the guard refuses first
		}
		if !ok {
			return termsafe.MultilineError{Err: &yamlpos.Error{File: termsafe.Line(name), Line: line, Col: utf8.RuneCount(data[start:i]) + 1,
				Msg: fmt.Sprintf("yaml.reader.ReaderError: unacceptable character #x%04x: special characters are not allowed\n  in \"%s\", position %d",
					r, termsafe.Line(name), pos)}}
		}
		if r == '\n' {
			line, start = line+1, i+len("\n")
		}
		pos++
	}
	return nil
}
