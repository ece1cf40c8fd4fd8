package logs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

var (
	reANSI    = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07`)
	reSrun    = regexp.MustCompile(`^\s*(\d+): `)
	reMPIRun  = regexp.MustCompile(`^\[(\d+),(\d+)\]<(?:stdout|stderr)>:\s?`)
	reCollect = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?[ \t]`)
	reCRI     = regexp.MustCompile(`^(?:stdout|stderr) [PF](?: |$)`)
	reTRTTime = regexp.MustCompile(`^\[\d{2}/\d{2}/\d{4}-\d{2}:\d{2}:\d{2}\]\s*`)
	reCpp     = regexp.MustCompile(`^\[TensorRT-LLM\](?:\[RANK (\d+)\])?\[(INFO|WARNING|ERROR|DEBUG|TRACE|VERBOSE)\]\s?`)
)

var (
	reKubectl     = regexp.MustCompile(`^[ \t]*\[(pod/[^\]/\s\[]+/[^\]/\s\[]+)\] ?`)
	reJournal     = regexp.MustCompile(`^[ \t]*[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)? \S+ ([^\s\[\]]+\[[0-9]+\]): `)
	reJournalTail = regexp.MustCompile(`^\S+ ([^\s\[\]]+\[[0-9]+\]): `)
	reStern       = regexp.MustCompile(`^[ \t]*([a-z0-9][a-z0-9.]*-[a-z0-9.-]*[a-z0-9]) ([a-z0-9](?:[a-z0-9-]*[a-z0-9])?) (?:\[TRT-LLM\]|\[TensorRT-LLM\]|\[[0-9]{2}/[0-9]{2}/[0-9]{4}-|[0-9]{4}-[0-9]{2}-[0-9]{2}T|` + reSternBare + `)`)
	reRay         = regexp.MustCompile(`^[ \t]*\((pid=\d+(?:, ip=[0-9A-Fa-f.:]+)?|raylet(?:, ip=[0-9A-Fa-f.:]+)?)\) ?`)
	reRayActor    = regexp.MustCompile(`^[ \t]*\(([A-Za-z_][A-Za-z0-9_.:-]*)([\x21-\x7e]*)( pid=\d+(?:, ip=[0-9A-Fa-f.:]+)?)\) ?`)
	reRayRank     = regexp.MustCompile(`^\[rank=(\d+)\]$`)
	reRayTime     = regexp.MustCompile(`^[ \t]*\((autoscaler|scheduler) \+(?:\d+h)?(?:\d+m)?\d+s(, ip=[0-9A-Fa-f.:]+)?\) ?`)
	reCompose     = regexp.MustCompile(`^[ \t]*([A-Za-z0-9][A-Za-z0-9_.-]*[-_][0-9]+(?:/[A-Za-z0-9][A-Za-z0-9_.-]*)?)[ \t]+\| ?`)
	reRankG       = regexp.MustCompile(`^\s*\[(?:RANK|MPI_Rank) (\d+)\]`)
	reRankP       = regexp.MustCompile(`^\s*\[(?:RANK|MPI_Rank) ([^\]\[\s]{1,16})\]`) // a placeholder unless all digits
	reLevelG      = regexp.MustCompile(`^\s*\[([IWEVF])\]`)
	reModuleG     = regexp.MustCompile(`^\s*\[[A-Za-z_][A-Za-z0-9_.]* *\]`)
	reCondense    = regexp.MustCompile(`^\[[A-Za-z_][A-Za-z0-9_.]* *\]\s*\[(?:RANK|MPI_Rank) (\d+)\]\s?`)
	reEmbedded    = regexp.MustCompile(`^.*?[ \t:\r](\[(?:TRT-LLM|TensorRT-LLM)\])`)
	reBlank       = regexp.MustCompile(`^[ \t]*`)
	reQuote       = regexp.MustCompile(`^[ \t]*(?:>[ \t]?)+`)
	reJSONString  = regexp.MustCompile(`^"(?:[^"\\]|\\.)*"`)
	// Dynamo's JSONL record (DYN_LOGGING_JSONL=1): time, level, file?,
	// line?, target, message, in that order.
	reDynamoJSON = regexp.MustCompile(`^\{"time":("(?:[^"\\]|\\.)*"),"level":("(?:[^"\\]|\\.)*")(?:,"file":"(?:[^"\\]|\\.)*")?(?:,"line":[0-9]+)?,"target":("(?:[^"\\]|\\.)*"),"message":("(?:[^"\\]|\\.)*")[,}]`)
)

