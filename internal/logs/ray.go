package logs

import (
	"strconv"
	"strings"
)

// A Ray driver's output (ray/_private/worker.py print_worker_logs, verified
// in ray-project/ray): each line a worker prints comes behind
// "({actor or task name} pid=N[, ip=A]) ", a line at a time (the log
// monitor reads the worker's files line by line, and the driver prints each
// behind the prefix: a worker's traceback is prefixed on every line); the
// errors Ray pushes to the driver behind "(raylet) " (listen_error_messages:
// print_to_stdstream with pid "raylet"; an older driver logged them with its
// own logger, "WARNING worker.py:2074 -- …"); the raylet's own log lines
// behind "(raylet[, ip=A]) "; the autoscaler's events behind "(autoscaler
// +15m30s) ". The driver's own lines, its logger's, its prints and its
// tracebacks, have no prefix. So in a stream where Ray's prefixes are seen
// a line without one is the driver's, never the worker's that printed last:
// a Ray-prefixed line does not become the current one (state.line,
// scanner.advance), and a bare line goes on being the driver's own
// process's. The raylet and the autoscaler are no processes: their lines
// are read for what they say of the workers (rayDaemonLine).

// Kinds of process key (rayKey).
const (
	rayNone   = iota
	rayWorker // a worker's, a task's, or a driver's that is itself a worker
	rayDaemon // the raylet's or the autoscaler's
)

// rayKey reports which of Ray's prefixes made a process key readPrefix
// built: a chain of up to rayNested elements joined by " / " (rayElem), the
// innermost deciding, then maybe " rank R". No other reader makes such a
// key: a pod's, a container's or a journal's name holds no blank before
// "pid=", srun's and mpirun's labels and a bare rank start otherwise. The
// scanner and the state ask it of the same key, so both read the stream
// alike.
func rayKey[T string | []byte](k T) int {
	kind, i := rayNone, 0
	for e := 0; e < rayNested; e++ {
		end, daemon := rayElem(k, i)
		if end < 0 {
			return rayNone
		}
		kind, i = rayWorker, end
		if daemon {
			kind = rayDaemon
		}
		if !hasAt(k, i, " / ") {
			break
		}
		i += len(" / ")
	}
	if i == len(k) || hasAt(k, i, " rank ") {
		return kind
	}
	return rayNone
}

// rayElem reads one prefix's part of a key at k[i:] (rayPrefix: "[name
// ]pid=N[, ip=A]", "raylet[, ip=A]", "autoscaler[, ip=A]" without its time,
// "scheduler" in some releases): where it ends, -1 when none is there, and
// whether it is the raylet's or the autoscaler's.
func rayElem[T string | []byte](k T, i int) (int, bool) {
	if hasAt(k, i, "pid=") {
		return rayPidEnd(k, i+len("pid=")), false
	}
	if i >= len(k) || !isIdentStart(k[i]) {
		return -1, false
	}
	j := i
	for j < len(k) && (isIdentStart(k[j]) || isDigit(k[j]) || k[j] == '.' || k[j] == ':' || k[j] == '-') {
		j++
	}
	if hasAt(k, j, " pid=") {
		return rayPidEnd(k, j+len(" pid=")), false
	}
	for _, d := range [...]string{"raylet", "autoscaler", "scheduler"} {
		if j-i == len(d) && hasAt(k, i, d) {
			return rayIPEnd(k, j), true
		}
	}
	return -1, false
}

