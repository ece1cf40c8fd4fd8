package deploy

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"xcvr/resolver"
)

// PyTruncate is resolver.PyTruncate: how pydantic prints a long input_value.
func PyTruncate(s string) string { return resolver.PyTruncate(s) }

// pyBytesRepr renders b as Python's bytes repr: b'...' (or b"..." when the bytes
// hold a single quote and no double quote), with \t \n \r \\ and \xhh escapes.
func pyBytesRepr(b string) string {
	q := byte('\'')
	if strings.IndexByte(b, '\'') >= 0 && strings.IndexByte(b, '"') < 0 {
		q = '"'
	}
	var sb strings.Builder
	sb.WriteString("b")
	sb.WriteByte(q)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == q || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&sb, `\x%02x`, c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte(q)
	return sb.String()
}

// PyYAML's timestamp regexp (constructor.py), with its named groups.
var reTimestamp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$`)
})

// pyTimestamp constructs a timestamp as SafeConstructor.construct_yaml_timestamp
// does and returns its Python repr (datetime.date(2001, 12, 14) or
// datetime.datetime(…)), or the exception PyYAML would raise.
func pyTimestamp(s string) (repr string, isDateTime bool, err error) {
	m := reTimestamp().FindStringSubmatch(s)
	if m == nil {
		return "", false, fmt.Errorf("AttributeError: 'NoneType' object has no attribute 'groupdict'")
	}
	year, _ := strconv.Atoi(m[1])
	month, _ := strconv.Atoi(m[2])
	day, _ := strconv.Atoi(m[3])
	if err := pyCheckDate(year, month, day); err != nil {
		return "", false, err
	}
	if m[4] == "" {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", year, month, day), false, nil
	}
	hour, _ := strconv.Atoi(m[4])
	minute, _ := strconv.Atoi(m[5])
	second, _ := strconv.Atoi(m[6])
	frac := 0
	if f := m[7]; f != "" {
		if len(f) > 6 {
			f = f[:6]
		}
		f += strings.Repeat("0", 6-len(f))
		frac, _ = strconv.Atoi(f)
	}
	switch {
	case hour > 23:
		return "", false, fmt.Errorf("ValueError: hour must be in 0..23")
	case minute > 59:
		return "", false, fmt.Errorf("ValueError: minute must be in 0..59")
	case second > 59:
		return "", false, fmt.Errorf("ValueError: second must be in 0..59")
	}
	parts := []int{year, month, day, hour, minute, second, frac}
	switch {
	case frac != 0:
	case second != 0:
		parts = parts[:6]
	default:
		parts = parts[:5]
	}
	var b strings.Builder
	b.WriteString("datetime.datetime(")
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(p))
	}
	switch {
	case m[9] != "":
		th, _ := strconv.Atoi(m[10])
		tm, _ := strconv.Atoi(m[11])
		secs := th*3600 + tm*60
		if m[9] == "-" {
			secs = -secs
		}
		if secs <= -86400 || secs >= 86400 {
			return "", false, fmt.Errorf("ValueError: offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not %s.", pyTimedelta(secs))
		}
		if secs == 0 {
			b.WriteString(", tzinfo=datetime.timezone.utc")
		} else {
			b.WriteString(", tzinfo=datetime.timezone(" + pyTimedelta(secs) + ")")
		}
	case m[8] != "":
		b.WriteString(", tzinfo=datetime.timezone.utc")
	}
	b.WriteString(")")
	return b.String(), true, nil
}

// pyTimedelta is repr(datetime.timedelta(seconds=secs)) for |secs| < 2 days.
func pyTimedelta(secs int) string {
	days := 0
	for secs < 0 {
		secs += 86400
		days--
	}
	for secs >= 86400 {
		secs -= 86400
		days++
	}
	switch {
	case days != 0 && secs != 0:
		return fmt.Sprintf("datetime.timedelta(days=%d, seconds=%d)", days, secs)
	case days != 0:
		return fmt.Sprintf("datetime.timedelta(days=%d)", days)
	case secs != 0:
		return fmt.Sprintf("datetime.timedelta(seconds=%d)", secs)
	}
	return "datetime.timedelta(0)"
}

// pyCheckDate is datetime.date's range check, with CPython's messages.
func pyCheckDate(year, month, day int) error {
	switch {
	case year < 1:
		return fmt.Errorf("ValueError: year %d is out of range", year)
	case month < 1 || month > 12:
		return fmt.Errorf("ValueError: month must be in 1..12")
	}
	last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if day < 1 || day > last {
		return fmt.Errorf("ValueError: day is out of range for month")
	}
	return nil
}

// pyDateRepr is the repr of a KindDate node (its text was matched by the
// implicit timestamp resolver, or carries !!timestamp).
func (n *Node) pyDateRepr() string {
	r, _, err := pyTimestamp(n.Str)
	if err != nil {
		return PyRepr(n.Str)
	}
	return r
}

// construct applies the constructor of an explicit standard tag to a scalar's
// text, as SafeConstructor does (construct_yaml_int, _float, _bool, _null, _str,
// _binary, _timestamp). It returns the Python exception line when PyYAML would
// raise.
func constructTagged(tag, text string) (*Node, string) {
	switch tag {
	case "!!null":
		return &Node{Kind: KindNull}, ""
	case "!!str":
		return &Node{Kind: KindStr, Str: text}, ""
	case "!!bool":
		switch strings.ToLower(text) {
		case "yes", "true", "on":
			return &Node{Kind: KindBool, Bool: true}, ""
		case "no", "false", "off":
			return &Node{Kind: KindBool}, ""
		}
		return nil, "KeyError: " + PyRepr(strings.ToLower(text))
	case "!!int":
		return constructInt(text)
	case "!!float":
		return constructFloat(text)
	case "!!binary":
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				return nil, "yaml.constructor.ConstructorError: failed to convert base64 data into ascii"
			}
		}
		// base64.decodebytes skips every character outside the alphabet
		// before decoding (binascii's non-strict mode).
		var clean []byte
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' {
				clean = append(clean, c)
			}
		}
		data, exc := pyB64Decode(clean)
		if exc != "" {
			return nil, "yaml.constructor.ConstructorError: failed to decode base64 data: " + exc
		}
		return &Node{Kind: KindBytes, Str: string(data)}, ""
	case "!!timestamp":
		r, _, err := pyTimestamp(text)
		if err != nil {
			return nil, err.Error()
		}
		_ = r
		return &Node{Kind: KindDate, Str: text}, ""
	}
	return nil, ""
}

// pyB64Decode is binascii.a2b_base64 in non-strict mode (CPython 3.11/3.12)
// on the alphabet's characters: a pad ends the data once a quad has two data
// characters, other pads are skipped; a quad left with one data character, or
// two or three without their pads, is an error, whose text it returns.
func pyB64Decode(clean []byte) ([]byte, string) {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []byte
	quad, pads := 0, 0
	var left byte
	for _, c := range clean {
		if c == '=' {
			if quad >= 2 {
				if pads++; quad+pads >= 4 {
					return out, ""
				}
			}
			continue
		}
		v := byte(strings.IndexByte(alpha, c))
		pads = 0
		switch quad {
		case 0:
			quad, left = 1, v
		case 1:
			quad = 2
			out = append(out, left<<2|v>>4)
			left = v & 0x0f
		case 2:
			quad = 3
			out = append(out, left<<4|v>>2)
			left = v & 0x03
		case 3:
			quad = 0
			out = append(out, left<<6|v)
			left = 0
		}
	}
	switch quad {
	case 0:
		return out, ""
	case 1:
		return nil, fmt.Sprintf("Invalid base64-encoded string: number of data characters (%d) cannot be 1 more than a multiple of 4", len(out)/3*4+1)
	}
	return nil, "Incorrect padding"
}

// constructInt is SafeConstructor.construct_yaml_int on an explicit !!int.
func constructInt(text string) (*Node, string) {
	v := strings.ReplaceAll(text, "_", "")
	if v == "" {
		return nil, "IndexError: string index out of range"
	}
	neg := v[0] == '-'
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	n := new(big.Int)
	bad := func(base int, s string) (*Node, string) {
		return nil, fmt.Sprintf("ValueError: invalid literal for int() with base %d: %s", base, PyRepr(s))
	}
	parse := func(s string, base int) bool {
		// int() reads any Unicode decimal digit and strips any Unicode
		// whitespace, and, for bases 2, 8 and 16, takes the base's own
		// prefix (int('0o12', 8) is 10).
		t := strings.TrimSpace(pyDecimalASCII(s))
		prefix := map[int]string{2: "0b", 8: "0o", 16: "0x"}[base]
		if p := strings.TrimLeft(t, "+-"); prefix != "" && len(p) > 2 && strings.EqualFold(p[:2], prefix) {
			t = t[:len(t)-len(p)] + p[2:]
		}
		if t == "" || t[0] == '+' || t[0] == '-' {
			if t != "" && len(t) > 1 {
				_, ok := n.SetString(t, base)
				return ok
			}
			return false
		}
		_, ok := n.SetString(t, base)
		return ok
	}
	switch {
	case v == "0":
	case strings.HasPrefix(v, "0b"):
		if !parse(v[2:], 2) {
			return bad(2, v[2:])
		}
	case strings.HasPrefix(v, "0x"):
		if !parse(v[2:], 16) {
			return bad(16, v[2:])
		}
	case v == "":
		return nil, "IndexError: string index out of range"
	case v[0] == '0':
		if !parse(v, 8) {
			return bad(8, v)
		}
	case strings.Contains(v, ":"):
		for _, part := range strings.Split(v, ":") {
			d, ok := new(big.Int).SetString(strings.TrimSpace(pyDecimalASCII(part)), 10)
			if !ok {
				return bad(10, part)
			}
			n.Mul(n, big.NewInt(60))
			n.Add(n, d)
		}
	default:
		if digits := len(strings.TrimSpace(pyDecimalASCII(v))); digits > PyMaxStrDigits {
			return nil, PyIntLimitError(digits)
		}
		if !parse(v, 10) {
			return bad(10, v)
		}
	}
	if neg {
		n.Neg(n)
	}
	return &Node{Kind: KindInt, Int: n}, ""
}

// constructFloat is SafeConstructor.construct_yaml_float on an explicit !!float.
func constructFloat(text string) (*Node, string) {
	v := strings.ToLower(strings.ReplaceAll(text, "_", ""))
	sign := 1.0
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	switch {
	case v == ".inf":
		return &Node{Kind: KindFloat, Float: sign * math.Inf(1)}, ""
	case v == ".nan":
		return &Node{Kind: KindFloat, Float: math.NaN()}, ""
	case strings.Contains(v, ":"):
		f, base := 0.0, 1.0
		parts := strings.Split(v, ":")
		for i := len(parts) - 1; i >= 0; i-- {
			d, ok := pyFloatLiteral(parts[i])
			if !ok {
				return nil, "ValueError: could not convert string to float: " + PyRepr(parts[i])
			}
			f += d * base
			base *= 60
		}
		return &Node{Kind: KindFloat, Float: sign * f}, ""
	}
	f, ok := pyFloatLiteral(v)
	if !ok {
		return nil, "ValueError: could not convert string to float: " + PyRepr(v)
	}
	return &Node{Kind: KindFloat, Float: sign * f}, ""
}

var reFloatLit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[-+]?[0-9]+)?$`)
})

