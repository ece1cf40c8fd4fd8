package logs

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The scanner is the fast half of the parser. A log of gigabytes is almost all
// lines that cannot matter (weights loading, requests, NCCL chatter), so the
// scanner looks at each line's bytes once — launcher prefix, timestamp,
// TensorRT-LLM's tag — with no regular expression and no allocation, and hands
// on as events only the few lines the stateful half (state.line) must see.
// Chunks of a file are scanned in parallel; their events are replayed in order,
// so the result is exactly that of reading the lines one by one (the
// differential test checks this against the old regexp parser).

// event is a line the stateful half must see.
type event struct {
	// n is the line's number inside its chunk (1-based).
	n int
	// key is the line's own process key: its launcher prefix ("srun task 1",
	// "mpirun [1,0]") or TensorRT-LLM's rank ("rank 0"); "" when it has none.
	key string
	// cur is the key of the last keyed line before this one in the chunk;
	// curKnown is false when no line of the chunk set it yet (the previous
	// chunk's last one holds).
	cur      string
	curKnown bool
	tagged   bool
	pyTagged bool
	level    string
	msg      string
}

// chunkResult is what the scanner found in one run of whole lines.
type chunkResult struct {
	events []event
	lines  int
	// endCur is the current key after the chunk's last line (endKnown false:
	// unchanged by the chunk).
	endCur   string
	endKnown bool
	// trtllmFrame is whether a line the events leave out is a traceback's
	// frame in TensorRT-LLM's package (state.go's trtllmFrame).
	trtllmFrame bool
	// consumed is how many bytes of the chunk the events cover: all of it,
	// or less when their text reached eventBudget (see replayChunk).
	consumed int
	// split holds the lines the chunk ends inside (cut by a container
	// runtime into pieces: splitLines), for the next chunk's scan.
	split splitLines
	// ray is whether a line of the chunk has Ray's prefix (rayKey), passed
	// on or not: the log's driver is then named so (Log.finish).
	ray bool
}

// eventBudget bounds the text one chunk's events hold (each event counted
// as its message and eventCost more). Most chunks pass on a few lines; a log
// of tracebacks passes on nearly every line, and its events held copies of
// whole windows, several windows at once (236 MB resident for 130 MB of
// tracebacks). A scan that reaches it stops after the line, and the rest of
// the chunk is scanned after its events are replayed (replayChunk).
var eventBudget = 1 << 20

// pieceWork bounds the bytes read for one line's Dynamo record behind a
// prefix (scanner.pieces): each of its message's lines is read behind the
// prefix again, so a long prefix before a message of many short lines (a
// hostile or broken line: a traceback's lines are not thousands, prefixes not
// kilobytes) made a line's work its length squared (a 64 KiB line, 32 KiB of
// blanks or a stern pod name before 16,000 "\n" escapes: 0.5 GB copied and
// read). The lines past it are not read, as a line's bytes past
// maxLineBytes are not.
const pieceWork = 4 * maxLineBytes

// eventCost is about the size of an event besides its message's bytes.
const eventCost = 96

// Per-chunk flags of a process key already announced to the stateful half.
const (
	seenAny = 1 << iota
	seenInfo
	seenUnranked
	seenIter // an iteration line (iterLine): the first shows the loop ran
	seenRay  // a line with Ray's mark (cutRayRepeated): the first adds its note
)

// excWindow is how many lines after an exception title may belong to it
// (a pydantic ValidationError's detail lines); state.line reads at most 40.
const excWindow = 41

// scanner holds one worker's reusable buffers.
type scanner struct {
	strip  []byte
	key    []byte
	cur    []byte
	seen   map[string]uint8
	table  [64]tableEntry
	intern map[string]string
	// events is a small log's event buffer, reused (parseSmall).
	events []event
	// json holds a docker json-file line's decoded text.
	json []byte
	// dyn holds a Dynamo JSONL record's line (dynamoLog); pfx and piece
	// are pieces' buffers; rec holds a stern JSON record's line
	// (sternRecord).
	dyn, pfx, piece, rec []byte
	// noTag is set while pieces reads a record's lines after its first,
	// which are its message's own text: no tag or rank is read there.
	noTag bool
	// shapes are the line shapes met (shapes.go).
	shapes shapes
	// split joins the pieces of lines a container runtime cut.
	split splitLines
	// bareKey is the process key of the last level-less tagged line passed
	// on that says nothing check-logs reads, while it is the last event
	// (bareAt, the chunk's events then; -1: none).
	bareKey []byte
	bareAt  int
}

func newScanner() *scanner {
	return &scanner{seen: map[string]uint8{}, intern: map[string]string{}}
}

// str returns b as a string, allocating once per distinct value per chunk.
func (sc *scanner) str(b []byte) string {
	if s, ok := sc.intern[string(b)]; ok {
		return s
	}
	if len(sc.intern) > 4096 {
		clear(sc.intern)
	}
	s := string(b)
	sc.intern[s] = s
	return s
}

// scan reads data, a run of whole lines (the last may lack its newline), and
// appends to res the events of the lines that can matter.
func (sc *scanner) scan(data []byte, res *chunkResult) { sc.scanFrom(data, res, false, nil) }

// scanFrom is scan of a chunk that may start inside a start-up failure's
// root cause (causeOpen: the state's pendingCause), whose lines are all
// passed on until a tagged line ends it, or inside lines a container
// runtime cut (split, nil when none: the state's), whose pieces go on.
func (sc *scanner) scanFrom(data []byte, res *chunkResult, causeOpen bool, split *splitLines) {
	sc.split.open = [2]bool{}
	if split != nil {
		sc.split.copyFrom(split)
	}
	clear(sc.seen)
	for i := range sc.table {
		sc.table[i].used = false
	}
	sc.bareAt = -1
	curKnown := false
	sc.cur = sc.cur[:0]
	force := excWindow // the chunk's first lines may continue an exception of the previous chunk
	// While a start-up failure's root cause may be open, state.line reads
	// every line under it (blank lines, C++ frames and traceback lines do not
	// count towards the lines it takes), until a tagged line ends it: all are
	// passed on.
	open := causeOpen
	n := 0
	// Bytes few lines hold are looked for ahead of the lines, a block at a
	// time (see nextByte): ESC (colour), the quote or parenthesis of an
	// argument dump, the E of an exception.
	esc, quote, paren, e := nextByte{at: -1}, nextByte{at: -1}, nextByte{at: -1}, nextByte{at: -1}
	// The w of a quoted error's "when" and "forward" (quotesError), which
	// few lines hold: a server's access lines hold an S ("POST").
	w := nextByte{at: -1}
	kept := 0
	off := 0
	for off < len(data) {
		rest := data[off:]
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i]
		}
		lineOff := off
		off += len(line) + 1
		n++
		if len(line) > maxLineBytes {
			line = line[:maxLineBytes]
		}
		lineEnd := lineOff + len(line)
		stripped := esc.in(data, 0x1b, lineOff, lineEnd)
		raw, joined := line, false
		if sc.split.pending() {
			// A piece of a line the runtime cut, or its last piece: the
			// line whole (its pieces' lines are no lines of their own).
			if j, took := sc.split.take(raw, n); took {
				continue
			} else if j != nil {
				line, stripped, joined = j, true, true
			}
		}
		if len(line) > len(dockerJSON) && line[0] == '{' {
			if v, ok := dockerLog(sc.json[:0], line); ok {
				// The line as the container printed it: its own bytes are
				// looked at, not the look-ahead's (as for a line with colour).
				sc.json = v
				line, stripped = sc.json, true
			}
		}
		decoded := false // a Dynamo record's line: no stern record
		if len(line) > len(dynamoJSON) && line[0] == '{' {
			if v, ok := dynamoLog(sc.dyn[:0], line); ok {
				sc.dyn = v
				line, stripped, decoded = sc.dyn, true, true
				if bytes.IndexByte(line, '\n') >= 0 {
					// A record whose message holds several lines (a
					// traceback logged with exc_info): each is passed on.
					kept += sc.pieces(nil, line, n, res, &curKnown)
					force, open = excWindow, true
					if kept >= eventBudget && off < len(data) {
						break
					}
					continue
				}
			}
		}
		if stripped {
			sc.strip = stripANSI(sc.strip[:0], line)
			line = sc.strip
		}
		for len(line) > 0 && (line[len(line)-1] == '\r' || line[len(line)-1] == '\n') {
			line = line[:len(line)-1]
		}
		if len(line) > len(sternExtJSON) && (line[0] == '{' || line[0] == ' ' || line[0] == '\t') && !decoded {
			// Pasted indented, a record reads as it would unindented.
			if v, ok := sternRecord(sc.rec[:0], trimBlank(line)); ok {
				// stern -o json or extjson: the line its default output
				// shows, its own bytes looked at.
				sc.rec = v
				line, stripped = sc.rec, true
				if bytes.IndexByte(line, 0x1b) >= 0 {
					sc.strip = stripANSI(sc.strip[:0], line)
					line = sc.strip
				}
				for len(line) > 0 && (line[len(line)-1] == '\r' || line[len(line)-1] == '\n') {
					line = line[:len(line)-1]
				}
			}
		}

		// The line's process key (sc.key), tag, level and message: from a
		// shape of line met before when the line has one (shapes.go), else
		// read.
		var tagged, pyTagged bool
		var level string
		var msg []byte
		if sh := sc.shapes.find(line); sh != nil {
			sc.key = sh.keyOf(sc.key[:0], line)
			tagged, pyTagged, level, msg = sh.kind == shapeTag, sh.py, sh.level, line[sh.n:]
		} else {
			// A line's first piece (a shape is never one: see splitLines).
			if !joined && len(raw) > criMin && (isDigit(raw[0]) || raw[0] == ' ' || raw[0] == '\t') {
				if _, took := sc.split.take(raw, n); took {
					continue
				}
			}
			var kind int
			tagged, pyTagged, level, msg, kind = sc.readPrefix(line)
			if kind != shapeNone {
				sc.learnShape(line, len(line)-len(msg), kind, pyTagged, level)
			}
		}

		if !tagged {
			if j := trimBlank(msg); len(j) > len(dynamoJSON) && j[0] == '{' && len(j) < len(line) && bytes.HasPrefix(j, []byte(dynamoJSON)) {
				// A Dynamo JSONL record behind a collector's prefix
				// (kubectl logs --prefix or --timestamps, the kubelet's
				// file, stern, srun, compose): read as the lines Dynamo's
				// readable logging prints, each behind that prefix.
				if v, ok := dynamoLog(sc.dyn[:0], j); ok {
					sc.dyn = v
					kept += sc.pieces(line[:len(line)-len(j)], sc.dyn, n, res, &curKnown)
					force, open = excWindow, true
					if kept >= eventBudget && off < len(data) {
						break
					}
					continue
				}
			}
		}

		// What the stateful half would do with the line, to decide whether it
		// must see it. cur tracks its "current" key within the chunk.
		ownKeyed := len(sc.key) > 0
		ray := rayNone
		if ownKeyed {
			if ray = rayKey(sc.key); ray != rayNone {
				res.ray = true
			}
		}
		// The raylet's and the autoscaler's lines are few and each may
		// report a worker's death (state.rayDaemonLine).
		emit := force > 0 || open || ray == rayDaemon
		// A level-less tag that says nothing read, and its process's key
		// (bareKey).
		bare, bareK := false, []byte(nil)
		// state.line reads every line without the mark Ray's log
		// deduplication puts at its end.
		text, rayRep := rayCut(msg)
		if force > 0 {
			force--
		}
		if tagged {
			var need uint8 = seenAny
			if level == "INFO" {
				need |= seenInfo
				// The iteration line as state.line reads it, not any line
				// that starts as it does ("iter = 39"): one such made a
				// later iteration line of the process, which shows the
				// loop ran, left out.
				if len(msg) > 0 && msg[0] == 'i' && iterMsg(msg) {
					need |= seenIter
				}
			}
			if pyTagged && !ownKeyed {
				need |= seenUnranked
			}
			if rayRep {
				need |= seenRay
			}
			// The process the line belongs to, as far as the chunk knows.
			k := sc.key
			switch {
			case ownKeyed:
			case pyTagged:
				k = nil
			case curKnown:
				k = sc.cur
			default:
				k = unknownKey
			}
			says := level == "ERROR" || rayRep || observedStart(msg) ||
				!iterHead(msg) && (stripped || quote.in(data, '\'', lineOff, lineEnd) || paren.in(data, '(', lineOff, lineEnd)) && mayArgs(msg)
			if level == LevelUnstated && sc.flags(k)&seenAny == 0 {
				// A tag without its level makes k's process only when
				// check-logs reads its words (state.line): it shows the
				// stateful half nothing about k until k's process is known
				// to exist, so it announces nothing, or a later leveled
				// line of k, which makes the process, was left out. It is
				// passed on, unless the line passed on last was one such
				// of k that says nothing read: nothing between changed
				// what it does.
				if says || sc.bareAt != len(res.events) || !bytes.Equal(sc.bareKey, k) {
					emit = true
				}
				bare, bareK = !says, k
			} else if sc.announce(k, need) || says {
				emit = true
			}
		} else if (stripped || e.in(data, 'E', lineOff, lineEnd)) &&
			(bytes.Contains(msg, []byte("Error: ")) || bytes.Contains(msg, []byte("Exception: "))) {
			emit = true
			force = excWindow
		} else if bare := bareText(text); observedStart(bare) ||
			!iterHead(bare) && (stripped || quote.in(data, '\'', lineOff, lineEnd) || paren.in(data, '(', lineOff, lineEnd)) && mayArgs(bare) ||
			mayEventLoop(bare) || mayNIXLError(bare) || bareEvent(bare) || mayRayDeath(bare) ||
			// A TensorRT-LLM error a server reports, read anywhere in the
			// line (state.line: Triton's tritonInstanceError, a server's
			// quote of the executor's cppForwardError), where neither
			// Abseil's E prefix nor "Error: " is: looked for only in lines
			// with the w both hold, which few lines have.
			(stripped || w.in(data, 'w', lineOff, lineEnd)) && quotesError(bare) ||
			len(bare) > 0 && bare[0] == '[' && mayHarnessFrame(dropHarnessLabel(bare)) {
			emit = true
		} else if _, ok := wrappedFrameHead(dropHarnessLabel(bare)); ok {
			// A frame whose path a wrap cut: it and the line under it, its
			// rest, are read together (state.wrappedFrame).
			emit, force = true, max(force, 1)
		} else if !res.trtllmFrame && trtllmFrame(dropHarnessLabel(bare)) {
			res.trtllmFrame = true
		}
		if tagged {
			open = false
		}
		if emit && (bytes.Contains(msg, []byte("xecutor")) || tagged && bytes.HasPrefix(msg, []byte(loadFailedPrefix))) {
			// A start-up failure's root cause follows on lines of its own
			// (a weight-loading task's error under its args' repr, too).
			force, open = excWindow, true
		}
		if emit {
			ev := event{n: n, tagged: tagged, pyTagged: pyTagged, level: level, msg: string(msg), curKnown: curKnown}
			if ownKeyed {
				ev.key = sc.str(sc.key)
			}
			if curKnown {
				ev.cur = sc.str(sc.cur)
			}
			res.events = append(res.events, ev)
			if bare {
				sc.bareKey, sc.bareAt = append(sc.bareKey[:0], bareK...), len(res.events)
			}
			if kept += len(msg) + eventCost; kept >= eventBudget && off < len(data) {
				sc.advance(ownKeyed, pyTagged, ray, &curKnown)
				break
			}
		}
		sc.advance(ownKeyed, pyTagged, ray, &curKnown)
	}
	res.lines = n
	res.consumed = min(off, len(data))
	if sc.split.pending() {
		res.split.copyFrom(&sc.split)
	}
	res.endKnown = curKnown
	if curKnown {
		res.endCur = sc.str(sc.cur)
	}
}

