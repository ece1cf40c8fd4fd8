package report

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/resolver"
)

// Styles colours the explain text. The zero value prints plain text, which is what
// a pipe or NO_COLOR gets.
type Styles struct {
	// On is false for plain text.
	On bool

	Heading, Title, Dim, Inferred lipgloss.Style
	Verdict                       map[resolver.Verdict]lipgloss.Style
	Outcome                       map[resolver.Outcome]lipgloss.Style
	Log                           map[resolver.Level]lipgloss.Style
}

// PlainStyles prints without any escape sequence.
func PlainStyles() Styles { return Styles{} }

// ColorStyles uses the 16 ANSI colours, which follow the terminal's own palette
// and so stay readable on light and dark backgrounds alike.
func ColorStyles() Styles {
	s := lipgloss.NewStyle
	return Styles{
		On:       true,
		Heading:  s().Bold(true),
		Title:    s().Bold(true),
		Dim:      s().Faint(true),
		Inferred: s().Foreground(lipgloss.Magenta),
		Verdict: map[resolver.Verdict]lipgloss.Style{
			resolver.Applied:  s().Foreground(lipgloss.Green),
			resolver.Skipped:  s().Faint(true),
			resolver.Fallback: s().Foreground(lipgloss.Yellow),
			resolver.Error:    s().Foreground(lipgloss.Red).Bold(true),
			resolver.Info:     s().Foreground(lipgloss.Blue),
		},
		Outcome: map[resolver.Outcome]lipgloss.Style{
			resolver.OutcomePython:   s().Foreground(lipgloss.Green).Bold(true),
			resolver.OutcomeCPP:      s().Foreground(lipgloss.Cyan).Bold(true),
			resolver.OutcomeDisabled: s().Bold(true),
			resolver.OutcomeError:    s().Foreground(lipgloss.Red).Bold(true),
		},
		Log: map[resolver.Level]lipgloss.Style{
			resolver.LevelWarning: s().Foreground(lipgloss.Yellow),
			resolver.LevelError:   s().Foreground(lipgloss.Red),
		},
	}
}

// paint applies st only when colour is on, so plain output never carries escapes.
func (s Styles) paint(st lipgloss.Style, text string) string {
	if !s.On {
		return text
	}
	return st.Render(text)
}

// TextOptions shapes the explain text.
type TextOptions struct {
	// Width wraps long lines; 0 means 80.
	Width  int
	Styles Styles
}

// Header is the one-line summary of the inputs that matter most.
func Header(in resolver.Inputs) string {
	model := in.Model.Value.Arch
	if model == "" {
		model = "no architecture"
	}
	backend := in.Backend.Value.String()
	if !in.Backend.Value.Valid {
		backend = "none"
	}
	runtime := "unset"
	if in.Runtime.Given() {
		runtime = in.Runtime.Value.Repr()
	}
	return "TensorRT-LLM " + in.Version.Name + " (era " + strconv.Itoa(in.Version.Era) + ") · " + model +
		" · backend " + backend + " · runtime " + runtime
}

