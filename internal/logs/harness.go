package logs

import "strings"

// Lines a test harness labelled, and the worker's request loop as a cut
// traceback shows it.

// dropHarnessLabel returns t without the label Dynamo's test harness puts
// before each line of a process it runs: ManagedProcess pipes the process's
// output through `sed -u "s/^/[{command_name.upper()}] /"` (ai-dynamo/dynamo
// tests/utils/managed_process.py, verified), so a worker's traceback reads
// `[PYTHON3]   File "…/tensorrt_llm/executor/worker.py", line 328, in
// worker_main` (Dynamo PR #8954). A label is 2 to 24 upper-case letters,
// digits, '_', '.' or '-' (the command's name upper-cased), not TensorRT-LLM's
// own "[TRT-LLM]" tag, then a blank; the blanks after it go too. t is returned
// as it is when it has none. Only a traceback's frames and lines are read
// behind it (state.line's frame readers, the scanner's filter for them).
func dropHarnessLabel[T string | []byte](t T) T {
	if len(t) < 5 || t[0] != '[' {
		return t
	}
	end, letter := -1, false
	for i := 1; i < len(t) && i <= 25; i++ {
		c := t[i]
		if c == ']' {
			end = i
			break
		}
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-':
		default:
			return t
		}
	}
	if end < 3 || !letter || end+1 >= len(t) || t[end+1] != ' ' || string(t[1:end]) == "TRT-LLM" {
		return t
	}
	rest := t[end+1:]
	for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
		rest = rest[1:]
	}
	return rest
}

// workerMainFrame reports whether a bare line is a traceback's frame in the
// executor worker's worker_main (tensorrt_llm/executor/worker.py).
func workerMainFrame(tm string) bool {
	const f = `File "`
	return strings.HasPrefix(tm, f) && strings.Contains(tm, `executor/worker.py", line `) && strings.HasSuffix(tm, ", in worker_main")
}

// workerSubmitCall is the source line Python prints under worker_main's frame
// when the traceback goes through the worker's submit: worker_main calls it
// only in its request loop, after it built the worker and sent the ready
// signal (`while (req := request_queue.get()) is not None: … worker.submit(req)`
// in tensorrt_llm/executor/worker.py, verified at two revisions), so a
// traceback cut right after this line (Dynamo PR #8954's excerpt) still shows
// a worker that was taking requests, as a frame in submit does.
const workerSubmitCall = "worker.submit(req)"