// reDynamoSubprocess is dynamo-run's level and target before its engine
// subprocess's lines (scan.go's dynamoSubprocess).
var reDynamoSubprocess = regexp.MustCompile(`^[ \t]*[A-Z]+ dynamo_run::subprocess: `)

// reStern3 is stern's prefix with the namespace first (stern -A).
var reStern3 = regexp.MustCompile(`^[ \t]*[a-z0-9](?:[a-z0-9-]*[a-z0-9])? ([a-z0-9][a-z0-9.]*-[a-z0-9.-]*[a-z0-9]) ([a-z0-9](?:[a-z0-9-]*[a-z0-9])?) (?:\[TRT-LLM\]|\[TensorRT-LLM\]|\[[0-9]{2}/[0-9]{2}/[0-9]{4}-|[0-9]{4}-[0-9]{2}-[0-9]{2}T|` + reSternBare + `)`)

// reTorchRank is PyTorch's excepthook's prefix (scan.go's torchRankPrefix).
var reTorchRank = regexp.MustCompile(`^\[rank(\d+)\]:(?: |$)`)

// reElastic is torchrun's prefix before a worker's line (scan.go's
// elasticPrefix): its role, not "rank", and its local rank.
var reElastic = regexp.MustCompile(`^\[([A-Za-z_][A-Za-z0-9_.-]*?)([0-9]+)\]:`)

// withRank is a key with a rank added, as scanner.addRank adds it.
func withRank(key string, kube bool, rank string) string {
	if rank != "" && (key == "" || kube) {
		if kube {
			key += " "
		}
		key += "rank " + rank
	}
	return key
}

// reSternBare is the bare lines a pod prints besides TensorRT-LLM's tagged
// ones (scan.go's sternBare), after stern's pod and container.
const reSternBare = `[ \t]|Traceback \(most recent call last\):|Exception[: ]|(?:Task|Future) exception |During handling |The above exception |` +
	`(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):|terminate called |!!!!!!! |Fatal Python error: |\*\*\* SIG|\{"time":"|` +
	`[A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception)(?:[: ]|$)|\[[0-9]|\[rank[0-9]|\[[A-Za-z_][A-Za-z0-9_.-]*[0-9]\]:|\[[A-Za-z0-9._-]+:[0-9]+[:\]]|[IWEF][0-9]{4}`

// stern's JSON records (scan.go's sternRecord): -o json's fields in order,
// -o extjson's template.
var (
	reSternJSON = regexp.MustCompile(`(?s)^\{"message":("(?:[^"\\]|\\.)*")(?:,"nodeName":"(?:[^"\\]|\\.)*")?,"namespace":"(?:[^"\\]|\\.)*","podName":"([a-z0-9.-]+)","containerName":"([a-z0-9.-]+)"[,}]`)
	reSternExt  = regexp.MustCompile(`(?s)^\{(?:"namespace": "[a-z0-9.-]+", )?"pod": "([a-z0-9.-]+)", "container": "([a-z0-9.-]+)", "message": (.*)\}$`)
)

// refStern reads a record of stern's JSON output as "[pod/POD/CONTAINER]
// MESSAGE", its line without colour and CR.
func refStern(raw string) (string, bool) {
	s := strings.TrimRight(reANSI.ReplaceAllString(raw, ""), "\r\n")
	s = s[len(reBlank.FindString(s)):] // pasted indented
	var msg string
	m := reSternJSON.FindStringSubmatch(s)
	if m != nil {
		if json.Unmarshal([]byte(m[1]), &msg) != nil {
			return "", false
		}
		m = m[1:]
	} else if m = reSternExt.FindStringSubmatch(s); m != nil {
		msg = m[3]
		if strings.HasPrefix(msg, `"`) {
			if !reJSONStringWhole.MatchString(msg) || json.Unmarshal([]byte(msg), &msg) != nil {
				return "", false
			}
		}
	} else {
		return "", false
	}
	return "[pod/" + m[1] + "/" + m[2] + "] " + msg, true
}

// reJSONStringWhole is a JSON string literal and nothing else.
var reJSONStringWhole = regexp.MustCompile(`^"(?:[^"\\]|\\.)*"$`)