// pyFloatLiteral is Python's float() on already lower-cased text: decimal and
// exponent forms, inf, infinity and nan, surrounding whitespace allowed.
func pyFloatLiteral(s string) (float64, bool) {
	t := strings.TrimSpace(pyDecimalASCII(s))
	switch strings.TrimLeft(t, "+-") {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		if len(t)-len(strings.TrimLeft(t, "+-")) > 1 {
			return 0, false
		}
		return math.Inf(1), true
	case "nan":
		if len(t)-len(strings.TrimLeft(t, "+-")) > 1 {
			return 0, false
		}
		return math.NaN(), true
	}
	if !reFloatLit().MatchString(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

// pyDecimalASCII is what int() and float() do to a str before parsing it
// (_PyUnicode_TransformDecimalAndSpaceToASCII): each Unicode decimal digit
// (category Nd) becomes its ASCII digit and each whitespace character a
// space; other characters are kept (and make the literal invalid).
func pyDecimalASCII(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || (s[i] >= 0x1c && s[i] <= 0x1f) {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && (r < 0x1c || r > 0x1f):
			b.WriteRune(r)
		case unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + pyDigitValue(r)))
		case unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f):
			// str.isspace(): category Zs or bidirectional class WS, B or S,
			// which adds the information separators U+001C..U+001F.
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyDigitValue is the decimal value of an Nd character: Unicode places them
// in contiguous runs of whole 0..9 sequences, so it is the distance from the
// start of its run, modulo 10.
func pyDigitValue(r rune) int {
	start := r
	for unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}