// pieces passes on each line of a Dynamo JSONL record (text, as its
// readable logging prints it), each behind prefix, the collector's that the
// record's line had: its message may hold several (logging's exc_info
// appends the traceback to the message, and Dynamo's LogHandler hands the
// whole of it to its JSON formatter as one "message"); readable, Dynamo
// prints them as lines of their own, the first behind its time, level and
// target, the rest bare, and they read so. They are passed on, numbered as
// the record's line, while the bytes read (the prefix again for each) stay
// within pieceWork; it returns the text kept.
func (sc *scanner) pieces(prefix, text []byte, n int, res *chunkResult, curKnown *bool) int {
	kept, work := 0, 0
	sc.pfx = append(sc.pfx[:0], prefix...) // prefix may be sc.strip's
	defer func() { sc.noTag = false }()
	for first := true; len(text) > 0; first = false {
		// The lines after the first are the message's own text (a
		// traceback, or text a request sent): TensorRT-LLM tags the first
		// line of what it logs only, and PyTorch's excepthook writes to
		// stderr, not through Dynamo's logging, so a tag or "[rankN]: "
		// there is the text's, and is not read: a request whose text held
		// "\n[TRT-LLM] [E] Failed to initialize executor on rank 0: x" made a
		// serving worker's start-up fail.
		sc.noTag = !first
		p := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			p, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if work += len(sc.pfx) + len(p); work > pieceWork {
			break
		}
		sc.piece = append(append(sc.piece[:0], sc.pfx...), p...)
		sc.strip = stripANSI(sc.strip[:0], sc.piece)
		p = bytes.TrimRight(sc.strip, "\r")
		tagged, pyTagged, level, msg, _ := sc.readPrefix(p)
		ownKeyed := len(sc.key) > 0
		ray := rayNone
		if ownKeyed {
			if ray = rayKey(sc.key); ray != rayNone {
				res.ray = true
			}
		}
		ev := event{n: n, tagged: tagged, pyTagged: pyTagged, level: level, msg: string(msg), curKnown: *curKnown}
		if ownKeyed {
			ev.key = sc.str(sc.key)
		}
		if *curKnown {
			ev.cur = sc.str(sc.cur)
		}
		res.events = append(res.events, ev)
		kept += len(msg) + eventCost
		sc.advance(ownKeyed, pyTagged, ray, curKnown)
	}
	return kept
}

// advance makes the line just read the chunk's current one, as the state
// will: its own key, or none for an unranked Python line; a line behind
// Ray's prefix (ray, rayKey's) leaves the current one, its driver's.
func (sc *scanner) advance(ownKeyed, pyTagged bool, ray int, curKnown *bool) {
	switch {
	case !ownKeyed && pyTagged:
		sc.cur, *curKnown = sc.cur[:0], true
	case !ownKeyed, ray != rayNone:
	default:
		// The key becomes the current one; its buffer is reused for the
		// next line's key (sc.key is emptied before each line).
		sc.cur, sc.key, *curKnown = sc.key, sc.cur, true
	}
}

// readPrefix reads a line's launcher prefixes, timestamps and TensorRT-LLM
// tag, as the reference parser does: it sets sc.key to the line's own
// process key and returns the tag's reading and the message. kind says
// whether the line's prefix can make a shape (shapes.go): shapeTag when the
// tag was read where the prefixes end (not found behind an unknown
// prefix), shapePlain when a launcher's label was read and no tag anywhere,
// and the message starts with a byte no reader takes.
func (sc *scanner) readPrefix(line []byte) (tagged, pyTagged bool, level string, msg []byte, kind int) {
	// Launcher prefixes, as the reference parser reads them. Text pasted
	// indented reads as it would unindented: each prefix may follow blanks.
	s := line
	sc.key = sc.key[:0]
	// A kubectl pod, compose container, Ray worker or journal process:
	// a rank adds to its key.
	named := false
	// noShape says the line makes no shape: stern's pod and container
	// were read by more of the message than its first byte (sternBare).
	noShape := false
	// reprRank is the rank a Ray actor's repr names ("RayWorkerWrapper[rank=1]").
	var reprRank []byte
	// The launchers' prefixes start with different bytes, so the first
	// one picks the reader to try (srun's, which may follow any
	// whitespace, is tried again when none matched).
	t := trimBlank(s)
	var first byte
	if len(t) > 0 {
		first = t[0]
	}
	if first == '>' {
		// A markdown quote ("> …", "> > …"): a log as an issue or a
		// guide quotes it. Each '>' takes one blank after it; the
		// line's own indentation stays.
		s, t, first = unquote(t)
	}
	if isDigit(first) {
		// srun's label, the commonest prefix of a large log, first: no
		// other reader can read a line srun's reads.
		if d, rest, ok := srunPrefix(s); ok {
			sc.key = append(append(sc.key, "srun task "...), d...)
			s = rest
		}
	}
	switch {
	case len(sc.key) > 0:
	case first == '[':
		if pod, rest, ok := kubectlPrefix(t); ok {
			sc.key = append(sc.key, pod...)
			s, named = rest, true
		} else if a, b, rest, ok := mpirunPrefix(t); ok {
			sc.key = append(append(append(append(append(sc.key, "mpirun ["...), a...), ','), b...), ']')
			s = rest
		}
	case first == '(':
		if a, b, r, rest, ok := rayPrefix(t); ok {
			sc.key = append(append(sc.key, a...), b...)
			s, named, reprRank = rest, true, r
			// A driver's prefix before its workers': the process is the
			// innermost, named by the whole chain (two engine cores'
			// workers may share a pid, each on its core's node).
			for k := 1; k < rayNested && len(s) > 0 && s[0] == '('; k++ {
				a, b, r, rest, ok := rayPrefix(s)
				if !ok {
					break
				}
				sc.key = append(append(append(sc.key, " / "...), a...), b...)
				s, reprRank = rest, r
			}
		}
	case isAlnum(first):
		if c, rest, ok := composePrefix(t); ok {
			sc.key = append(sc.key, c...)
			s, named = rest, true
		} else if id, rest, ok := journalPrefix(t); ok {
			sc.key = append(sc.key, id...)
			s, named = rest, true
		} else if pod, ctr, rest, bare, ok := sternPrefix(t); ok {
			// The pod's key as kubectl --prefix names it.
			sc.key = append(append(append(append(sc.key, "pod/"...), pod...), '/'), ctr...)
			s, named, noShape = rest, true, bare
		}
	}
	if len(sc.key) == 0 {
		if d, rest, ok := srunPrefix(s); ok {
			sc.key = append(append(sc.key, "srun task "...), d...)
			s = rest
		}
	}
	if c := collectorPrefix(s); len(c) != len(s) {
		s = criStream(c)
		if len(s) == len(c) {
			if r, ok := dynamoSubprocess(s); ok {
				// dynamo-run's engine subprocess: its line follows.
				s = r
			} else if len(sc.key) == 0 {
				// journalctl -o short-iso: the host and the process after
				// the timestamp.
				if id, rest, ok := journalTail(s); ok {
					sc.key = append(sc.key, id...)
					s, named = rest, true
				}
			}
		}
	}
	// torchrun's prefix (--tee, --redirects) before a worker's own line:
	// that worker's local rank, read as PyTorch's [rankN]: is.
	var elasticRank []byte
	if t := trimBlank(s); len(t) > 4 && t[0] == '[' {
		if r, rest, ok := elasticPrefix(t); ok {
			elasticRank, s = r, rest
		}
	}
	if len(elasticRank) == 0 {
		// A Ray actor's repr's rank, the last to decide (TensorRT-LLM's
		// own [RANK n], PyTorch's [rankN]: say the same rank).
		elasticRank = reprRank
	}
	s = trtTimePrefix(s)
	if len(sc.key) == 0 {
		if d, rest, ok := srunPrefix(s); ok {
			sc.key = append(append(sc.key, "srun task "...), d...)
			s = trtTimePrefix(rest)
		}
	}
	var rank, torchRank []byte
	msg = s
	t = trimBlank(s)
	if sc.noTag {
		// A Dynamo record's line after its first (pieces): torchrun's
		// prefix is the launcher's, before the record, as srun's is.
		sc.addRank(elasticRank, named)
		return false, false, "", msg, shapeNone
	}
	if len(t) > 0 && t[0] == '[' {
		if r, rest, ok := torchRankPrefix(t); ok {
			// PyTorch's excepthook's rank before each line of a traceback.
			torchRank, s = r, rest
			msg, t = s, trimBlank(s)
		}
	}
	if len(t) > 0 && t[0] == '[' { // every tag starts so
		tagged, pyTagged, rank, level, msg = readTag(t, msg)
		if tagged {
			kind = shapeTag
		}
	}
	if !tagged {
		if len(sc.key) > 0 && len(msg) > 0 && plainStart(msg[0]) {
			kind = shapePlain // unless a tag is found below
		}
		// A tag behind a prefix no reader knows (a logging library's
		// "2025-12-01 10:00:09,123 - TRT-LLM - INFO - " or
		// "INFO:TRT-LLM:", a collector's labels) reads as the tag would
		// alone.
		// Not inside a Dynamo record behind a prefix: its message's tag
		// is read when the record is (scanFrom), its text after the first
		// line never.
		if i := embeddedTag(t); i > 0 && !bytes.HasPrefix(t, []byte(dynamoJSON)) {
			u := t[i:]
			if tagged, pyTagged, rank, level, msg = readTag(u, msg); !tagged && versionLine(u) {
				msg = u
			}
			kind = shapeNone
		}
	}
	if len(rank) == 0 {
		rank = torchRank
	}
	if len(rank) == 0 {
		rank = elasticRank
	}
	sc.addRank(rank, named)
	if noShape {
		kind = shapeNone
	}
	return tagged, pyTagged, level, msg, kind
}

