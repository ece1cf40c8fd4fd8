package logs

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

var (
	reANSI    = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07`)
	reSrun    = regexp.MustCompile(`^\s*(\d+): `)
	reMPIRun  = regexp.MustCompile(`^\[(\d+),(\d+)\]<(?:stdout|stderr)>:\s?`)
	reCollect = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?[ \t]`)
	reTRTTime = regexp.MustCompile(`^\[\d{2}/\d{2}/\d{4}-\d{2}:\d{2}:\d{2}\]\s*`)
	reTRTLLM  = regexp.MustCompile(`^\[TRT-LLM\]\s*(?:\[(?:RANK|MPI_Rank) (\d+)\]\s*)?\[([IWEVF])\]\s?`)
	reCpp     = regexp.MustCompile(`^\[TensorRT-LLM\](?:\[RANK (\d+)\])?\[(INFO|WARNING|ERROR|DEBUG|TRACE|VERBOSE)\]\s?`)
)

// parseReference is the regexp-based parser the fast one replaced, kept as the
// oracle of the differential test: both must find the same.
func parseReference(name string, r io.Reader) (*Log, error) {
	lg := &Log{Name: name}
	byKey := map[string]*Process{}
	br := bufio.NewReaderSize(r, 64<<10)
	current := ""
	var pendingExc *Process // a pydantic error collecting its detail lines
	excDetail := 0
	for {
		raw, err := readLineRef(br)
		if raw == "" && err != nil {
			if err == io.EOF {
				break
			}
			return lg, err
		}
		lg.Lines++
		n := lg.Lines
		s := strings.TrimRight(reANSI.ReplaceAllString(raw, ""), "\r\n")

		outer := ""
		if m := reMPIRun.FindStringSubmatch(s); m != nil {
			outer = "mpirun [" + m[1] + "," + m[2] + "]"
			s = s[len(m[0]):]
		} else if m := reSrun.FindStringSubmatch(s); m != nil {
			outer = "srun task " + m[1]
			s = s[len(m[0]):]
		}
		s = reCollect.ReplaceAllString(s, "")
		s = reTRTTime.ReplaceAllString(s, "")
		// Some launchers print the srun label after the collector's timestamp.
		if outer == "" {
			if m := reSrun.FindStringSubmatch(s); m != nil {
				outer = "srun task " + m[1]
				s = reTRTTime.ReplaceAllString(s[len(m[0]):], "")
			}
		}

		level, rank, msg, tagged, pyTagged := "", "", s, false, false
		if m := reTRTLLM.FindStringSubmatch(s); m != nil {
			tagged, pyTagged = true, true
			rank = m[1]
			level = map[string]string{"I": "INFO", "W": "WARNING", "E": "ERROR", "V": "DEBUG", "F": "ERROR"}[m[2]]
			msg = s[len(m[0]):]
		} else if m := reCpp.FindStringSubmatch(s); m != nil {
			tagged = true
			rank = m[1]
			level = m[2]
			msg = s[len(m[0]):]
		}

		key := outer
		if key == "" && rank != "" {
			key = "rank " + rank
		}
		switch {
		case key == "" && pyTagged:
			// TensorRT-LLM's Python logger prints [RANK n] whenever the MPI world
			// has more than one process, so a line without it comes from a
			// process with no rank (e.g. trtllm-serve's own), never from the
			// ranked process that logged last.
			current = ""
		case key == "":
			key = current
		default:
			current = key
		}

		// A pydantic ValidationError prints its locations and messages on the
		// lines after its title; keep them with the exception.
		if pendingExc != nil {
			if !tagged && excDetail < 40 && (strings.HasPrefix(msg, " ") || reLoc.MatchString(msg)) && key == pendingExc.key() {
				t := strings.TrimRight(msg, " ")
				if !strings.HasPrefix(strings.TrimSpace(t), "For further information visit") {
					pendingExc.Error += "\n" + (&state{}).cut(t, maxDetailBytes)
				}
				excDetail++
				continue
			}
			pendingExc = nil
		}

		p := byKey[key]
		get := func() *Process {
			if p == nil {
				if len(lg.Processes) >= maxProcesses {
					lg.ProcessesDropped++
					return nil
				}
				p = &Process{Source: key, firstLine: n, seenLines: map[string]bool{}, seenImpl: map[string]bool{}}
				byKey[key] = p
				lg.Processes = append(lg.Processes, p)
			}
			return p
		}
		if tagged {
			if level == "INFO" {
				if q := get(); q != nil {
					q.InfoSeen = true
				}
			}
			if q := get(); q != nil {
				q.unranked = q.unranked || (pyTagged && key == "")
				q.observe(n, level, msg)
			}
			continue
		}
		if m := reExc.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
			q := get()
			if q != nil && q.Error == "" {
				q.Error = (&state{}).cut(m[1]+": "+m[2], maxMessageBytes)
				q.errorLine = n
				q.keep(Line{N: n, Message: (&state{}).cut(strings.TrimSpace(msg), maxMessageBytes)})
				q.implyError(n, m[1], m[2])
				if strings.HasSuffix(m[1], "ValidationError") {
					pendingExc, excDetail = q, 0
				}
			}
		} else if m := reVersion.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
			lg.stateVersion(n, key, m[1])
		}
	}
	lg.finish(byKey)
	return lg, nil
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
