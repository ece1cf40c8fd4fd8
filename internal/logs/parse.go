// Package logs reads a TensorRT-LLM server log and reports, per process, what the
// transceiver resolution actually did — the lines TensorRT-LLM prints while it
// resolves transceiver_runtime and creates the transceiver — and compares that with
// a prediction. It understands plain logs, srun ("0: ") and mpirun
// ("[1,5]<stderr>:") prefixes, TensorRT-LLM's own "[date] [TRT-LLM] [RANK n] [I]"
// prefix, collector timestamps and ANSI colour.
package logs

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"xcvr/resolver"
)

// Limits that keep memory bounded on multi-gigabyte logs: only recognised lines
// are kept, a few per process, and over-long lines are cut.
const (
	maxLineBytes       = 64 << 10
	maxLinesPerProcess = 64
	maxImplications    = 32
	maxProcesses       = 4096
	// maxMessageBytes cuts a kept line or exception title; TensorRT-LLM's own
	// lines are far shorter, so only a hostile or corrupt log reaches it.
	maxMessageBytes = 4 << 10
	maxDetailBytes  = 1 << 10
	// maxRetained is what one log may keep in lines and texts in all; past it,
	// findings are counted as dropped, not kept.
	maxRetained = 4 << 20
)

// Line is one recognised log line.
type Line struct {
	// N is the 1-based line number in the input.
	N int `json:"line"`
	// Level is INFO, WARNING, ERROR (or "" for an exception line).
	Level string `json:"level"`
	// Message is the text after every prefix, as TensorRT-LLM formatted it.
	Message string `json:"message"`
}

// Process is what one rank or task of the log shows.
type Process struct {
	// Source names the process: "rank 0" (TensorRT-LLM's [RANK n]), "srun task 1",
	// "mpirun [1,5]", or "process" for an unprefixed single-process log.
	Source string
	// Resolved is the runtime logged by "Resolved transceiver_runtime='auto' to …";
	// ResolvedSeen is false when no such line was logged.
	Resolved     resolver.PyStr
	ResolvedSeen bool
	// ResolvedFor is the class named in that line, or "unknown model".
	ResolvedFor string
	// Class is the transceiver class built, when the log shows it: the Python one
	// logs "Using KvCacheTransceiverV2"; the C++ one logs nothing, so it is
	// inferred from a None/'CPP' resolution that ran into no error (ClassInferred).
	Class         string
	ClassInferred bool
	// Backend is the effective backend the lines pin down, "" when none does.
	Backend string
	// EnvVar is the TRTLLM_USE_*_KVCACHE variable a warning says was "1".
	EnvVar string
	// Disabled is true after "cache_transceiver is disabled".
	Disabled bool
	// Fallback is the fallback line's reason, if one was logged.
	Fallback string
	// Error is the first exception raised (with a pydantic error's detail lines).
	Error string
	// InfoSeen is true when the process printed any INFO line, i.e. the log level
	// lets INFO through; missing INFO lines mean something only then.
	InfoSeen bool
	// Lines are the recognised lines, in order.
	Lines []Line
	// Implications are facts the lines pin down that the user may not have given.
	Implications []Implication

	// LinesDropped counts recognised lines not kept: repeats of a kept line
	// and lines past the per-process or per-log caps.
	LinesDropped int
	// ImplicationsDropped counts implications past the per-process cap.
	ImplicationsDropped int

	firstLine int
	errorLine int
	budget    *int
	seenLines map[string]bool
	seenImpl  map[string]bool
	// unranked is true when TensorRT-LLM's logger printed lines without a rank
	// here: a process of its own, not one of the ranked ones.
	unranked bool
}

// Implication is a fact a log line proves, such as the build's age or an env var.
type Implication struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	// After and Before bound the build's main-branch day when the line dates it
	// (After inclusive, Before exclusive; 0 = unbounded).
	After  resolver.Day `json:"-"`
	Before resolver.Day `json:"-"`
}

// Outcome is what the process ended with, in the resolver's terms, or "" when the
// log does not show it (e.g. it stops before the transceiver is created).
func (p *Process) Outcome() resolver.Outcome {
	switch {
	case p.Error != "":
		return resolver.OutcomeError
	case p.Disabled:
		return resolver.OutcomeDisabled
	case p.Class == resolver.ClassPython:
		return resolver.OutcomePython
	case p.Class == resolver.ClassCPP:
		return resolver.OutcomeCPP
	}
	return ""
}

