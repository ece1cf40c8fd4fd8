package logs

import "strings"

// A traceback's frame line that a terminal or a paste wrapped inside its
// path: `  File "/usr/local/lib/python3.12/dist-packages/tensorrt_` over
// `llm/_torch/pyexecutor/py_executor.py", line 290, in __init__`. Python
// prints a frame whole on one line (`File "PATH", line N, in NAME`,
// traceback.FrameSummary's format), so a frame line whose path's quote
// never closes was cut by a wrap, and the line right under it that closes
// the path and goes on with `", line N, in ` is its rest. Joined, the path
// says whether the frame is in TensorRT-LLM's package (trtllmFrame).

// frameHeadKeep is how many bytes of a wrapped frame's head are kept: enough
// to find "tensorrt_llm/" across the wrap however it cut the name.
const frameHeadKeep = len("tensorrt_llm/") - 1

// wrappedFrameHead returns the end of a bare line's path when the line is a
// frame whose path does not close (ok false otherwise).
func wrappedFrameHead[T string | []byte](tm T) (tail T, ok bool) {
	const f = `File "`
	if len(tm) <= len(f) || tm[0] != 'F' || string(tm[:len(f)]) != f {
		return tm[:0], false
	}
	path := tm[len(f):]
	for i := 0; i < len(path); i++ {
		if path[i] == '"' || path[i] == ' ' {
			return tm[:0], false
		}
	}
	return path[max(0, len(path)-frameHeadKeep):], true
}

// wrappedFrameTail reports whether t, the line under a frame whose path did
// not close and ended with head, is the rest of that frame, and the frame's
// path, joined, is in TensorRT-LLM's package.
func wrappedFrameTail(head, t string) bool {
	i := strings.Index(t, `", line `)
	if i <= 0 || strings.ContainsAny(t[:i], " \t\"") || !strings.Contains(t[i:], ", in ") {
		return false
	}
	j := i + len(`", line `)
	if j >= len(t) || !isDigit(t[j]) {
		return false
	}
	return strings.Contains(head+t[:i], "tensorrt_llm/")
}

// wrappedFrame reads a bare line for a frame wrapped inside its path: the
// line under a frame whose path did not close (the line before, n-1)
// completes it. Every line the state is handed is looked at, before any
// reader takes it, so that a wrapped frame under a start-up failure or an
// exception is read too; the scanner passes such a head and the line
// under it on.
func (st *state) wrappedFrame(n int, msg string) {
	t := dropHarnessLabel(strings.TrimSpace(msg))
	if st.frameHead > 0 && n == st.frameHead+1 && wrappedFrameTail(st.frameTail, t) {
		st.lg.trtllm = true
	}
	st.frameHead = 0
	if tail, ok := wrappedFrameHead(t); ok {
		st.frameHead, st.frameTail = n, tail
	}
}