// addRank adds a line's rank to its key (sc.key): as the key when no
// launcher gave one, after a named launcher's (a pod, a container, a Ray
// worker), not to srun's or mpirun's, whose task is the process.
func (sc *scanner) addRank(rank []byte, named bool) {
	if len(rank) > 0 && (len(sc.key) == 0 || named) {
		if named {
			sc.key = append(sc.key, ' ')
		}
		sc.key = append(append(sc.key, "rank "...), rank...)
	}
}

// announce reports whether the line is the first of the chunk to show the
// stateful half that process k exists (with an INFO line, unranked): later
// ones change nothing there. A small direct-mapped table in front of the map
// answers most lines with one comparison instead of hashing the key.
func (sc *scanner) announce(k []byte, need uint8) bool {
	e := sc.entry(k)
	if e.used && bytes.Equal(e.key, k) {
		if e.flags&need == need {
			return false
		}
		e.flags |= need
		sc.seen[sc.str(k)] = e.flags
		return true
	}
	have := sc.seen[string(k)]
	e.used, e.key, e.flags = true, append(e.key[:0], k...), have|need
	if have&need == need {
		return false
	}
	sc.seen[sc.str(k)] = have | need
	return true
}

// entry is k's slot in announce's direct-mapped table.
func (sc *scanner) entry(k []byte) *tableEntry {
	h := len(k)
	if len(k) >= 2 {
		h = h*31 + int(k[len(k)-1])*7 + int(k[len(k)-2])
	}
	return &sc.table[h&(len(sc.table)-1)]
}

// flags returns what announce recorded of k in the chunk, changing nothing.
func (sc *scanner) flags(k []byte) uint8 {
	if e := sc.entry(k); e.used && bytes.Equal(e.key, k) {
		return e.flags
	}
	return sc.seen[string(k)]
}

type tableEntry struct {
	used  bool
	key   []byte
	flags uint8
}

// mayObserve is a cheap superset of the lines classify recognises (besides
// ERROR lines, which are all passed on): a message that starts with one of
// observedPrefixes, or an argument dump naming cache_transceiver_config. The
// scanner runs its halves on every line: it looks at the first byte, then at
// a few prefixes, and searches inside the line only when the line holds a
// quote or a parenthesis.
func mayObserve(msg []byte) bool { return observedStart(msg) || !iterHead(msg) && mayArgs(msg) }

// observedStart reports whether msg starts with one of observedPrefixes.
func observedStart(msg []byte) bool {
	if len(msg) == 0 {
		return false
	}
	for _, p := range observedPrefixes[msg[0]] {
		if bytes.HasPrefix(msg, p) {
			return true
		}
	}
	// The orchestrator's "[3] Servers are not ready. Waiting for […]...".
	return msg[0] == '[' && len(msg) > 4 && isDigit(msg[1]) && mayUnready(msg)
}