// Log is a parsed log: its processes in order of first appearance.
type Log struct {
	Name      string
	Processes []*Process
	// Lines is the number of lines read.
	Lines int
	// Stated are the versions the log states ("TensorRT-LLM version: …"),
	// distinct, in order of first appearance.
	Stated []StatedVersion
	// ProcessesDropped counts lines of processes past maxProcesses.
	ProcessesDropped int
}

// StatedVersion is a version line of the log.
type StatedVersion struct {
	Version string `json:"version"`
	Line    int    `json:"line"`
	// Source is the process key of the line ("" when it has none).
	Source string `json:"source"`
}

// maxStated bounds the distinct versions kept from one log.
const maxStated = 16

func (lg *Log) stateVersion(n int, key, v string) {
	for _, s := range lg.Stated {
		if s.Version == v {
			return
		}
	}
	if len(lg.Stated) < maxStated {
		lg.Stated = append(lg.Stated, StatedVersion{Version: cutText(v, 64), Line: n, Source: key})
	}
}

var (
	reExc = regexp.MustCompile(`^((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception)): (.*)$`)
	reLoc = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\[\]]*$`)
)

func (p *Process) key() string { return p.Source }

// isTransceiverError picks the ERROR logger lines worth keeping: those about
// validation and transceiver creation. (Exceptions are all kept: any exception
// that reaches the log during start-up is what the process raised.)
func isTransceiverError(typ, msg string) bool {
	if strings.HasSuffix(typ, "ValidationError") {
		return true
	}
	for _, k := range []string{"transceiver", "Transceiver", "cache_transceiver_config", "kv_transfer_timeout_ms",
		"backend", "enable_pipelined_transfer", "Parameter ", "unsupported operand type(s) for /: 'NoneType' and 'float'",
		"MambaHybridCacheManager", "Kimi K3", "INFLIGHT_CANCEL", "Configuration file root"} {
		if strings.Contains(msg, k) {
			return true
		}
	}
	return false
}

// keep records a recognised line: once per distinct level and message (the
// first occurrence), at most maxLinesPerProcess, within the log's budget.
func (p *Process) keep(l Line) {
	if len(l.Message) > maxMessageBytes {
		l.Message = cutText(l.Message, maxMessageBytes)
	}
	k := l.Level + "\x00" + l.Message
	if p.seenLines[k] || len(p.Lines) >= maxLinesPerProcess || p.over(len(k)) {
		p.LinesDropped++
		return
	}
	if p.seenLines != nil {
		p.seenLines[k] = true
	}
	p.Lines = append(p.Lines, l)
}

// over charges n bytes to the log's budget, reporting whether it is spent.
func (p *Process) over(n int) bool {
	if p.budget == nil {
		return false
	}
	if *p.budget+2*n > maxRetained {
		return true
	}
	*p.budget += 2 * n // the text and its key in the seen set
	return false
}

func (p *Process) imply(n int, text string, after, before resolver.Day) {
	if p.seenImpl == nil {
		p.seenImpl = map[string]bool{}
	}
	if p.seenImpl[text] {
		return
	}
	if len(p.Implications) >= maxImplications || p.over(len(text)) {
		p.ImplicationsDropped++
		return
	}
	p.seenImpl[text] = true
	p.Implications = append(p.Implications, Implication{Line: n, Text: text, After: after, Before: before})
}

// Merge days the implications use (spec §1).
const (
	day16164 resolver.Day = 20260716
	day17137 resolver.Day = 20260810
	day18134 resolver.Day = 20260828
	day15727 resolver.Day = 20260902
)

var (
	reResolved   = regexp.MustCompile(`^Resolved transceiver_runtime='auto' to (None|'CPP'|'PYTHON') for (.+)\.$`)
	reEra1Fall   = regexp.MustCompile(`^Model prefers the Python transceiver, but backend (\S+) does not support it; falling back to the C\+\+ transceiver\.$`)
	reEra2Fall   = regexp.MustCompile(`^Falling back to the C\+\+ transceiver: (.*)\.$`)
	reEra2Back   = regexp.MustCompile(`^backend '([A-Z]+)' \(the Python transceiver requires NIXL\)$`)
	reEnvWarn    = regexp.MustCompile(`^(TRTLLM_USE_([A-Z]+)_KVCACHE)=1 is set, but it's recommended to set cache_transceiver_config\.backend in yaml config$`)
	rePyNotNIXL  = regexp.MustCompile(`^Python transceiver currently only supports (NIXL or DEFAULT backend|the NIXL backend|NIXL backend), got (\S+)\. `)
	reKVV2Fall   = regexp.MustCompile(`^KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime=(\S+) with backend=(\S+); falling back to V1\.$`)
	reDeviceV2   = regexp.MustCompile(`^device_id: \d+ in KvCacheTransceiverV2$`)
	reInflightOn = regexp.MustCompile(`^TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1: disagg KV transfer in-flight cancellation was requested`)
)