// refRay reads Ray's prefixes by regexp, at most rayNested, the first after
// blanks and each next one right after the last: the process they name, the
// autoscaler's without its time, an actor's by its class (its repr's rest
// dropped), joined by " / "; and the rank the innermost actor's repr names
// ("RayWorkerWrapper[rank=1]").
func refRay(s string) (key, rank, rest string, ok bool) {
	for k := 0; k < rayNested && (k == 0 || strings.HasPrefix(s, "(")); k++ {
		part := ""
		if m := reRay.FindStringSubmatch(s); m != nil {
			part, rank, s = m[1], "", s[len(m[0]):]
		} else if m := reRayActor.FindStringSubmatch(s); m != nil && !strings.HasPrefix(strings.TrimLeft(s, " \t"), "(pid=") {
			// A name, not a pid that fails to read: "(pid=5[x] pid=6)".
			part, rank, s = m[1]+m[3], "", s[len(m[0]):]
			if r := reRayRank.FindStringSubmatch(m[2]); r != nil {
				rank = r[1]
			}
		} else if m := reRayTime.FindStringSubmatch(s); m != nil {
			part, rank, s = m[1]+m[2], "", s[len(m[0]):]
		} else {
			break
		}
		if k > 0 {
			key += " / "
		}
		key, ok = key+part, true
	}
	return key, rank, s, ok
}

// refTag reads one of TensorRT-LLM's tags at the start of t by regexp;
// msg comes back as given when none is there.
func refTag(t, msg string) (tagged, pyTagged bool, level, rank, rest string) {
	rest = msg
	if strings.HasPrefix(t, "[TRT-LLM]") {
		// Groups in any order, each once, the module after the level.
		r, haveRank, haveModule := t[len("[TRT-LLM]"):], false, false
		lv := ""
		for {
			if m := reRankG.FindStringSubmatch(r); m != nil && !haveRank {
				rank, haveRank, r = m[1], true, r[len(m[0]):]
			} else if m := reRankP.FindStringSubmatch(r); m != nil && !haveRank && !digitsOnly(m[1]) {
				haveRank, r = true, r[len(m[0]):]
			} else if m := reLevelG.FindStringSubmatch(r); m != nil && lv == "" {
				lv, r = m[1], r[len(m[0]):]
			} else if m := reModuleG.FindString(r); m != "" && lv != "" && !haveModule {
				haveModule, r = true, r[len(m):]
			} else {
				break
			}
		}
		if lv != "" {
			level = map[string]string{"I": "INFO", "W": "WARNING", "E": "ERROR", "V": "DEBUG", "F": "ERROR"}[lv]
			if r != "" && strings.ContainsRune(" \t\n\f\r", rune(r[0])) {
				r = r[1:]
			}
			return true, true, level, rank, r
		}
		// No level: text (not a group) after a blank.
		if u := strings.TrimLeft(r, " \t\n\f\r"); u != "" && len(u) < len(r) && u[0] != '[' {
			return true, true, LevelUnstated, rank, r[1:]
		}
		rank = ""
	}
	if m := reCpp.FindStringSubmatch(t); m != nil {
		return true, false, m[2], m[1], t[len(m[0]):]
	}
	if m := reCondense.FindStringSubmatch(t); m != nil {
		return true, true, LevelUnstated, m[1], t[len(m[0]):]
	}
	return false, false, "", "", msg
}

// parseReference is the regexp-based reader the fast scanner replaced, kept as
// the oracle of the differential test: it reads every line's prefixes with
// regular expressions and hands every line, unfiltered and unchunked, to the
// stateful half (state.line), which the fast parser shares. Both must find the
// same: so the scanner's prefixes, its filter (a line it does not pass on must
// change nothing) and its chunking are what the test checks.
func parseReference(name string, r io.Reader) (*Log, error) {
	st := newState(name)
	br := bufio.NewReaderSize(r, 64<<10)
	// Lines that end with '\r' alone: the first crWindow bytes decide
	// (crlines.go), and the log is read translated.
	if head, err := br.Peek(crWindow); len(head) > 0 {
		if cr, _ := crLines(head, err != nil); cr {
			br = bufio.NewReaderSize(&crReader{r: br}, 64<<10)
		}
	}
	n := 0
	// Lines a container runtime cut in pieces, per stream (splitLines).
	var split [2]struct {
		line string
		last int
		open bool
	}
	for {
		raw, err := readLineRef(br)
		if raw == "" && err != nil {
			if err == io.EOF {
				break
			}
			return st.lg, err
		}
		n++
		if m := reCRIPiece.FindStringSubmatch(blank(strings.TrimSuffix(raw, "\n"))); m != nil {
			sp := &split[map[string]int{"stdout": 0, "stderr": 1}[m[2]]]
			m[4] = strings.TrimSuffix(m[4], "\r")
			switch {
			case m[3] == "P" && !sp.open:
				sp.line, sp.open = capLine(m[1]+"F "+m[4]), true
			case sp.open:
				sp.line = capLine(sp.line + m[4])
			}
			if m[3] == "P" {
				sp.last = n
				continue
			}
			if sp.open {
				raw, sp.open = sp.line, false
			}
		}
		refRaw(st, n, raw)
	}
	// Lines whose last piece never came, at the end, the earlier first.
	if split[1].open && (!split[0].open || split[1].last < split[0].last) {
		split[0], split[1] = split[1], split[0]
	}
	for _, sp := range split {
		if sp.open {
			refRaw(st, sp.last, sp.line)
		}
	}
	st.lg.Lines = n
	return st.finish(), nil
}