// mayUnready is a superset of the orchestrator's lines orchestratorUnready
// reads with their iteration ("[3] Servers are not ready. Waiting for
// […]..."): the iteration and the words, whatever it waits for. It read
// the line cut after the words' length, so a line with an iteration of 8
// digits or more lost what it waits for, and was no such line.
func mayUnready(msg []byte) bool {
	i := bytes.IndexByte(msg[:min(len(msg), 12)], ']')
	if i <= 1 || digits(msg[1:i]) != i-1 {
		return false
	}
	rest := msg[i+1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return bytes.HasPrefix(rest, []byte(orchestratorNotReady))
}

// rayCut is cutRayRepeated of a line's bytes: the line without the mark
// Ray's log deduplication puts at its end, and whether it had one. A line
// that ends with neither ']' nor ')' (after blanks) is answered by that
// byte, one that ends with ')' by a search for Ray's explanation.
func rayCut(msg []byte) ([]byte, bool) {
	e := len(msg)
	for e > 0 && (msg[e-1] == ' ' || msg[e-1] == '\t') {
		e--
	}
	if e == 0 || msg[e-1] != ']' && msg[e-1] != ')' {
		return msg, false // most lines: inlined, no call
	}
	return rayCutEnd(msg, msg[:e])
}

// rayCutEnd is rayCut of msg, t msg without the blanks at its end.
func rayCutEnd(msg, t []byte) ([]byte, bool) {
	const tail, why = "x across cluster]", " (Ray deduplicates logs by default."
	if t[len(t)-1] == ')' {
		if bytes.Index(t, []byte(why)) < 0 {
			return msg, false
		}
		t = t[:bytes.LastIndex(t, []byte(why))]
	}
	if !bytes.HasSuffix(t, []byte(tail)) {
		return msg, false
	}
	i := bytes.LastIndex(t, []byte(" [repeated "))
	if i < 0 {
		return msg, false
	}
	d := t[i+len(" [repeated ") : len(t)-len(tail)]
	if len(d) == 0 || digits(d) != len(d) {
		return msg, false
	}
	return t[:i], true
}

// bareText is a bare line's text as state.line reads it (its tm): without
// k9s's frame (unframe) and the blanks around it (strings.TrimSpace). Its
// end counts: asyncio's "Task exception was never retrieved" with a blank
// after it (a terminal's copy) is still its header, and the scanner, which
// trimmed only the start, left it out.
func bareText(msg []byte) []byte {
	if t := bytes.TrimLeft(msg, " \t"); len(t) > 0 && t[0] == k9sBar[0] && bytes.HasPrefix(t, []byte(k9sBar)) {
		rest := bytes.TrimRight(bytes.TrimPrefix(t[len(k9sBar):], []byte(" ")), " \t")
		if u, ok := bytes.CutSuffix(rest, []byte(k9sBar)); ok {
			rest = u
		}
		msg = bytes.TrimRight(rest, " \t")
	}
	return bytes.TrimSpace(msg)
}

// mayEventLoop is a cheap superset of the bare lines eventLoopLine
// and submitFrame recognise: a traceback frame in py_executor.py or in a
// worker.py, or Python's header of an exception that ended a thread.
func mayEventLoop(bare []byte) bool {
	if len(bare) == 0 || bare[0] != 'F' && bare[0] != 'E' {
		return false
	}
	return bytes.HasPrefix(bare, []byte(`File "`)) && (bytes.Contains(bare, []byte(`py_executor.py", line `)) || bytes.Contains(bare, []byte(`worker.py", line `))) ||
		bytes.HasPrefix(bare, []byte("Exception in thread "))
}

// mayHarnessFrame is the filter for a traceback's line behind a test
// harness's label (dropHarnessLabel), which state.line reads as it would
// without it: the frames mayEventLoop passes, and the proxy's frames
// (mayProxyFrame), which were left out behind it: a request's exception
// under the proxy's dispatch_result_task read as how start-up ended.
func mayHarnessFrame(t []byte) bool { return mayEventLoop(t) || mayProxyFrame(t) }

// mayNIXLError is a cheap superset of the lines nixlError recognises behind
// Abseil's prefix ("E0421 11:56:59.774282  709103 nixl_agent.cpp:259] …",
// or shortened to "E nixl_agent.cpp:545] …"); bare ones start with one of
// observedPrefixes.
func mayNIXLError(bare []byte) bool {
	return len(bare) > 2 && (bare[0] == 'E' || bare[0] == 'F') && (bare[1] == ' ' || isDigit(bare[1])) &&
		bytes.Contains(bare, []byte("] "))
}

// mayArgs reports whether msg may be an argument dump: it names
// cache_transceiver_config, with the quote of the dict form
// ('cache_transceiver_config': {…}) or the parenthesis of the repr form
// (cache_transceiver_config=CacheTransceiverConfig(…), whose values may all
// be None).
func mayArgs(msg []byte) bool {
	return (bytes.IndexByte(msg, '\'') >= 0 || bytes.IndexByte(msg, '(') >= 0) && hasArgsName(msg)
}

// argsName is the field an argument dump names; argsNameV is where its 'v',
// the byte of it that log lines hold least, lies in it.
const argsName, argsNameV = "cache_transceiver_config", 14

// hasArgsName is bytes.Contains(msg, argsName), searching for the name's
// 'v' and comparing around each: an iteration line is rich in the 'c' that
// bytes.Index looks for first (currank, ctx, scheduled), and poor in 'v'.
func hasArgsName(msg []byte) bool {
	for i := argsNameV; i < len(msg); {
		j := bytes.IndexByte(msg[i:], 'v')
		if j < 0 {
			return false
		}
		i += j
		if start := i - argsNameV; start+len(argsName) <= len(msg) && string(msg[start:start+len(argsName)]) == argsName {
			return true
		}
		i++
	}
	return false
}

// iterMsg reports whether a tagged line's message is the iteration line
// (iterLine) as state.line reads it: without Ray's mark, the blanks at its
// end and k9s's bar. A real one ("iter = 4084, global_rank = 0, …") is
// answered at once: no trimming of its end reaches the digit after
// "global_rank = ". Others that start so are rare and read as the state
// reads them ("iter = 5, global_rank = " is none: its last blank goes).
func iterMsg(msg []byte) bool {
	const next = ", global_rank = "
	if iterHead(msg) {
		i := len(iterPrefix) + digits(msg[len(iterPrefix):]) + len(next)
		if i < len(msg) && isDigit(msg[i]) {
			return true
		}
	} else if len(msg) < len(iterPrefix) || string(msg[:len(iterPrefix)]) != iterPrefix || indexOf(msg, next) < 0 {
		return false
	}
	t, _ := cutRayRepeated(string(msg))
	t = strings.TrimRight(t, " \t")
	if u, ok := strings.CutSuffix(t, k9sBar); ok {
		t = strings.TrimRight(u, " \t")
	}
	return iterLine(t)
}

// byteBlock is how far past a line nextByte looks at once: the block is
// read again by the line loop right after, from the cache (a search of the
// whole chunk first would read it from memory twice). A variable so that
// tests can make blocks end inside most lines.
var byteBlock = 32 << 10

// nextByte tracks where the next c lies in a chunk whose lines are read in
// order: one search covers every line up to the c it finds, so a byte that
// few lines hold costs about one pass, not one search per line.
type nextByte struct {
	// at is the offset of the next c, or the end of a block searched
	// without finding one (-1: nothing searched yet).
	at int
}

// in reports whether data[from:to], a line that starts after the lines
// asked about before, may hold c: true when it does, and, rarely, for a
// line across the end of a block searched in vain (the caller then checks
// the line itself).
func (nb *nextByte) in(data []byte, c byte, from, to int) bool {
	if nb.at < from {
		end := min(len(data), max(to, from+byteBlock))
		if i := bytes.IndexByte(data[from:end], c); i >= 0 {
			nb.at = from + i
		} else {
			nb.at = end
		}
	}
	return nb.at < to
}

// observedPrefixes are the starts of the messages classify and state.observe
// recognise, by first byte. TestObservedPrefixesCoverClassify keeps the two in step.
var observedPrefixes = func() (t [256][][]byte) {
	for _, p := range []string{
		"Resolved transceiver_runtime=", "Resolved use_kv_cache_manager_v2=", "Model prefers the Python transceiver",
		"Falling back to the C++ transceiver: ", "TRTLLM_USE_", "Use UCX kv-cache trans", "Using UCX kv-cache transceiver.",
		"MPI CacheTransceiver is deprecated", "UCX Connection Manager created", "NIXL Connection Manager created",
		"MOONCAKE Connection Manager created", "MPI Connection Manager created", "Enable UCX KV cache transport.", "Enable NIXL KV cache transport.", "Using KvCacheTransceiverV2", "device_id: ", "cache_transceiver is disabled", cppDisabled,
		"enable_pipelined_transfer is set;", "KV cache manager V2 ", "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1:",
		"Python cache transceiver with C++ KV cache manager detected", "Failed to initialize executor on rank ", "Fallback to regular model init",
		"Executor worker returned error", "NixlTransferAgent", "BindingsNixlTransferAgent", "Unsupported NIXL backend: ",
		"Using C++ transfer agent binding", "C++ transfer agent binding unavailable", "Using pure Python transfer agent",
		"Using Pybind transfer agent binding", "Failed to import Pybind transfer agent binding", "Forcing use of pure Python NIXL KV Transfer Agent",
		"CacheTransceiver getOrAllocateBuffers: ", "CacheFormatter::inquireSupport: ", "MLACacheFormatter::inquireSupport: ", "Terminating ", "Requesting cancellation for ", "Observed timeout on ", "Cancelled timed-out ", "KV transfer cancellation failed for request ", "Disagg KV cache transfer error: rank=", "NIXL (cpp binding) wait returned non-SUCCESS state=", "Timed out waiting for context KV cache transfer after ", "Request ", "Future returned unexpected status for request ", "num_fitting_reqs", "INFO:     Application startup complete.", "INFO:     Uvicorn running on ", "INFO:     Shutting down", "INFO:     Finished server process [",
		"Waiting for context and generation servers to be ready", orchestratorServers, orchestratorNotReady, orchestratorRouter,
		"Context and generation servers are ready", "All servers are ready", "Generation servers are ready (context", "TensorRT LLM version: ", "TensorRT-LLM version: ",
		// The version line tensorrt_llm/__init__.py prints at import has a tag
		// but no level, so it reaches the bare path whole.
		"[TensorRT-LLM] TensorRT-LLM version: ", "[TensorRT-LLM] TensorRT LLM version: ",
		// NIXL's error lines quoted without Abseil's prefix (nixlError).
		nixlNoPlugin, nixlVRAMHost, nixlRegFailed,
		// The component line of the executor's out-of-memory error (oomComponent).
		oomComponent,
		// The Python transceiver's warnings (its errors pass as ERROR lines).
		"TxSession ", "Disagg gen transfer FAILED rank=", "_deliver_kv_to_agent: session ", "NIXL transfer wait timed out after ",
		// The executor proxy's bare line as it starts its workers (state.go's mpiSessionLine).
		"rank ", "Using MpiPoolSession to spawn MPI processes", "Using MpiCommSession to bind to external MPI processes",
		// LLM.generate's progress bar (state.go's llmProgress).
		llmProgress,
	} {
		t[p[0]] = append(t[p[0]], []byte(p))
	}
	return t
}()

// unknownKey stands for "the previous chunk's current key" in a chunk's seen set.
var unknownKey = []byte("\x00previous chunk")

// stripANSI appends line to dst without CSI sequences and BEL-ended OSC
// sequences (colour and titles that collectors keep), like the regexp
// \x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07 replaced by "".
func stripANSI(dst, line []byte) []byte {
	for i := 0; i < len(line); {
		c := line[i]
		if c != 0x1b || i+1 >= len(line) {
			dst = append(dst, c)
			i++
			continue
		}
		switch line[i+1] {
		case '[':
			j := i + 2
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';' || line[j] == '?') {
				j++
			}
			for j < len(line) && line[j] >= ' ' && line[j] <= '/' {
				j++
			}
			if j < len(line) && line[j] >= '@' && line[j] <= '~' {
				i = j + 1
				continue
			}
		case ']':
			if k := bytes.IndexByte(line[i+2:], 0x07); k >= 0 {
				i = i + 2 + k + 1
				continue
			}
		}
		dst = append(dst, c)
		i++
	}
	return dst
}

func isDigit(c byte) bool { return c-'0' <= 9 }

// isSpace is RE2's \s: tab, newline, form feed, carriage return, space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func digits(s []byte) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// nDigits reports whether s starts with exactly-at-least n digits (\d{n}).
func nDigits(s []byte, n int) bool {
	if len(s) < n {
		return false
	}
	for i := 0; i < n; i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// mpirunPrefix reads ^\[(\d+),(\d+)\]<(?:stdout|stderr)>:\s?
func mpirunPrefix(s []byte) (a, b, rest []byte, ok bool) {
	if len(s) == 0 || s[0] != '[' {
		return nil, nil, s, false
	}
	i := 1
	na := digits(s[i:])
	if na == 0 {
		return nil, nil, s, false
	}
	a = s[i : i+na]
	i += na
	if i >= len(s) || s[i] != ',' {
		return nil, nil, s, false
	}
	i++
	nb := digits(s[i:])
	if nb == 0 {
		return nil, nil, s, false
	}
	b = s[i : i+nb]
	i += nb
	t := s[i:]
	if !bytes.HasPrefix(t, []byte("]<stdout>:")) && !bytes.HasPrefix(t, []byte("]<stderr>:")) {
		return nil, nil, s, false
	}
	i += len("]<stdout>:")
	if i < len(s) && isSpace(s[i]) {
		i++
	}
	return a, b, s[i:], true
}

// srunPrefix reads ^\s*(\d+):
func srunPrefix(s []byte) (d, rest []byte, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	n := digits(s[i:])
	if n == 0 || i+n+1 >= len(s) || s[i+n] != ':' || s[i+n+1] != ' ' {
		return nil, s, false
	}
	return s[i : i+n], s[i+n+2:], true
}

// collectorPrefix drops ^[ \t]*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?[ \t]
func collectorPrefix(orig []byte) []byte {
	s := trimBlank(orig)
	if len(s) < 20 || !nDigits(s, 4) || s[4] != '-' || !nDigits(s[5:], 2) || s[7] != '-' || !nDigits(s[8:], 2) ||
		(s[10] != 'T' && s[10] != ' ') || !nDigits(s[11:], 2) || s[13] != ':' || !nDigits(s[14:], 2) || s[16] != ':' || !nDigits(s[17:], 2) {
		return orig
	}
	i := 19
	if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
		i++
		i += digits(s[i:])
	}
	if i < len(s) {
		switch s[i] {
		case 'Z':
			i++
		case '+', '-':
			j := i + 1
			if nDigits(s[j:], 2) {
				j += 2
				if j < len(s) && s[j] == ':' && nDigits(s[j+1:], 2) {
					i = j + 3
				} else if nDigits(s[j:], 2) {
					i = j + 2
				}
			}
		}
	}
	if i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		return s[i+1:]
	}
	return orig
}

// criStream drops the stream and tag the kubelet writes after its timestamp
// in a container's log file (/var/log/pods/…/0.log, /var/log/containers/*.log:
// "2025-12-01T10:00:09.123456789Z stdout F [TRT-LLM] …"):
// ^(?:stdout|stderr) [PF](?: |$). P marks a piece of a line the kubelet cut
// at 16 KiB; each piece reads as a line of its own.
func criStream(s []byte) []byte {
	if len(s) < 8 || s[6] != ' ' || (string(s[:6]) != "stdout" && string(s[:6]) != "stderr") || (s[7] != 'F' && s[7] != 'P') {
		return s
	}
	if len(s) == 8 {
		return s[8:]
	}
	if s[8] == ' ' {
		return s[9:]
	}
	return s
}

// splitLines joins the pieces of lines a container runtime cut. containerd
// writes a container's line longer than max_container_log_line_size (16
// KiB by default) as pieces of that size tagged P and its rest tagged F,
// and a last line without its newline as P (its CRI logger's
// redirectLogs, verified); the stdout and stderr streams are written by
// goroutines of their own, so one stream's pieces may have the other's
// lines between them. The kubelet's parseCRILog reads the same format
// ("TIMESTAMP STREAM P|F CONTENT"; kubernetes/kubernetes
// pkg/kubelet/kuberuntime/logs/logs.go, verified) and writes a P piece's
// content without a newline: kubectl logs shows the line whole. So does
// xcvr: per stream, the first piece's line with its tag made F, then each
// later piece's content, read as one line, numbered as its last piece's (a
// Dynamo JSONL record over 16 KiB is a record again). Such a line is cut at
// maxLineBytes as any line is (the rest of its pieces is not read: a record
// longer than that is no record, as in a docker log); one whose last piece
// never comes (the log ends) is read at the end of the log, numbered as its
// last piece's. Only lines whose timestamp starts them (after blanks, as
// pasted) are pieces: behind another prefix each piece reads as a line.
// No shape is made of a piece's line (its pieces are taken before
// readPrefix) nor matches one (a shape's prefix holds its line's tag, F).
type splitLines struct {
	// buf is each stream's line so far (stdout, stderr), at most
	// maxLineBytes; open says a line is being joined.
	buf  [2][]byte
	open [2]bool
	// last is the number of the line of its last piece: in the chunk the
	// scanner reads when rel, else in the log (the state's).
	last [2]int
	rel  [2]bool
}