// observe interprets one TensorRT-LLM logger line.
func (p *Process) observe(n int, level, msg string) {
	l := Line{N: n, Level: level, Message: msg}
	// Each pattern starts with a literal: check it before running the regexp,
	// and run the regexp once. (A log of distinct findings sends every line here.)
	var m []string
	match := func(prefix string, re *regexp.Regexp) bool {
		if !strings.HasPrefix(msg, prefix) {
			return false
		}
		m = re.FindStringSubmatch(msg)
		return m != nil
	}
	switch {
	case match("Resolved transceiver_runtime=", reResolved):
		p.ResolvedSeen = true
		p.Resolved = resolver.PyStr{}
		if m[1] != "None" {
			p.Resolved = resolver.Str(strings.Trim(m[1], "'"))
		}
		p.ResolvedFor = m[2]
		p.imply(n, "the build resolves 'auto' (PR #16164): main of 2026-07-16 or later", day16164, 0)
	case match("Model prefers the Python transceiver", reEra1Fall):
		p.Backend = m[1]
		p.Fallback = msg
		p.imply(n, "the era-1 fallback line: this log came from a build before 2026-08-28 (PR #18134 removed the line)", day16164, day18134)
		p.imply(n, "the model declares a PYTHON preference, and the effective backend was "+m[1], 0, 0)
	case match("Falling back to the C++ transceiver: ", reEra2Fall):
		p.Fallback = msg
		p.imply(n, "'Falling back to the C++ transceiver:' is PR #18134's line: this log came from a build of 2026-08-28 or later", day18134, 0)
		if b := reEra2Back.FindStringSubmatch(m[1]); b != nil {
			p.Backend = b[1]
			p.imply(n, "the effective backend was "+b[1]+" and the model declares no preference", 0, 0)
		} else if strings.HasPrefix(m[1], "kv_transfer_timeout_ms=None") {
			p.imply(n, "kv_transfer_timeout_ms was null, the backend NIXL, and the model declares no preference", 0, 0)
			p.Backend = "NIXL"
		}
	case match("TRTLLM_USE_", reEnvWarn):
		p.EnvVar = m[1]
		p.Backend = m[2]
		p.imply(n, m[1]+"=1 was set and cache_transceiver_config.backend was DEFAULT, so the backend became "+m[2], 0, 0)
	case strings.HasPrefix(msg, "Using UCX kv-cache transceiver."):
		p.Backend = "UCX"
	case msg == "MPI CacheTransceiver is deprecated, UCX or NIXL is recommended":
		p.Backend = "MPI"
	case msg == "Using KvCacheTransceiverV2" || (strings.HasPrefix(msg, "device_id: ") && reDeviceV2.MatchString(msg)):
		p.Class = resolver.ClassPython
		p.ClassInferred = false
		if p.Backend == "" {
			p.Backend = "NIXL" // the Python transceiver runs only on NIXL
		}
	case msg == "cache_transceiver is disabled":
		p.Disabled = true
	case strings.HasPrefix(msg, "enable_pipelined_transfer is set; auto-selecting the Python transceiver"):
		p.imply(n, "enable_pipelined_transfer was true and the runtime was left None: a build of 2026-09-02 or later (PR #15727)", day15727, 0)
	case match("KV cache manager V2 ", reKVV2Fall):
		p.imply(n, "the model prefers KV cache manager V2 but runs V1, because the runtime was "+m[1]+" on backend "+m[2], 0, 0)
	case strings.HasPrefix(msg, "Resolved use_kv_cache_manager_v2='auto' to "):
		// ModelLoader's KV-cache manager line (#15823's model-defaults form):
		// kept so a prediction that prints it can be checked.
	case match("TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1:", reInflightOn):
		p.imply(n, "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1 was set", 0, 0)
	case strings.HasPrefix(msg, "Python cache transceiver with C++ KV cache manager detected"):
		p.Class = resolver.ClassPython
	case level == "ERROR" && isTransceiverError("Error", msg):
		// Logged errors that carry no exception line of their own.
	default:
		return
	}
	p.keep(l)
}