// reCRIPiece is a line of the kubelet's container log file as its runtime
// writes it (scan.go's criPiece): the header up to its tag, the stream, the
// tag, the content.
var reCRIPiece = regexp.MustCompile(`(?s)^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}) (stdout|stderr) )([PF])(?: (.*))?$`)

// blank drops leading blanks and tabs.
func blank(s string) string { return s[len(reBlank.FindString(s)):] }

// capLine cuts a line joined from pieces at maxLineBytes.
func capLine(s string) string { return s[:min(len(s), maxLineBytes)] }

// refRaw reads line n, raw as read (its newline kept).
func refRaw(st *state, n int, raw string) {
	{
		// docker's json-file driver: the record's "log" string is the line.
		if strings.HasPrefix(raw, `{"log":"`) {
			if lit := reJSONString.FindString(raw[len(`{"log":`):]); lit != "" {
				var v string
				if json.Unmarshal([]byte(lit), &v) == nil {
					raw = v
				}
			}
		}
		// Dynamo's JSONL record: the line its readable logging prints, or
		// the lines, when its message holds several (a traceback).
		pieces, decoded := []string{raw}, false
		if m := reDynamoJSON.FindStringSubmatch(raw); m != nil {
			var f [4]string
			ok := true
			for i := range f {
				ok = ok && json.Unmarshal([]byte(m[i+1]), &f[i]) == nil
			}
			if ok {
				raw = fmt.Sprintf("%s %5s %s: %s", f[0], f[1], f[2], f[3])
				pieces, decoded = []string{raw}, true
				if strings.Contains(raw, "\n") {
					pieces = strings.Split(strings.TrimSuffix(raw, "\n"), "\n")
				}
			}
		}
		// stern -o json or extjson: the line its default output shows.
		if !decoded {
			if line, ok := refStern(raw); ok {
				pieces = []string{line}
			}
		}
		for i, raw := range pieces {
			refLine(st, n, raw, decoded, i > 0)
		}
	}
}

