package resolver

import "unicode/utf8"

// PyTruncate shortens a repr the way pydantic-core prints an error's
// input_value: a repr longer than 50 bytes keeps its first 25 and last 24 bytes
// (moved to UTF-8 boundaries) around "...", e.g. {'backend': 'NIXL',
// 'agen...ce_buffer_enable': True}. Checked against pydantic 2.13.
func PyTruncate(s string) string {
	if len(s) <= 50 {
		return s
	}
	head := 25
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - 24
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "..." + s[tail:]
}