// criMin is the shortest piece's line: a timestamp, a stream, a tag.
const criMin = len("2025-12-01T10:00:09Z stdout P") - 1

func (sp *splitLines) pending() bool { return sp.open[0] || sp.open[1] }

// copyFrom makes sp a copy of o (its buffers its own).
func (sp *splitLines) copyFrom(o *splitLines) {
	for i := range 2 {
		sp.open[i], sp.last[i], sp.rel[i] = o.open[i], o.last[i], o.rel[i]
		sp.buf[i] = sp.buf[i][:0]
		if o.open[i] {
			sp.buf[i] = append(sp.buf[i], o.buf[i]...)
		}
	}
}

// take reads line n, when it is a piece of a line the runtime cut: a P
// piece is kept (took), the last piece of a line being joined returns the
// line whole (valid until the stream's next piece).
func (sp *splitLines) take(line []byte, n int) (joined []byte, took bool) {
	t := trimBlank(line)
	i, tag := criPiece(t)
	if i < 0 || tag == 'F' && !sp.open[0] && !sp.open[1] {
		return nil, false
	}
	s := 0
	if t[i-2] == 'r' { // stderr
		s = 1
	}
	var content []byte
	if i+1 < len(t) {
		content = t[i+2:]
	}
	if len(content) > 0 && content[len(content)-1] == '\r' {
		// A copy's CRLF: containerd ends no piece with a CR (its readLine
		// leaves a CR that \r\n straddles to the next piece).
		content = content[:len(content)-1]
	}
	switch {
	case tag == 'P' && !sp.open[s]:
		sp.buf[s] = append(append(append(sp.buf[s][:0], t[:i]...), 'F', ' '), content[:min(len(content), maxLineBytes-i-2)]...)
		sp.open[s] = true
	case !sp.open[s]:
		return nil, false
	default:
		sp.buf[s] = append(sp.buf[s], content[:min(len(content), maxLineBytes-len(sp.buf[s]))]...)
	}
	if tag == 'F' {
		sp.open[s] = false
		return sp.buf[s], false
	}
	sp.last[s], sp.rel[s] = n, true
	return nil, true
}

// criPiece reads the kubelet's container log format at t's start, the
// runtime's own (an RFC 3339 timestamp as time.RFC3339Nano writes it):
// ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}) (?:stdout|stderr) ([PF])(?: |$)
// i is where the tag is (-1: not such a line).
func criPiece(t []byte) (i int, tag byte) {
	if len(t) < criMin || !nDigits(t, 4) || t[4] != '-' || !nDigits(t[5:], 2) || t[7] != '-' || !nDigits(t[8:], 2) || t[10] != 'T' ||
		!nDigits(t[11:], 2) || t[13] != ':' || !nDigits(t[14:], 2) || t[16] != ':' || !nDigits(t[17:], 2) {
		return -1, 0
	}
	i = 19
	if i+1 < len(t) && t[i] == '.' && isDigit(t[i+1]) {
		i++
		i += digits(t[i:])
	}
	switch {
	case i < len(t) && t[i] == 'Z':
		i++
	case i+5 < len(t) && (t[i] == '+' || t[i] == '-') && nDigits(t[i+1:], 2) && t[i+3] == ':' && nDigits(t[i+4:], 2):
		i += 6
	default:
		return -1, 0
	}
	if i+8 > len(t) || t[i] != ' ' || string(t[i+1:i+7]) != "stdout" && string(t[i+1:i+7]) != "stderr" || t[i+7] != ' ' {
		return -1, 0
	}
	i += 8
	if i >= len(t) || t[i] != 'P' && t[i] != 'F' || i+1 < len(t) && t[i+1] != ' ' {
		return -1, 0
	}
	return i, t[i]
}

// dockerJSON starts each line of docker's json-file log driver
// (/var/lib/docker/containers/ID/ID-json.log):
// {"log":"<the line, JSON-escaped, with its newline>","stream":"stdout","time":"…"}
const dockerJSON = `{"log":"`

// dockerLog appends to dst the line a docker json-file record holds: the
// JSON string after {"log": up to its closing quote, decoded as
// encoding/json decodes it; ok is false when the line is not such a record
// (or its string does not decode). Most records hold plain text and the
// newline's escape: those are copied, not decoded (encoding/json's string
// per line took a 300 MB docker log 1.0 s; copied, 0.4 s).
func dockerLog(dst, line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, []byte(dockerJSON)) {
		return dst, false
	}
	i := len(dockerJSON)
	plain := true // no escape but a final \n, no control byte
	for i < len(line) && line[i] != '"' {
		switch c := line[i]; {
		case c == '\\':
			if !(i+2 < len(line) && line[i+1] == 'n' && line[i+2] == '"') {
				plain = false
			}
			i++
		case c < 0x20:
			plain = false
		}
		i++
	}
	if i >= len(line) {
		return dst, false
	}
	lit := line[len(dockerJSON)-1 : i+1]
	if body := lit[1 : len(lit)-1]; plain && utf8.Valid(body) {
		if bytes.HasSuffix(body, []byte(`\n`)) {
			return append(append(dst, body[:len(body)-2]...), '\n'), true
		}
		return append(dst, body...), true
	}
	var v string
	if json.Unmarshal(lit, &v) != nil {
		return dst, false
	}
	return append(dst, v...), true
}

// dynamoJSON starts each record of Dynamo's JSONL logging
// (DYN_LOGGING_JSONL=1): {"time":"…","level":"INFO","file":"…","line":N,
// "target":"…","message":"…",<other fields>} (JsonLog's fields in order,
// file and line left out when unknown; ai-dynamo/dynamo
// lib/runtime/src/logging.rs CustomJsonFormatter).
const dynamoJSON = `{"time":"`

// dynamoLog appends to dst the line Dynamo's readable logging prints for a
// JSONL record, "<time> <LEVEL> <target>: <message>" (the level padded to
// five, as tracing's compact format does): Python's log records, TensorRT-
// LLM's "[TRT-LLM] [I] …" among them (its "TRT-LLM" logger propagates to the
// root logger, whose handler Dynamo's configure_dynamo_logging replaces
// with its LogHandler, "%(message)s"), are the message. ok is false when the
// line is not such a record: its fields before the message must be those,
// in that order, the message a string.
func dynamoLog(dst, line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, []byte(dynamoJSON)) {
		return dst, false
	}
	i := len(dynamoJSON) - 1
	str := func(name string) ([]byte, bool) {
		if name != "time" {
			if !bytes.HasPrefix(line[i:], []byte(`,"`+name+`":`)) {
				return nil, false
			}
			i += len(name) + 4
		}
		lit, ok := jsonString(line[i:])
		i += len(lit)
		return lit, ok
	}
	tm, ok := str("time")
	if !ok {
		return dst, false
	}
	level, ok := str("level")
	if !ok {
		return dst, false
	}
	if bytes.HasPrefix(line[i:], []byte(`,"file":`)) {
		if _, ok := str("file"); !ok {
			return dst, false
		}
	}
	if bytes.HasPrefix(line[i:], []byte(`,"line":`)) {
		i += len(`,"line":`)
		d := digits(line[i:])
		if d == 0 {
			return dst, false
		}
		i += d
	}
	target, ok := str("target")
	if !ok {
		return dst, false
	}
	msg, ok := str("message")
	if !ok || i >= len(line) || (line[i] != ',' && line[i] != '}') {
		return dst, false
	}
	start := len(dst)
	dst, ok = appendJSONString(dst, tm)
	if ok {
		dst = append(dst, ' ')
		lv := len(dst)
		if dst, ok = appendJSONString(dst, level); ok {
			if n := len(dst) - lv; n < 5 {
				// Right-aligned in five, as tracing prints " INFO"; an
				// empty level ("level":"") is five blanks.
				const blanks = "     "
				dst = append(dst, blanks[:5-n]...)
				copy(dst[lv+5-n:], dst[lv:lv+n])
				copy(dst[lv:lv+5-n], blanks)
			}
			dst = append(dst, ' ')
			if dst, ok = appendJSONString(dst, target); ok {
				dst = append(dst, ':', ' ')
				dst, ok = appendJSONString(dst, msg)
			}
		}
	}
	if !ok {
		return dst[:start], false
	}
	return dst, true
}

// jsonString is the JSON string literal at the start of s, up to its first
// unescaped quote; ok is false when s does not start with one.
func jsonString(s []byte) ([]byte, bool) {
	if len(s) == 0 || s[0] != '"' {
		return nil, false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[:i+1], true
		}
	}
	return nil, false
}

// appendJSONString appends the string a JSON string literal holds, decoded
// as encoding/json decodes it (copied when it holds no escape or control
// byte and is valid UTF-8).
func appendJSONString(dst, lit []byte) ([]byte, bool) {
	body := lit[1 : len(lit)-1]
	plain := utf8.Valid(body)
	for _, c := range body {
		if c == '\\' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return append(dst, body...), true
	}
	var v string
	if json.Unmarshal(lit, &v) != nil {
		return dst, false
	}
	return append(dst, v...), true
}

// sternJSON and sternExtJSON start the records of stern's JSON outputs
// (stern's cmd/cmd.go and stern/tail.go, verified): -o json is
// "{{json .}}", encoding/json's record of its Log struct, fields in order
// ({"message":"…","nodeName":"…","namespace":"…","podName":"…",
// "containerName":"…"}, nodeName since stern 1.2x, labels and annotations
// after containerName since 1.33); -o extjson is the template
// {"pod": "{{.PodName}}", "container": "{{.ContainerName}}", "message": M}
// ("namespace": first with -A), its names not escaped (coloured on a
// terminal), M the message as a JSON string, or as it is when it is JSON
// itself (a Dynamo JSONL record).
const (
	sternJSON    = `{"message":"`
	sternExtJSON = `{"pod": "`
)