// refLine reads one line's prefixes by regexp and hands it to the state.
func refLine(st *state, n int, raw string, nested, noTag bool) {
	{
		s := strings.TrimRight(reANSI.ReplaceAllString(raw, ""), "\r\n")
		whole := s
		blank := func(s string) string { return s[len(reBlank.FindString(s)):] }
		// A markdown quote's marks go first.
		s = s[len(reQuote.FindString(s)):]

		outer, kube, rayRank := "", false, ""
		if m := reKubectl.FindStringSubmatch(s); m != nil {
			outer, kube = m[1], true
			s = s[len(m[0]):]
		} else if m := reCompose.FindStringSubmatch(s); m != nil {
			outer, kube = m[1], true
			s = s[len(m[0]):]
		} else if key, rank, rest, ok := refRay(s); ok {
			outer, kube, s, rayRank = key, true, rest, rank
		} else if m := reJournal.FindStringSubmatch(s); m != nil {
			outer, kube = m[1], true
			s = s[len(m[0]):]
		} else if m := reStern.FindStringSubmatchIndex(s); m != nil {
			outer, kube = "pod/"+s[m[2]:m[3]]+"/"+s[m[4]:m[5]], true
			s = s[m[5]+1:]
		} else if m := reStern3.FindStringSubmatchIndex(s); m != nil {
			// stern -A: the namespace first.
			outer, kube = "pod/"+s[m[2]:m[3]]+"/"+s[m[4]:m[5]], true
			s = s[m[5]+1:]
		} else if m := reMPIRun.FindStringSubmatch(blank(s)); m != nil {
			outer = "mpirun [" + m[1] + "," + m[2] + "]"
			s = blank(s)[len(m[0]):]
		} else if m := reSrun.FindStringSubmatch(s); m != nil {
			outer = "srun task " + m[1]
			s = s[len(m[0]):]
		}
		if loc := reCollect.FindStringIndex(blank(s)); loc != nil {
			s = blank(s)[loc[1]:]
			if m := reCRI.FindString(s); m != "" {
				s = s[len(m):]
			} else if m := reDynamoSubprocess.FindString(s); m != "" {
				s = s[len(m):]
			} else if m := reJournalTail.FindStringSubmatch(s); m != nil && outer == "" {
				outer, kube = m[1], true
				s = s[len(m[0]):]
			}
		}
		// torchrun's prefix: the worker's local rank.
		elasticRank := ""
		if m := reElastic.FindStringSubmatch(blank(s)); m != nil && m[1] != "rank" {
			elasticRank, s = m[2], blank(s)[len(m[0]):]
		}
		if elasticRank == "" {
			elasticRank = rayRank // an actor's repr's rank decides last
		}
		if loc := reTRTTime.FindStringIndex(blank(s)); loc != nil {
			s = blank(s)[loc[1]:]
		}
		// Some launchers print the srun label after the collector's timestamp.
		if outer == "" {
			if m := reSrun.FindStringSubmatch(s); m != nil {
				outer = "srun task " + m[1]
				s = s[len(m[0]):]
				if loc := reTRTTime.FindStringIndex(blank(s)); loc != nil {
					s = blank(s)[loc[1]:]
				}
			}
		}

		if noTag {
			// A Dynamo record's line after its first: its message's own
			// text, no tag or rank read (scanner.pieces).
			st.line(n, withRank(outer, kube, elasticRank), false, false, "", s)
			return
		}
		// PyTorch's excepthook's rank before a traceback's lines.
		torchRank := ""
		if m := reTorchRank.FindStringSubmatch(blank(s)); m != nil {
			torchRank, s = m[1], blank(s)[len(m[0]):]
		}
		t := blank(s)
		tagged, pyTagged, level, rank, msg := refTag(t, s)
		if !tagged {
			// A tag behind a prefix no reader knows: the first one after a
			// blank that starts within the line's first 200 bytes.
			if loc := reEmbedded.FindStringSubmatchIndex(t); loc != nil && loc[2] < 200 && !strings.HasPrefix(t, `{"time":"`) &&
				!strings.Contains(t[:loc[2]], "Error:") && !strings.Contains(t[:loc[2]], "Exception:") &&
				!strings.HasSuffix(t[:loc[2]], "unexpected error when creating modelInstanceState: ") &&
				!strings.HasSuffix(t[:loc[2]], "Encountered an error in forwardAsync function: ") &&
				!strings.HasSuffix(strings.TrimRight(t[:loc[2]], " \t"), "what():") {
				u := t[loc[2]:]
				if tagged, pyTagged, level, rank, msg = refTag(u, s); !tagged && (strings.HasPrefix(u, "[TensorRT-LLM] TensorRT-LLM version: ") || strings.HasPrefix(u, "[TensorRT-LLM] TensorRT LLM version: ")) {
					msg = u
				}
			}
		}

		if j := strings.TrimLeft(msg, " \t"); !tagged && !nested && len(j) < len(whole) {
			// Dynamo's JSONL record behind a collector's prefix: the lines
			// its readable logging prints, each behind that prefix.
			if m := reDynamoJSON.FindStringSubmatch(j); m != nil {
				var f [4]string
				ok := true
				for i := range f {
					ok = ok && json.Unmarshal([]byte(m[i+1]), &f[i]) == nil
				}
				if ok {
					text := fmt.Sprintf("%s %5s %s: %s", f[0], f[1], f[2], f[3])
					work, first := 0, true
					for _, p := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
						if work += len(whole) - len(j) + len(p); work > pieceWork {
							break // scanner.pieces' bound
						}
						refLine(st, n, whole[:len(whole)-len(j)]+p, true, !first)
						first = false
					}
					return
				}
			}
		}

		if rank == "" {
			rank = torchRank
		}
		if rank == "" {
			rank = elasticRank
		}
		st.line(n, withRank(outer, kube, rank), tagged, pyTagged, level, msg)
	}
}

// readLine returns one line, cutting lines longer than maxLineBytes so a log with
// no newlines cannot make xcvr buffer it whole.
func readLineRef(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b) < maxLineBytes {
			room := maxLineBytes - len(b)
			if len(chunk) > room {
				b = append(b, chunk[:room]...)
			} else {
				b = append(b, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(b), err
	}
}