// rayPidEnd is where a pid's digits at k[i:] and the address after them end
// (-1: no digits).
func rayPidEnd[T string | []byte](k T, i int) int {
	j := i
	for j < len(k) && isDigit(k[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return rayIPEnd(k, j)
}

// rayIPEnd is where ", ip=ADDR" at k[i:] ends: i when there is none, -1
// when it has no address.
func rayIPEnd[T string | []byte](k T, i int) int {
	if !hasAt(k, i, ", ip=") {
		return i
	}
	j := i + len(", ip=")
	for j < len(k) && (isDigit(k[j]) || k[j] == '.' || k[j] == ':' || k[j]|0x20 >= 'a' && k[j]|0x20 <= 'f') {
		j++
	}
	if j == i+len(", ip=") {
		return -1
	}
	return j
}

// hasAt reports whether s holds p at i, byte by byte (no conversion).
func hasAt[T string | []byte](s T, i int, p string) bool {
	if i < 0 || len(s)-i < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if s[i+j] != p[j] {
			return false
		}
	}
	return true
}

// rayParts splits a Ray key: base is the key without its rank, outer the
// chain before its innermost prefix ("" when it has one), inner that
// prefix's part.
func rayParts(key string) (base, outer, inner string) {
	base = key
	if i := strings.LastIndex(key, " rank "); i >= 0 {
		base = key[:i]
	}
	inner = base
	if i := strings.LastIndex(base, " / "); i >= 0 {
		outer, inner = base[:i], base[i+len(" / "):]
	}
	return base, outer, inner
}

// rayWorkerOf reads a worker's key: its base and outer (rayParts), and the
// innermost prefix's pid and address ("" when Ray printed none: the worker
// is on the driver's node).
func rayWorkerOf(key string) (base, outer, pid, ip string, ok bool) {
	if rayKey(key) != rayWorker {
		return "", "", "", "", false
	}
	base, outer, inner := rayParts(key)
	i := strings.Index(inner, "pid=")
	rest := inner[i+len("pid="):]
	j := 0
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	pid, ip = rest[:j], strings.TrimPrefix(rest[j:], ", ip=")
	return base, outer, pid, ip, true
}

// rayDriver names the process of a Ray driver's own lines (those without a
// prefix) when they have no key of their own (a rank).
const rayDriver = "Ray driver"

// rayWorkerDied starts the error the raylet pushes to the driver when a
// worker it leased died unexpectedly (src/ray/raylet/node_manager.cc
// DisconnectClient, verified: "A worker died or was killed while executing a
// task by an unexpected system error. To troubleshoot the problem, check
// the logs for the dead worker. Lease ID: … Worker ID: … Node ID: … Worker
// IP address: A Worker port: P Worker PID: N Worker exit type: SYSTEM_ERROR
// Worker exit detail: …"; "RayTask ID: …" before leases; "… executing task
// <id>." and no pid in the oldest).
const rayWorkerDied = "A worker died or was killed while executing"

// rayDeathAt is where Ray's worker-death message starts in a bare line: at
// its start (behind "(raylet) ") or behind the driver's logger's
// "WARNING worker.py:2074 -- " (listen_error_messages before it printed
// them as the raylet's; Ray's out-of-memory guide shows it); -1 when it is
// not there.
func rayDeathAt[T string | []byte](t T) int {
	if len(t) < len(rayWorkerDied) {
		return -1
	}
	if hasAt(t, 0, rayWorkerDied) {
		return 0
	}
	if !hasAt(t, 0, "WARNING worker.py:") {
		return -1
	}
	for i := len("WARNING worker.py:"); i < len(t) && i < 40; i++ {
		if isDigit(t[i]) {
			continue
		}
		if hasAt(t, i, " -- "+rayWorkerDied) {
			return i + len(" -- ")
		}
		break
	}
	return -1
}

// rayOOMKilled starts the error a worker Ray's memory monitor killed gives
// its caller (ray.exceptions.OutOfMemoryError), and rayOOMDetail the line
// under it that names the worker (NodeManager::CreateOomKillMessageDetails in
// src/ray/raylet/node_manager.cc, verified: "Memory on the node (IP: A, ID:
// …) where the lease (lease ID: …, name=…, pid=N, memory used=…GB) was
// running was …"; "the task (task ID: …" or "the actor (actor ID: …" in
// earlier releases).
const (
	rayOOMKilled = "Task was killed due to the node running low on memory."
	rayOOMDetail = "Memory on the node (IP: "
)

// rayOOMWindow is how many lines under the OutOfMemoryError its detail may
// come (Ray's guide shows the message's first line again between them).
const rayOOMWindow = 4

// rayOOMSummary is what the raylet logs every minute when its memory monitor
// killed workers (NodeManager::ReportWorkerOOMKillStats, verified: "N
// Workers (tasks / actors) killed due to memory pressure (OOM), M Workers
// crashed due to other reasons at node (ID: …, IP: A) over the last time
// period. …"), behind its log line's header and "(raylet) " on the driver.
const rayOOMSummary = " Workers (tasks / actors) killed due to memory pressure (OOM), "

// rayOOMNote says what a kill by Ray's memory monitor means.
const rayOOMNote = "Ray's memory monitor killed the worker(s): the node's host memory passed RAY_memory_usage_threshold (0.95 by default), not the GPU's"

// rayInfeasible starts the autoscaler's event for a resource request no
// node type of the cluster can hold (StandardAutoscaler in
// python/ray/autoscaler/_private/autoscaler.py, verified: "Error: No
// available node types can fulfill resource request {…}. Add suitable node
// types to this cluster to resolve this issue."; users quote a later
// autoscaler's "… resource requests {…}*N", which it starts too: inferred,
// its source not read).
const rayInfeasible = "No available node types can fulfill resource request"

// rayInfeasibleNote says what it means for the deployment.
const rayInfeasibleNote = "Ray's autoscaler: no node type of the cluster can hold the resources the line's request asks for, so Ray cannot start the workers that ask for them (`ray status` shows the cluster's resources)"

// rayDaemonLine reads a line of the raylet's or the autoscaler's (key
// theirs, behind the driver's chain when nested): no process's, but what it
// says of a worker is that worker's finding (rayDied); the driver is the
// process whose own lines the stream's bare lines are, its key the chain's
// or the current one.
func (st *state) rayDaemonLine(n int, key, msg string) {
	msg, _ = cutRayRepeated(msg)
	tm := strings.TrimSpace(msg)
	_, outer, _ := rayParts(key)
	driver := outer
	if driver == "" {
		driver = cutKey(st.current) // the scanner's replay sets current whole
	}
	if i := rayDeathAt(tm); i >= 0 {
		st.rayDied(n, outer, driver, tm[i:], false)
		return
	}
	if i := strings.Index(tm, rayOOMSummary); i > 0 {
		// The count's digits before it; the raylet's header before them.
		j := i
		for j > 0 && isDigit(tm[j-1]) {
			j--
		}
		if j < i {
			if q := st.get(driver, n); q != nil {
				q.find(n, FindingCrashed, st.cut(tm[j:], maxMessageBytes))
				q.imply(n, rayOOMNote, 0, 0)
			}
		}
		return
	}
	if i := strings.Index(tm, rayInfeasible); i >= 0 && i <= len("Error: ") {
		if q := st.get(driver, n); q != nil {
			q.keep(Line{N: n, Level: LevelUnstated, Message: st.cut(tm, maxMessageBytes)})
			q.imply(n, rayInfeasibleNote, 0, 0)
		}
	}
}

// rayDied makes Ray's word that a worker died (text: the message, from
// rayWorkerDied or rayOOMDetail on) a process_crashed finding of the worker
// it names by pid (and address), when that worker is one of the log's
// processes, else of driver's: the driver's own lines report it. chain is
// the driver's chain of prefixes ("" at the top): its workers are looked at
// first.
func (st *state) rayDied(n int, chain, driver, text string, oom bool) {
	pid, ip := rayDeathWho(text, oom)
	q := st.rayWorkerProc(n, pid, ip, chain)
	if q == nil {
		q = st.get(driver, n)
	}
	if q == nil {
		return
	}
	q.find(n, FindingCrashed, st.cut(text, maxMessageBytes))
	if oom {
		q.imply(n, rayOOMNote, 0, 0)
	}
}

// rayDeathWho reads the pid and address a death message names ("" when it
// names none).
func rayDeathWho(text string, oom bool) (pid, ip string) {
	if oom {
		// "(IP: A, ID: …) where the lease (…, pid=N, memory used=…".
		ip, _, _ = strings.Cut(strings.TrimPrefix(text, rayOOMDetail), ",")
		if i := strings.Index(text, ", pid="); i >= 0 {
			pid = leadingDigits(text[i+len(", pid="):])
		}
		return pid, ip
	}
	if i := strings.Index(text, " Worker PID: "); i >= 0 {
		pid = leadingDigits(text[i+len(" Worker PID: "):])
	}
	if i := strings.Index(text, " Worker IP address: "); i >= 0 {
		ip, _, _ = strings.Cut(text[i+len(" Worker IP address: "):], " ")
	}
	return pid, ip
}

func leadingDigits(s string) string {
	j := 0
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return s[:j]
}

// rayPidCap bounds the workers remembered for one pid: more are a made-up
// log's, and a death naming that pid is then its driver's to report.
const rayPidCap = 8

// rayWorkerProc is the process of the worker whose pid (and, when both say
// it, address) Ray's message names, nil when none of the log's processes is
// that worker or several may be: the workers of chain's driver first, then
// any. A worker's lines with and without its rank are one worker.
func (st *state) rayWorkerProc(n int, pid, ip, chain string) *Process {
	if pid == "" {
		return nil
	}
	// The processes made since the last look, indexed by pid: each once.
	for ; st.rayIndexed < len(st.lg.Processes); st.rayIndexed++ {
		p := st.lg.Processes[st.rayIndexed]
		if _, _, wpid, _, ok := rayWorkerOf(p.Source); ok {
			if st.rayPids == nil {
				st.rayPids = map[string][]*Process{}
			}
			if l := st.rayPids[wpid]; len(l) <= rayPidCap {
				st.rayPids[wpid] = append(l, p)
			}
		}
	}
	cands := st.rayPids[pid]
	if len(cands) > rayPidCap {
		return nil
	}
	var group, others []*Process
	for _, p := range cands {
		if _, outer, _, wip, _ := rayWorkerOf(p.Source); ip == "" || wip == "" || wip == ip {
			if outer == chain {
				group = append(group, p)
			} else {
				others = append(others, p)
			}
		}
	}
	if len(group) == 0 {
		group = others
	}
	if len(group) == 0 {
		return nil
	}
	pick := group[0]
	base, _, _ := rayParts(pick.Source)
	for _, p := range group {
		switch b, _, _ := rayParts(p.Source); {
		case b != base:
			return nil // two workers of that pid
		case p.Source == b:
			pick = p // the worker's lines without a rank: they fold into its ranked ones
		}
	}
	return st.get(pick.Source, n)
}

// mayRayDeath is whether the scanner must pass a bare line on for what Ray
// says of a worker's death: rayDeathAt's message, or the detail of an
// out-of-memory kill (read under its OutOfMemoryError, which is passed on).
func mayRayDeath(bare []byte) bool {
	return rayDeathAt(bare) >= 0 || hasAt(bare, 0, rayOOMDetail)
}

// rayDriverOf names the process of a Ray driver's own lines without a key
// (u), in a stream whose other processes are all Ray's: "Ray driver", not
// lines a worker printed before its rank was known (Ray's prefix names each
// worker's lines). An argument dump alone is the workers' input (others).
// It reports whether u goes.
func rayDriverOf(u *Process, others []*Process, argsOnly bool) bool {
	if argsOnly && len(others) > 0 {
		for _, p := range others {
			if !p.Inputs.Seen() {
				p.Inputs = u.Inputs
			}
		}
		return true
	}
	u.Source = rayDriver
	return false
}

// rayDeath reports whether a process_crashed finding's text is Ray's word
// that a worker died (rayDied, rayDaemonLine), and whom it names: p when p
// is that worker, else the worker as Ray names it; or, for the raylet's
// out-of-memory summary, how many workers its memory monitor killed
// (killed > 0).
func rayDeath(p *Process, text string) (who string, killed int, ok bool) {
	var pid string
	switch {
	case strings.HasPrefix(text, rayWorkerDied):
		pid, _ = rayDeathWho(text, false)
	case strings.HasPrefix(text, rayOOMDetail):
		pid, _ = rayDeathWho(text, true)
	default:
		n := leadingDigits(text)
		k, err := strconv.Atoi(n)
		if err != nil || k <= 0 || !strings.HasPrefix(text[len(n):], rayOOMSummary) {
			return "", 0, false
		}
		return "", k, true
	}
	if _, _, wpid, _, ok := rayWorkerOf(p.Source); ok && pid != "" && wpid == pid {
		return p.Source, 0, true
	}
	if pid == "" {
		return "a worker", 0, true
	}
	return "the worker of PID " + pid, 0, true
}