// sternRecord appends to dst the line a record of stern's JSON output
// stands for, "[pod/POD/CONTAINER] MESSAGE": kubectl logs --prefix's shape,
// which names the process as stern's own prefix does ("pod/POD/CONTAINER")
// and reads any message behind it. ok is false when the line is not such a
// record: the fields in their order, the names Kubernetes names
// ([a-z0-9.-]), the message a JSON string that decodes (extjson: the rest
// of the line up to its closing brace).
func sternRecord(dst, line []byte) ([]byte, bool) {
	if len(line) <= len(sternExtJSON) || line[0] != '{' || line[1] != '"' || line[2] != 'm' && line[2] != 'p' && line[2] != 'n' {
		return dst, false
	}
	var pod, ctr, msg []byte
	raw := false // extjson's message that is JSON itself: as it is
	if bytes.HasPrefix(line, []byte(sternJSON)) {
		i := len(sternJSON) - 1
		lit, ok := jsonString(line[i:])
		if !ok {
			return dst, false
		}
		msg, i = lit, i+len(lit)
		// field reads ,"name":"…" at i; a missing optional one is no error.
		field := func(name string, optional bool) ([]byte, bool) {
			if !bytes.HasPrefix(line[i:], []byte(`,"`+name+`":`)) {
				return nil, optional
			}
			lit, ok := jsonString(line[i+len(name)+4:])
			if ok {
				i += len(name) + 4 + len(lit)
			}
			return lit, ok
		}
		_, ok1 := field("nodeName", true)
		_, ok2 := field("namespace", false)
		p, ok3 := field("podName", false)
		c, ok4 := field("containerName", false)
		if !ok1 || !ok2 || !ok3 || !ok4 || i >= len(line) || line[i] != ',' && line[i] != '}' {
			return dst, false
		}
		pod, ctr = p[1:len(p)-1], c[1:len(c)-1]
	} else {
		rest := line[1:]
		// take reads "field": "NAME", (a name stern does not escape).
		take := func(field string) ([]byte, bool) {
			if !bytes.HasPrefix(rest, []byte(field)) {
				return nil, false
			}
			rest = rest[len(field):]
			k := bytes.IndexByte(rest, '"')
			if k < 0 || !bytes.HasPrefix(rest[k:], []byte(`", `)) {
				return nil, false
			}
			v := rest[:k]
			rest = rest[k+3:]
			return v, kubeName(v)
		}
		if bytes.HasPrefix(rest, []byte(`"namespace": "`)) {
			if _, ok := take(`"namespace": "`); !ok {
				return dst, false
			}
		}
		var ok1, ok2 bool
		pod, ok1 = take(`"pod": "`)
		ctr, ok2 = take(`"container": "`)
		const m = `"message": `
		if !ok1 || !ok2 || !bytes.HasPrefix(rest, []byte(m)) || len(rest) == len(m) || rest[len(rest)-1] != '}' {
			return dst, false
		}
		msg = rest[len(m) : len(rest)-1]
		if len(msg) > 0 && msg[0] == '"' {
			if lit, ok := jsonString(msg); !ok || len(lit) != len(msg) {
				return dst, false
			}
		} else {
			raw = true
		}
	}
	if !kubeName(pod) || !kubeName(ctr) {
		return dst, false
	}
	start := len(dst)
	dst = append(append(append(append(append(dst, "[pod/"...), pod...), '/'), ctr...), "] "...)
	if raw {
		return append(dst, msg...), true
	}
	dst, ok := appendJSONString(dst, msg)
	if !ok {
		return dst[:start], false
	}
	return dst, true
}

// kubeName reports whether b is a name as Kubernetes names pods,
// containers and namespaces: [a-z0-9.-]+.
func kubeName(b []byte) bool {
	for _, c := range b {
		if !(isDigit(c) || c >= 'a' && c <= 'z' || c == '.' || c == '-') {
			return false
		}
	}
	return len(b) > 0
}

// journalPrefix reads journalctl's default (short) prefix, a syslog date,
// the host and the process: "Dec 04 21:00:00 gpu-1 trtllm-serve[4711]: ":
// ^([A-Z][a-z]{2} [ 0-9][0-9] \d{2}:\d{2}:\d{2}(?:\.\d+)?) (\S+) ([^\s\[\]]+\[\d+\]):
// The process ("trtllm-serve[4711]") names the log's process.
func journalPrefix(s []byte) (id, rest []byte, ok bool) {
	if len(s) < 16 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'a' || s[1] > 'z' || s[2] < 'a' || s[2] > 'z' || s[3] != ' ' ||
		(s[4] != ' ' && !isDigit(s[4])) || !isDigit(s[5]) || s[6] != ' ' || !nDigits(s[7:], 2) || s[9] != ':' ||
		!nDigits(s[10:], 2) || s[12] != ':' || !nDigits(s[13:], 2) {
		return nil, s, false
	}
	i := 15
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i++
		i += digits(s[i:])
	}
	if i >= len(s) || s[i] != ' ' {
		return nil, s, false
	}
	return journalTail(s[i+1:])
}

// journalTail reads the host and the process after journalctl's timestamp:
// ^(\S+) ([^\s\[\]]+\[\d+\]):
func journalTail(s []byte) (id, rest []byte, ok bool) {
	h := 0
	for h < len(s) && !isSpace(s[h]) {
		h++
	}
	if h == 0 || h >= len(s) || s[h] != ' ' {
		return nil, s, false
	}
	j := h + 1
	k := j
	for k < len(s) && !isSpace(s[k]) && s[k] != '[' && s[k] != ']' {
		k++
	}
	if k == j || k >= len(s) || s[k] != '[' {
		return nil, s, false
	}
	d := digits(s[k+1:])
	e := k + 1 + d
	if d == 0 || e+2 >= len(s) || s[e] != ']' || s[e+1] != ':' || s[e+2] != ' ' {
		return nil, s, false
	}
	return s[j : e+1], s[e+3:], true
}