// implyError adds what an exception's wording dates or reveals.
func (p *Process) implyError(n int, typ, msg string) {
	if m := rePyNotNIXL.FindStringSubmatch(msg + " "); m != nil {
		p.Backend = m[2]
		switch m[1] {
		case "NIXL or DEFAULT backend":
			p.imply(n, "the era-0 wording 'NIXL or DEFAULT backend': a build before 2026-07-16", 0, day16164)
		case "NIXL backend":
			p.imply(n, "the resolve_cache_transceiver_config wording 'NIXL backend': a build of 2026-09-02 or later", day15727, 0)
		}
	}
	switch {
	case typ == "TypeError" && strings.Contains(msg, "'NoneType' and 'float'"):
		p.imply(n, "KvCacheTransceiverV2 divided a null kv_transfer_timeout_ms: a build before PR #17137 (about 2026-08-10)", 0, day17137)
	case msg == "KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms":
		p.imply(n, "the explicit null-timeout error of PR #17137: a build of about 2026-08-10 or later", day17137, 0)
	case strings.Contains(msg, "Input should be 'CPP' or 'PYTHON'"):
		p.imply(n, "transceiver_runtime accepts no 'auto': a build before 2026-07-16", 0, day16164)
	}
}

// finish folds lines that came before any rank was known into the only process,
// and infers the C++ class where the log cannot show it.
func (lg *Log) finish(byKey map[string]*Process) {
	if un, ok := byKey[""]; ok {
		others := make([]*Process, 0, len(lg.Processes))
		for _, p := range lg.Processes {
			if p != un {
				others = append(others, p)
			}
		}
		switch {
		case len(others) == 0:
			un.Source = "process"
		case un.unranked:
			un.Source = "process without rank"
		case len(others) == 1:
			o := others[0]
			o.merge(un)
			lg.Processes = others
		default:
			un.Source = "unattributed"
		}
	}
	for _, p := range lg.Processes {
		if p.Class == "" && p.Error == "" && !p.Disabled && p.ResolvedSeen && !p.Resolved.Is("PYTHON") {
			p.Class = resolver.ClassCPP
			p.ClassInferred = true
		}
		sort.SliceStable(p.Lines, func(i, j int) bool { return p.Lines[i].N < p.Lines[j].N })
	}
	sort.SliceStable(lg.Processes, func(i, j int) bool { return sourceLess(lg.Processes[i], lg.Processes[j]) })
}

// sourceLess orders processes by rank number when both have one, else by first line.
func sourceLess(a, b *Process) bool {
	ra, oka := rankOf(a.Source)
	rb, okb := rankOf(b.Source)
	if oka && okb && ra != rb {
		return ra < rb
	}
	return a.firstLine < b.firstLine
}

func rankOf(s string) (int, bool) {
	i := strings.LastIndexAny(s, " ,")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimRight(s[i+1:], "]"))
	return n, err == nil
}

// merge moves u's findings into p (u's lines came first).
func (p *Process) merge(u *Process) {
	if !p.ResolvedSeen && u.ResolvedSeen {
		p.Resolved, p.ResolvedSeen, p.ResolvedFor = u.Resolved, true, u.ResolvedFor
	}
	if p.Class == "" {
		p.Class = u.Class
	}
	if p.Backend == "" {
		p.Backend = u.Backend
	}
	if p.EnvVar == "" {
		p.EnvVar = u.EnvVar
	}
	p.Disabled = p.Disabled || u.Disabled
	if p.Fallback == "" {
		p.Fallback = u.Fallback
	}
	if p.Error == "" {
		p.Error = u.Error
	}
	p.InfoSeen = p.InfoSeen || u.InfoSeen
	p.Lines = append(u.Lines, p.Lines...)
	if len(p.Lines) > maxLinesPerProcess {
		p.LinesDropped += len(p.Lines) - maxLinesPerProcess
		p.Lines = p.Lines[:maxLinesPerProcess]
	}
	p.LinesDropped += u.LinesDropped
	p.Implications = append(u.Implications, p.Implications...)
	if len(p.Implications) > maxImplications {
		p.ImplicationsDropped += len(p.Implications) - maxImplications
		p.Implications = p.Implications[:maxImplications]
	}
	p.ImplicationsDropped += u.ImplicationsDropped
	if u.firstLine < p.firstLine {
		p.firstLine = u.firstLine
	}
}

// Failed reports whether any process raised.
func (lg *Log) Failed() bool {
	for _, p := range lg.Processes {
		if p.Error != "" {
			return true
		}
	}
	return false
}