// Text renders the numbered chain, the outcome and the log lines TensorRT-LLM prints.
func Text(t resolver.Trace, o TextOptions) string {
	t = Safe(t)
	w := o.Width
	if w <= 0 {
		w = 80
	}
	st := o.Styles
	var b strings.Builder
	b.WriteString(wrap(st.paint(st.Heading, Header(t.Inputs)), w, ""))
	b.WriteString("\n\n")
	const indent = "       "
	for i, s := range t.Steps {
		num := strconv.Itoa(i + 1)
		if i+1 < 10 {
			num = " " + num
		}
		word := string(s.Verdict)
		tag := st.paint(st.Verdict[s.Verdict], Glyph(s.Verdict)+" "+padRight(word, 8))
		b.WriteString(hanging(num+". "+tag+" ", st.paint(st.Title, s.Title), w))
		b.WriteByte('\n')
		b.WriteString(wrap(s.Reason, w, indent))
		b.WriteByte('\n')
		meta := s.Source.String()
		if meta == "" && s.Verdict == resolver.Skipped {
			// A step the chain never reached has nothing more to say.
			continue
		}
		conf := string(s.Confidence)
		if s.Confidence == resolver.Inferred {
			conf = st.paint(st.Inferred, "inferred")
		} else {
			conf = st.paint(st.Dim, conf)
		}
		if meta != "" {
			meta = st.paint(st.Dim, meta) + st.paint(st.Dim, " · ") + conf
		} else {
			meta = conf
		}
		b.WriteString(wrap(meta, w, indent))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	res := t.Result
	// The outcome and the log lines are never wrapped: operators copy and grep them.
	b.WriteString(st.paint(st.Heading, "Outcome: ") + st.paint(st.Outcome[res.Outcome], OutcomeLine(res)) + "\n")
	if details := outcomeDetails(t); details != "" {
		b.WriteString(wrap(details, w, "  "))
		b.WriteByte('\n')
	}
	if res.Hint != "" {
		b.WriteString(wrap(st.paint(st.Heading, "Fix: ")+res.Hint, w, "  "))
		b.WriteByte('\n')
	}
	if res.Outcome == resolver.OutcomeError && strings.Contains(res.Error, "\n") {
		b.WriteString("\n" + st.paint(st.Heading, "Exception") + "\n")
		for _, line := range strings.Split(res.Error, "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n" + st.paint(st.Heading, "Log lines you should see") + "\n")
	if len(t.Logs) == 0 {
		b.WriteString(st.paint(st.Dim, "  (none from these steps)") + "\n")
	}
	for _, l := range t.Logs {
		b.WriteString("  " + st.paint(st.Log[l.Level], LogPrefix(l.Level)+l.Message) + "\n")
	}
	if hasInfo(t.Logs) {
		b.WriteString(st.paint(st.Dim, wrap("INFO lines appear only at log level info (TLLM_LOG_LEVEL=INFO or trtllm-serve --log_level info).", w, "  ")) + "\n")
	}
	return b.String()
}

func hasInfo(logs []resolver.LogLine) bool {
	for _, l := range logs {
		if l.Level == resolver.LevelInfo {
			return true
		}
	}
	return false
}

func outcomeDetails(t resolver.Trace) string {
	r := t.Result
	var parts []string
	if r.EffectiveBackend.Valid {
		parts = append(parts, "backend "+r.EffectiveBackend.S+" ("+r.BackendSource+")")
	}
	if r.RuntimeKnown && r.Outcome != resolver.OutcomeDisabled {
		parts = append(parts, "transceiver_runtime "+r.ResolvedRuntime.Repr()+" after config load")
	}
	if r.KVManager.Valid {
		kv := "KV-cache manager " + r.KVManager.S
		if r.CacheManagerClass != "" {
			kv += " (" + r.CacheManagerClass + ")"
		}
		parts = append(parts, kv)
	}
	if r.EnvSet != "" {
		parts = append(parts, "TensorRT-LLM sets "+r.EnvSet+" in the worker's environment")
	}
	if r.RequestError != "" {
		parts = append(parts, "the worker starts and refuses every disaggregated request: "+r.RequestError)
	}
	// Every outcome names its deciding step by number and title, as the
	// explorer does: "raised at step 17 (…)" for a failure, "decided at step
	// 4 (…)" for a transceiver or disaggregation off. The step's id is the
	// fallback when the trace does not hold the step that raised.
	if at := DecidedAt(&t); at != "" {
		parts = append(parts, at)
	} else if r.FailedStep != "" {
		parts = append(parts, "raised at step '"+r.FailedStep+"'")
	}
	return strings.Join(parts, " · ")
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

// hanging wraps text after prefix, indenting continuation lines under the text.
func hanging(prefix, text string, w int) string {
	pw := width(prefix)
	lines := strings.Split(wrap(text, w-pw, ""), "\n")
	pad := strings.Repeat(" ", pw)
	for i := range lines {
		if i == 0 {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// wrap word-wraps s to width w, indenting every line (the first included) by
// indent; ANSI sequences are kept intact and never counted.
func wrap(s string, w int, indent string) string {
	avail := w - width(indent)
	if avail < 20 {
		avail = 20
	}
	lines := strings.Split(wrapSpaces(s, avail), "\n")
	for i, l := range lines {
		lines[i] = indent + strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// width is ansi.StringWidth, without its grapheme segmentation for printable
// ASCII (most of a report), where every byte is one column.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// wrapSpaces breaks s only at spaces, so a FILE:LINE, a date or a flag such as
// gen-invalid.yaml:10, 2026-08-28 or --log_level is never split at its hyphen and
// stays copyable and greppable; only a word longer than a whole line is cut.
func wrapSpaces(s string, w int) string {
	var b strings.Builder
	for pi, para := range strings.Split(s, "\n") {
		if pi > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for _, word := range strings.Split(para, " ") {
			ww := width(word)
			switch {
			case col == 0:
			case col+1+ww <= w:
				b.WriteByte(' ')
				col++
			default:
				b.WriteByte('\n')
				col = 0
			}
			if ww > w {
				cut := ansi.Hardwrap(word, w, true)
				b.WriteString(cut)
				col = ansi.StringWidth(cut[strings.LastIndexByte(cut, '\n')+1:])
				continue
			}
			b.WriteString(word)
			col += ww
		}
	}
	return b.String()
}