// trtTimePrefix drops ^[ \t]*\[\d{2}/\d{2}/\d{4}-\d{2}:\d{2}:\d{2}\]\s*
func trtTimePrefix(orig []byte) []byte {
	s := trimBlank(orig)
	if len(s) < 21 || s[0] != '[' || s[3] != '/' || s[6] != '/' || s[11] != '-' || s[14] != ':' || s[17] != ':' || s[20] != ']' {
		return orig
	}
	// Every other byte inside the brackets must be a digit (constant indexes
	// after the length check: no bounds checks, no loop).
	if !(isDigit(s[1]) && isDigit(s[2]) && isDigit(s[4]) && isDigit(s[5]) && isDigit(s[7]) && isDigit(s[8]) &&
		isDigit(s[9]) && isDigit(s[10]) && isDigit(s[12]) && isDigit(s[13]) && isDigit(s[15]) && isDigit(s[16]) &&
		isDigit(s[18]) && isDigit(s[19])) {
		return orig
	}
	i := 21
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// dynamoSubprocess reads, after a Dynamo readable line's timestamp, the
// level and target with which dynamo-run logs each line of its engine's
// Python subprocess (trtllm's among them: tracing::debug!("{}", line) in
// launch/dynamo-run/src/subprocess.rs, target dynamo_run::subprocess, Dynamo
// issue #1422's log): "DEBUG dynamo_run::subprocess: " and the child's line
// as it printed it, a traceback's indentation kept:
// ^[ \t]*[A-Z]+ dynamo_run::subprocess: .
func dynamoSubprocess(s []byte) ([]byte, bool) {
	t := trimBlank(s)
	i := 0
	for i < len(t) && t[i] >= 'A' && t[i] <= 'Z' {
		i++
	}
	const target = " dynamo_run::subprocess: "
	if i == 0 || !bytes.HasPrefix(t[i:], []byte(target)) {
		return s, false
	}
	return t[i+len(target):], true
}

// torchRankPrefix reads the rank PyTorch's excepthook puts before each line
// of an uncaught exception's traceback in a process that initialised
// torch.distributed (PyTorch PR #118190, "[rank{rank}]: " + line; TensorRT-
// LLM's Ray orchestrator and AutoDeploy workers do): ^\[rank(\d+)\]:(?: |$).
func torchRankPrefix(t []byte) (rank, rest []byte, ok bool) {
	if len(t) < 8 || !bytes.HasPrefix(t, []byte("[rank")) {
		return nil, t, false
	}
	d := digits(t[5:])
	i := 5 + d
	if d == 0 || i+2 > len(t) || t[i] != ']' || t[i+1] != ':' {
		return nil, t, false
	}
	if i+2 == len(t) {
		return t[5:i], t[i+2:], true
	}
	if t[i+2] != ' ' {
		return nil, t, false
	}
	return t[5:i], t[i+3:], true
}

// elasticPrefix reads the prefix torchrun puts before each line of a
// worker's output it copies to its own (--tee, or --redirects with the
// console: torch.distributed.elastic's TailLog writes f"{header}{line}",
// header f"[{name}{local_rank}]:" with the worker role for name, "default"
// unless --role is given: "[default0]:[TRT-LLM] [I] …"; tail_log.py,
// verified). rank is the local rank, the digits the name ends with:
// ^\[[A-Za-z_][A-Za-z0-9_.-]*?(\d+)\]: with a name other than "rank"
// ("[rank1]:" is PyTorch's prefix without its blank: not read).
func elasticPrefix(t []byte) (rank, rest []byte, ok bool) {
	if len(t) < 5 || t[0] != '[' || !isIdentStart(t[1]) {
		return nil, t, false
	}
	i := 2
	for i < len(t) && (isAlnum(t[i]) || t[i] == '_' || t[i] == '.' || t[i] == '-') {
		i++
	}
	if i+1 >= len(t) || t[i] != ']' || t[i+1] != ':' {
		return nil, t, false
	}
	d := i
	for isDigit(t[d-1]) { // t[1] is no digit
		d--
	}
	if d == i || string(t[1:d]) == "rank" {
		return nil, t, false
	}
	return t[d:i], t[i+2:], true
}

// readTag reads one of TensorRT-LLM's tags at the start of t; msg is
// returned unchanged when none is there.
func readTag(t, msg []byte) (tagged, pyTagged bool, rank []byte, level string, rest []byte) {
	if r, lv, rest, ok := trtllmTag(t); ok {
		return true, true, r, lv, rest
	} else if r, lv, rest, ok := cppTag(t); ok {
		return true, false, r, lv, rest
	} else if r, rest, ok := condensedTag(t); ok {
		return true, true, r, LevelUnstated, rest
	}
	return false, false, nil, "", msg
}

// embeddedTagWithin is how far into a line a tag behind an unknown prefix
// may start.
const embeddedTagWithin = 200

// embeddedTag returns where the first "[TRT-LLM]" or "[TensorRT-LLM]" that
// follows a blank, a colon or a carriage return (after a progress bar tqdm
// redraws or clears with "\r", the line a terminal shows) starts within t's
// first embeddedTagWithin bytes, or 0. Not behind an exception's title: "RuntimeError:
// [TensorRT-LLM][ERROR] Assertion failed: …" is how a C++ failure reaches
// Python, an exception, which the tag must not turn into a logged line.
func embeddedTag(t []byte) int {
	for i := 1; i < len(t) && i < embeddedTagWithin; {
		j := bytes.IndexByte(t[i:min(len(t), embeddedTagWithin)], '[')
		if j < 0 {
			return 0
		}
		i += j
		if c := t[i-1]; (c == ' ' || c == '\t' || c == ':' || c == '\r') && (bytes.HasPrefix(t[i:], []byte("[TRT-LLM]")) || bytes.HasPrefix(t[i:], []byte("[TensorRT-LLM]"))) {
			if bytes.Contains(t[:i], []byte("Error:")) || bytes.Contains(t[:i], []byte("Exception:")) || quotedError(t[:i]) {
				return 0
			}
			return i
		}
		i++
	}
	return 0
}

// quotedErrors end the words another program puts before the text of a
// TensorRT-LLM exception it caught and reports (its what(), which starts
// with the C++ logger's "[TensorRT-LLM][ERROR] "): Triton's tensorrtllm
// backend's "unexpected error when creating modelInstanceState: " (verified
// in its model_instance_state.cc), the executor's own "Encountered an error
// in forwardAsync function: " inside a server's error line (Baseten's
// Briton, TensorRT-LLM issue #5451). The tag there is quoted, not logged.
var quotedErrors = [][]byte{[]byte(tritonInstanceError), []byte(cppForwardError)}

// quotesError reports whether a bare line holds one of quotedErrors, which
// state.line reads anywhere in it. A function of its own: its two searches
// written into scanFrom made the whole loop a third slower (BenchmarkScan,
// 30 ms to 42), though they ran on no line of it.
func quotesError(bare []byte) bool {
	return bytes.Contains(bare, []byte(tritonInstanceError)) || bytes.Contains(bare, []byte(cppForwardError))
}

// quotedError reports whether pre, the text before a tag, ends with one of
// quotedErrors, or is libstdc++'s "  what():  " under its terminate line:
// the message of the uncaught exception, read with that line (crashLine).
func quotedError(pre []byte) bool {
	if bytes.HasSuffix(bytes.TrimRight(pre, " \t"), []byte("what():")) {
		return true
	}
	for _, q := range quotedErrors {
		if bytes.HasSuffix(pre, q) {
			return true
		}
	}
	return false
}

// versionLine reports whether s is the version line tensorrt_llm prints at
// import, either spelling.
func versionLine(s []byte) bool {
	return bytes.HasPrefix(s, []byte("[TensorRT-LLM] TensorRT-LLM version: ")) || bytes.HasPrefix(s, []byte("[TensorRT-LLM] TensorRT LLM version: "))
}

// trtllmTag reads TensorRT-LLM's Python logger prefix: "[TRT-LLM]", then
// groups in brackets — a rank ([RANK n] or [MPI_Rank n]), the level ([I], [W],
// [E], [F], [V]) and, after the level, a module tag ([_torch  ], [executor]) —
// each at most once, blanks between them, the level required. Releases to 1.2
// print "[TRT-LLM] [RANK 0] [I] msg"; 1.3 adds the module and may put the rank
// after it: "[TRT-LLM] [I] [_torch  ] msg", "[TRT-LLM] [I] [executor] [RANK 0] msg",
// and keeps "[TRT-LLM] [RANK 0] [E] msg". One blank after the last group is
// part of the prefix.
func trtllmTag(s []byte) (rank []byte, level string, rest []byte, ok bool) {
	if len(s) < 9 || string(s[:9]) != "[TRT-LLM]" {
		return nil, "", s, false
	}
	end := 9 // just past the last group read
	haveRank, haveModule := false, false
	for {
		j := end
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j+3 > len(s) || s[j] != '[' { // every group is 3 bytes or more
			break
		}
		g := s[j:]
		if !haveRank && (g[1] == 'R' || g[1] == 'M') {
			if r, n := rankGroup(g); n > 0 {
				rank, haveRank, end = r, true, j+n
				continue
			}
			if n := rankPlaceholder(g); n > 0 {
				// A report's "[RANK N]" for every rank: no rank of its own.
				haveRank, end = true, j+n
				continue
			}
		}
		if level == "" {
			if lv, n := levelGroup(g); n > 0 {
				level, end = lv, j+n
				continue
			}
			break // a module only follows the level
		}
		if !haveModule {
			if n := moduleGroup(g); n > 0 {
				haveModule, end = true, j+n
				continue
			}
		}
		break
	}
	if level == "" {
		// No level: a paste that dropped it ("[TRT-LLM] Failed to
		// initialize executor on rank 0: …", "[TRT-LLM] [RANK 1] …", or
		// behind another logger's level: "ERROR [TRT-LLM] …", as a NIM
		// troubleshooting recipe quotes its log). Read when text, not another
		// group, follows after a blank.
		j := end
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j == end || j >= len(s) || s[j] == '[' {
			return nil, "", s, false
		}
		level = LevelUnstated
	}
	if end < len(s) && isSpace(s[end]) {
		end++
	}
	return rank, level, s[end:], true
}

// condensedTag reads the shape people paste when they shorten 1.3's lines:
// a module tag and a rank without the logger's tag or level,
// "[_torch][RANK 0] msg" or "[executor] [RANK 1] msg".
func condensedTag(s []byte) (rank, rest []byte, ok bool) {
	n := moduleGroup(s)
	if n == 0 {
		return nil, s, false
	}
	j := n
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	r, m := rankGroup(s[j:])
	if m == 0 {
		return nil, s, false
	}
	end := j + m
	if end < len(s) && isSpace(s[end]) {
		end++
	}
	return r, s[end:], true
}

// rankGroup reads \[(?:RANK|MPI_Rank) (\d+)\] at the start of s; n is its length.
func rankGroup(s []byte) (rank []byte, n int) {
	var j int
	switch {
	case len(s) >= 6 && string(s[:6]) == "[RANK ":
		j = 6
	case len(s) >= 10 && string(s[:10]) == "[MPI_Rank ":
		j = 10
	default:
		return nil, 0
	}
	d := digits(s[j:])
	if d == 0 || j+d >= len(s) || s[j+d] != ']' {
		return nil, 0
	}
	return s[j : j+d], j + d + 1
}

// rankPlaceholder reads a rank group whose rank is a placeholder, not a
// number, at the start of s: "[RANK N]", "[MPI_Rank x]", "[RANK <rank>]"
// (1 to 16 bytes, no blank or bracket, not all digits), as a report writes
// one line for all ranks ("[TRT-LLM] [E] [executor] [RANK N] Failed to
// initialize executor on rank N:", a 1.3.0rc15 failure's write-up); n is
// its length, 0 when s starts with none.
func rankPlaceholder(s []byte) (n int) {
	var j int
	switch {
	case len(s) >= 6 && string(s[:6]) == "[RANK ":
		j = 6
	case len(s) >= 10 && string(s[:10]) == "[MPI_Rank ":
		j = 10
	default:
		return 0
	}
	k := j
	for k < len(s) && k-j <= 16 && s[k] != ']' && s[k] != '[' && !isSpace(s[k]) {
		k++
	}
	if k == j || k-j > 16 || k >= len(s) || s[k] != ']' || digits(s[j:k]) == k-j {
		return 0
	}
	return k + 1
}

// levelGroup reads \[([IWEVF])\].
func levelGroup(s []byte) (string, int) {
	if len(s) < 3 || s[0] != '[' || s[2] != ']' {
		return "", 0
	}
	switch s[1] {
	case 'I':
		return "INFO", 3
	case 'W':
		return "WARNING", 3
	case 'E', 'F':
		return "ERROR", 3
	case 'V':
		return "DEBUG", 3
	}
	return "", 0
}

// moduleGroup reads a module tag, \[[A-Za-z_][A-Za-z0-9_.]* *\] (1.3 pads the
// name with blanks to eight characters).
func moduleGroup(s []byte) int {
	if len(s) < 3 || s[0] != '[' || !isIdentStart(s[1]) {
		return 0
	}
	i := 2
	for i < len(s) && (isIdentStart(s[i]) || isDigit(s[i]) || s[i] == '.') {
		i++
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != ']' {
		return 0
	}
	return i + 1
}

func isIdentStart(c byte) bool { return c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' }

// kubectlPrefix reads kubectl logs --prefix's "[pod/NAME/CONTAINER] ":
// ^\[(pod/[^\]/\s]+/[^\]/\s]+)\] ?
func kubectlPrefix(s []byte) (pod, rest []byte, ok bool) {
	if len(s) < 9 || string(s[:5]) != "[pod/" {
		return nil, s, false
	}
	slashes := 0
	for i := 5; i < len(s); i++ {
		switch c := s[i]; {
		case c == ']':
			if slashes != 1 || s[i-1] == '/' {
				return nil, s, false
			}
			j := i + 1
			if j < len(s) && s[j] == ' ' {
				j++
			}
			return s[1:i], s[j:], true
		case c == '/':
			if s[i-1] == '/' {
				return nil, s, false
			}
			slashes++
		case isSpace(c) || c == '[':
			return nil, s, false
		}
	}
	return nil, s, false
}

// composePrefix reads the container name docker compose puts before each
// line of "docker compose up" and "docker compose logs", padded and followed
// by a bar: "ctx-1  | " (compose v2), "proj_ctx_1  | " (v1), and the same
// label with a replica's service after a slash ("replica-0/engine-prefill
// | ", as TensorRT-LLM issue #12694's disaggregated deployment printed its
// prefill and decode workers):
// ^([A-Za-z0-9][A-Za-z0-9_.-]*[-_]\d+(?:/[A-Za-z0-9][A-Za-z0-9_.-]*)?)[ \t]+\| ?
// The replica number the name (or its first part) ends with keeps a line
// that merely starts with a word and a bar (a table row) from reading as a
// container's.
func composePrefix(s []byte) (name, rest []byte, ok bool) {
	if len(s) < 5 || !isAlnum(s[0]) {
		return nil, s, false
	}
	i := 1
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-') {
		i++
	}
	d := i // the replica number is s[d:i]
	for d > 0 && isDigit(s[d-1]) {
		d--
	}
	if d == i || d < 2 || (s[d-1] != '-' && s[d-1] != '_') {
		return nil, s, false
	}
	if i+1 < len(s) && s[i] == '/' && isAlnum(s[i+1]) {
		i += 2
		for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-') {
			i++
		}
	}
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j == i || j >= len(s) || s[j] != '|' {
		return nil, s, false
	}
	j++
	if j < len(s) && s[j] == ' ' {
		j++
	}
	return s[:i], s[j:], true
}

func isAlnum(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }

// rayPrefix reads the prefix Ray's driver puts before each line it
// forwards (ray/_private/worker.py print_worker_logs, verified:
// f"({prefix_for(data)}{pid}{ip_prefix}) " and the line, colour around the
// parentheses): a worker's, "(RayWorkerWrapper pid=12345) ",
// "(RayWorkerWrapper pid=12345, ip=10.0.0.2) " (TensorRT-LLM's Ray
// orchestrator, PR #7520), "(pid=12345) ", an actor's name as Ray Serve
// names its replicas, "(ServeReplica:default:Model pid=7) "; the raylet's,
// "(raylet) ", "(raylet, ip=10.0.0.2) "; the autoscaler's, whose time since
// the driver started ("+1h2m3s", time_string) changes at each line and is
// not the process's, "(autoscaler +15m30s) " ("scheduler" in some
// releases). The process is what the parentheses hold, the autoscaler's
// without its time: key is a and b together.
//
// An actor whose class defines __repr__ is named by its class until its
// __init__ returns, then by its repr (_raylet.pyx execute_task's two
// ":actor_name:" tokens, verified; Ray's logging guide: "(MyActor(index=2)
// pid=482120)"): TensorRT-LLM's RayWorkerWrapper's is
// "RayWorkerWrapper[rank=R]" once torch.distributed is set up
// (tensorrt_llm/executor/ray_gpu_worker.py, verified), NeMo RL's the same.
// One worker is one process, so the name is its class's, the repr's rest
// (no blank in it) dropped; "[rank=R]" is its rank (rank, nil when none).
// ^\(((?:[A-Za-z_][A-Za-z0-9_.:-]*)(?:\S*) )?pid=\d+(?:, ip=[0-9A-Fa-f.:]+)?|raylet(?:, ip=…)?)\) ?
// or ^\((autoscaler|scheduler) \+(?:\d+h)?(?:\d+m)?\d+s(, ip=…)?\) ?
func rayPrefix(s []byte) (a, b, rank, rest []byte, ok bool) {
	if len(s) < 7 || s[0] != '(' {
		return nil, nil, nil, s, false
	}
	i := 1
	switch {
	case bytes.HasPrefix(s[1:], []byte("raylet)")) || bytes.HasPrefix(s[1:], []byte("raylet, ip=")):
		i += len("raylet")
	case bytes.HasPrefix(s[1:], []byte("autoscaler +")) || bytes.HasPrefix(s[1:], []byte("scheduler +")):
		j := bytes.IndexByte(s, ' ')
		a, i = s[1:j], j+2
		// (\d+h)?(\d+m)?\d+s
		for _, u := range []byte("hm") {
			if d := digits(s[i:]); d > 0 && i+d < len(s) && s[i+d] == u {
				i += d + 1
			}
		}
		d := digits(s[i:])
		if d == 0 || i+d >= len(s) || s[i+d] != 's' {
			return nil, nil, nil, s, false
		}
		i += d + 1
		ip := i
		if i = rayIP(s, i); i < 0 {
			return nil, nil, nil, s, false
		}
		b = s[ip:i]
		a, b, rest, ok = rayEnd(s, i, a, b)
		return a, b, nil, rest, ok
	default:
		start := 1 // of "pid=", or of the blank before it after a name
		if s[i] != 'p' || !bytes.HasPrefix(s[i:], []byte("pid=")) {
			if !isIdentStart(s[i]) {
				return nil, nil, nil, s, false
			}
			for i < len(s) && (isIdentStart(s[i]) || isDigit(s[i]) || s[i] == '.' || s[i] == ':' || s[i] == '-') {
				i++
			}
			a = s[1:i]
			r := i // a repr's rest
			for i < len(s) && s[i] > ' ' && s[i] < 0x7f {
				i++
			}
			if v := s[r:i]; len(v) > len("[rank=]") && bytes.HasPrefix(v, []byte("[rank=")) && v[len(v)-1] == ']' &&
				digits(v[len("[rank="):]) == len(v)-len("[rank=]") {
				rank = v[len("[rank=") : len(v)-1]
			}
			if i >= len(s) || s[i] != ' ' {
				return nil, nil, nil, s, false
			}
			start = i
			i++
		}
		if !bytes.HasPrefix(s[i:], []byte("pid=")) {
			return nil, nil, nil, s, false
		}
		i += len("pid=")
		n := digits(s[i:])
		if n == 0 {
			return nil, nil, nil, s, false
		}
		i += n
		if i = rayIP(s, i); i < 0 {
			return nil, nil, nil, s, false
		}
		a, b, rest, ok = rayEnd(s, i, a, s[start:i])
		return a, b, rank, rest, ok
	}
	if i = rayIP(s, i); i < 0 {
		return nil, nil, nil, s, false
	}
	a, b, rest, ok = rayEnd(s, i, s[1:i], nil)
	return a, b, nil, rest, ok
}

// rayIP returns where ", ip=ADDR" at s[i:] ends (i when there is none), or
// -1 when it has no address.
func rayIP(s []byte, i int) int {
	if !bytes.HasPrefix(s[i:], []byte(", ip=")) {
		return i
	}
	j := i + len(", ip=")
	k := j
	for k < len(s) && (isDigit(s[k]) || s[k] == '.' || s[k] == ':' || s[k]|0x20 >= 'a' && s[k]|0x20 <= 'f') {
		k++
	}
	if k == j {
		return -1
	}
	return k
}

// rayEnd ends rayPrefix at s[i], its closing parenthesis.
func rayEnd(s []byte, i int, a, b []byte) ([]byte, []byte, []byte, bool) {
	if i >= len(s) || s[i] != ')' {
		return nil, nil, s, false
	}
	i++
	if i < len(s) && s[i] == ' ' {
		i++
	}
	return a, b, s[i:], true
}

// rayNested is how many of Ray's prefixes one line's key takes: a driver
// that is itself a Ray worker (vLLM's engine core, a Ray Serve replica)
// forwards its workers' lines behind its own prefix, "(EngineCore_DP0
// pid=479) (RayWorkerWrapper pid=223, ip=192.168.141.7) …" (vLLM issues'
// logs); more than that is text.
const rayNested = 4

// sternPrefix reads the pod and container stern puts before each line
// ("ctx-0 main [TRT-LLM] …"; with --timestamps the timestamp follows them).
// Two bare words could start any text, so they are a pod and a container
// only when they are DNS names, the pod's with a hyphen (a controller's pods
// are NAME-HASH or NAME-N), and TensorRT-LLM's tag, its timestamp or a
// collector's follows, or one of the bare lines a TensorRT-LLM pod prints
// besides its tagged ones (sternBare: then bare is true):
// ^([a-z0-9][a-z0-9.]*-[a-z0-9.-]*[a-z0-9]) ([a-z0-9](?:[a-z0-9-]*[a-z0-9])?) (?=\[TRT-LLM\]|\[TensorRT-LLM\]|\[\d\d/\d\d/\d{4}-|\d{4}-\d\d-\d\dT|sternBare)
func sternPrefix(s []byte) (pod, container, rest []byte, bare, ok bool) {
	if pod, container, rest, bare, ok = sternNames(s); ok {
		return
	}
	// stern -A (or several namespaces) puts the namespace first:
	// ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])? then the pod and the container.
	if n := dnsName(s, false); n > 0 {
		if pod, container, rest, bare, ok = sternNames(s[n+1:]); ok {
			return
		}
	}
	return nil, nil, s, false, false
}

// dnsName is the length of the DNS name (a label, or with dot a subdomain)
// at s's start, followed by a blank; 0 when there is none.
func dnsName(s []byte, dot bool) int {
	i := 0
	for i < len(s) && (isDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] == '-' || dot && s[i] == '.') {
		i++
	}
	for i > 0 && (s[i-1] == '-' || s[i-1] == '.') {
		i-- // a name ends in a letter or digit
	}
	if i == 0 || s[0] == '-' || s[0] == '.' || i >= len(s) || s[i] != ' ' {
		return 0
	}
	return i
}

// sternNames reads stern's pod and container (sternPrefix).
func sternNames(s []byte) (pod, container, rest []byte, bare, ok bool) {
	a := dnsName(s, true)
	if a == 0 || bytes.IndexByte(s[:a], '-') < 0 {
		return nil, nil, s, false, false
	}
	b := dnsName(s[a+1:], false)
	if b == 0 {
		return nil, nil, s, false, false
	}
	r := s[a+1+b+1:]
	switch {
	case bytes.HasPrefix(r, []byte("[TRT-LLM]")), bytes.HasPrefix(r, []byte("[TensorRT-LLM]")),
		len(r) >= 4 && r[0] == '[' && nDigits(r[1:], 2) && r[3] == '/' && len(r) >= 12 && nDigits(r[4:], 2) && r[6] == '/' && nDigits(r[7:], 4) && r[11] == '-',
		len(r) >= 11 && nDigits(r, 4) && r[4] == '-' && nDigits(r[5:], 2) && r[7] == '-' && nDigits(r[8:], 2) && r[10] == 'T':
		return s[:a], s[a+1 : a+1+b], r, false, true
	case sternBare(r):
		return s[:a], s[a+1 : a+1+b], r, true, true
	}
	return nil, nil, s, false, false
}

// sternBareStarts are the starts of the bare lines a TensorRT-LLM pod prints
// besides its tagged ones, as stern shows them behind its pod and container:
// a traceback and what Python prints around one, uvicorn's lines (and
// logging's "LEVEL:name:"), the crash handlers', Abseil's (NIXL's "E0421 …"),
// Dynamo's JSONL records.
var sternBareStarts = [][]byte{[]byte("Traceback (most recent call last):"), []byte("Exception "), []byte("Exception:"),
	[]byte("Task exception "), []byte("Future exception "), []byte("During handling "), []byte("The above exception "),
	[]byte("INFO:"), []byte("WARNING:"), []byte("ERROR:"), []byte("DEBUG:"), []byte("CRITICAL:"),
	[]byte("terminate called "), []byte("!!!!!!! "), []byte("Fatal Python error: "), []byte("*** SIG"), []byte(dynamoJSON)}

// sternBare reports whether r, the message after two names, is one of the
// bare lines a pod prints besides TensorRT-LLM's tagged ones: indented (a
// traceback's frames and code, libstdc++'s "  what():", a wrapped cause), a
// start of sternBareStarts, an exception's title (a name ending in Error or
// Exception, then a colon, a blank or the end), UCX's "[1742467344.413567] …",
// PyTorch's "[rank0]: …", torchrun's "[default0]:…", a crash handler's
// "[host:pid…] …", Abseil's "E0421 …":
// [ \t]|starts|[A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception)(?:[: ]|$)|\[[0-9]|\[rank[0-9]|\[[A-Za-z_][A-Za-z0-9_.-]*[0-9]\]:|\[[A-Za-z0-9._-]+:[0-9]+[:\]]|[IWEF][0-9]{4}
func sternBare(r []byte) bool {
	if len(r) == 0 {
		return false
	}
	switch c := r[0]; {
	case c == ' ' || c == '\t':
		return true
	case c == '[':
		if len(r) > 1 && isDigit(r[1]) || len(r) > 5 && bytes.HasPrefix(r[1:], []byte("rank")) && isDigit(r[5]) {
			return true
		}
		if _, _, ok := elasticPrefix(r); ok {
			return true
		}
		i := 1
		for i < len(r) && (isAlnum(r[i]) || r[i] == '.' || r[i] == '_' || r[i] == '-') {
			i++
		}
		d := digits(r[min(i+1, len(r)):])
		return i > 1 && i < len(r) && r[i] == ':' && d > 0 && i+1+d < len(r) && (r[i+1+d] == ':' || r[i+1+d] == ']')
	case (c == 'I' || c == 'W' || c == 'E' || c == 'F') && nDigits(r[1:], 4):
		return true
	}
	for _, p := range sternBareStarts {
		if bytes.HasPrefix(r, p) {
			return true
		}
	}
	if !(isAlnum(r[0]) && !isDigit(r[0]) || r[0] == '_') {
		return false
	}
	i := 1
	for i < len(r) && (isAlnum(r[i]) || r[i] == '_' || r[i] == '.') {
		i++
	}
	name := r[:i]
	return (len(name) > len("Error") && bytes.HasSuffix(name, []byte("Error")) || len(name) > len("Exception") && bytes.HasSuffix(name, []byte("Exception"))) &&
		(i == len(r) || r[i] == ':' || r[i] == ' ')
}

// unquote drops a markdown quote's marks from t, a line that starts with
// '>' (as reQuote does): each '>' and one blank or tab after it. It returns
// the rest, the rest without leading blanks, and that one's first byte.
func unquote(t []byte) (s, rest []byte, first byte) {
	for len(t) > 0 && t[0] == '>' {
		t = t[1:]
		if len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
			t = t[1:]
		}
	}
	rest = trimBlank(t)
	if len(rest) > 0 {
		first = rest[0]
	}
	return t, rest, first
}

// trimBlank drops leading blanks and tabs: ^[ \t]*.
func trimBlank(s []byte) []byte {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

var cppLevels = []string{"INFO", "WARNING", "ERROR", "DEBUG", "TRACE", "VERBOSE"}

// cppTag reads ^\[TensorRT-LLM\](?:\[RANK (\d+)\])?\[(INFO|WARNING|ERROR|DEBUG|TRACE|VERBOSE)\]\s?
func cppTag(s []byte) (rank []byte, level string, rest []byte, ok bool) {
	if len(s) < 14 || string(s[:14]) != "[TensorRT-LLM]" {
		return nil, "", s, false
	}
	i := len("[TensorRT-LLM]")
	if bytes.HasPrefix(s[i:], []byte("[RANK ")) {
		j := i + len("[RANK ")
		if n := digits(s[j:]); n > 0 && j+n < len(s) && s[j+n] == ']' {
			rank = s[j : j+n]
			i = j + n + 1
		}
	}
	if i+2 >= len(s) || s[i] != '[' {
		return nil, "", s, false
	}
	for _, lv := range cppLevels {
		if lv[0] == s[i+1] && bytes.HasPrefix(s[i+1:], []byte(lv)) && i+1+len(lv) < len(s) && s[i+1+len(lv)] == ']' {
			i += len(lv) + 2
			if i < len(s) && isSpace(s[i]) {
				i++
			}
			return rank, lv, s[i:], true
		}
	}
	return nil, "", s, false
}
