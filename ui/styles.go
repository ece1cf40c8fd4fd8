package ui

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"xcvr/internal/report"
	"xcvr/resolver"
)

// paint is a style reduced to the escape sequences that open and close it. The
// explorer paints short plain segments thousands of times per second while keys are
// held; concatenating two precomputed strings costs one allocation where
// lipgloss.Style.Render costs dozens, which is what keeps a keypress under a
// millisecond.
type paint struct{ pre, suf string }

// newPaint renders a sentinel with st and keeps what surrounds it. Only styles
// without width, padding or borders may be reduced this way.
func newPaint(st lipgloss.Style) paint {
	r := st.Render("\x00")
	i := strings.IndexByte(r, 0)
	if i < 0 {
		return paint{}
	}
	return paint{pre: r[:i], suf: r[i+1:]}
}

// on paints s; a plain paint returns s unchanged.
func (p paint) on(s string) string {
	if p.pre == "" && p.suf == "" {
		return s
	}
	return p.pre + s + p.suf
}

// Styles is every look the explorer uses, built once per background (light or dark).
// Semantic names, not colours, so that the render code reads as what it means.
type Styles struct {
	IsDark bool
	// Plain is true when the styles carry no colour (`p`).
	Plain bool
	pal   colors

	Title, Dim, Faint, Bold    paint
	PaneTitle, PaneTitleFocus  paint
	Label, Value, Origin       paint
	Selected, SelectedBlur     paint
	Changed                    paint
	Counts, Ignored            paint
	Error, Warn                paint
	OutcomePython, OutcomeCPP  paint
	OutcomeOff, OutcomeError   paint
	LogInfo, LogWarn, LogError paint
	Verdict                    map[resolver.Verdict]paint
	Help                       help.Styles
}

// NewStyles builds the styles for a dark or light background. Colours come in
// pairs so both backgrounds stay readable; every state is also carried by a glyph or
// a word, so the explorer is still clear when colour is dropped (NO_COLOR, --color
// never, a 16-colour SSH session).
func NewStyles(isDark bool) *Styles { return newStyles(isDark, false) }

// NewPlainStyles builds the styles without any colour, keeping bold and italics,
// as a terminal without colour shows them: the in-app answer (`p`) to an SSH
// session that did not forward NO_COLOR.
func NewPlainStyles(isDark bool) *Styles { return newStyles(isDark, true) }

// palette is the hex colours of one background. Text colours are chosen for at
// least 4.5:1 contrast (WCAG AA) against the background they are meant for
// (TestContrast computes it), so the footer and the help stay readable.
type palette struct {
	green, red, yellow, blue, purple, grey, fg string
	selBg, blurBg, chgBg                       string
	// bg is the background the text colours are checked against.
	bg string
}

func paletteFor(isDark bool) palette {
	if isDark {
		return palette{green: "#3FB950", red: "#FF7B72", yellow: "#D29922", blue: "#58A6FF",
			purple: "#BC8CFF", grey: "#8B949E", fg: "#E6EDF3",
			selBg: "#1F3A5F", blurBg: "#30363D", chgBg: "#4D3800", bg: "#000000"}
	}
	return palette{green: "#1A7F37", red: "#CF222E", yellow: "#9A6700", blue: "#0969DA",
		purple: "#8250DF", grey: "#57606A", fg: "#1F2328",
		selBg: "#DDF4FF", blurBg: "#EAEEF2", chgBg: "#FFF8C5", bg: "#FFFFFF"}
}

// colors are the palette's colours for lipgloss; dim is what the editor's
// completion is drawn in.
type colors struct{ dim color.Color }

func newStyles(isDark, plain bool) *Styles {
	pal := paletteFor(isDark)
	c := func(hex string) color.Color {
		if plain {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(hex)
	}
	var (
		green  = c(pal.green)
		red    = c(pal.red)
		yellow = c(pal.yellow)
		blue   = c(pal.blue)
		purple = c(pal.purple)
		grey   = c(pal.grey)
		fg     = c(pal.fg)
		selBg  = c(pal.selBg)
		blurBg = c(pal.blurBg)
		chgBg  = c(pal.chgBg)
	)
	s := &Styles{IsDark: isDark, Plain: plain, pal: colors{dim: grey}}
	st := lipgloss.NewStyle
	s.Title = newPaint(st().Bold(true).Foreground(blue))
	s.Dim = newPaint(st().Foreground(grey))
	s.Faint = newPaint(st().Faint(true))
	s.Bold = newPaint(st().Bold(true))
	s.PaneTitle = newPaint(st().Foreground(grey))
	s.PaneTitleFocus = newPaint(st().Bold(true).Foreground(blue))
	s.Label = newPaint(st().Foreground(grey))
	s.Value = newPaint(st().Foreground(fg))
	s.Origin = newPaint(st().Foreground(grey).Italic(true))
	// Reverse video keeps the selection visible when colour is dropped; the colour
	// pair replaces it when colour is available.
	s.Selected = newPaint(st().Bold(true).Foreground(fg).Background(selBg))
	s.SelectedBlur = newPaint(st().Foreground(fg).Background(blurBg))
	s.Changed = newPaint(st().Bold(true).Foreground(yellow).Background(chgBg))
	s.Counts = newPaint(st().Foreground(green))
	s.Ignored = newPaint(st().Foreground(yellow))
	s.Error = newPaint(st().Bold(true).Foreground(red))
	s.Warn = newPaint(st().Foreground(yellow))
	s.OutcomePython = newPaint(st().Bold(true).Foreground(green))
	s.OutcomeCPP = newPaint(st().Bold(true).Foreground(purple))
	s.OutcomeOff = newPaint(st().Bold(true).Foreground(grey))
	s.OutcomeError = newPaint(st().Bold(true).Foreground(red))
	s.LogInfo = newPaint(st().Foreground(grey))
	s.LogWarn = newPaint(st().Foreground(yellow))
	s.LogError = newPaint(st().Foreground(red))
	s.Verdict = map[resolver.Verdict]paint{
		resolver.Applied:  newPaint(st().Bold(true).Foreground(green)),
		resolver.Skipped:  newPaint(st().Foreground(grey)),
		resolver.Fallback: newPaint(st().Bold(true).Foreground(yellow)),
		resolver.Error:    newPaint(st().Bold(true).Foreground(red)),
		resolver.Info:     newPaint(st().Foreground(blue)),
	}
	// bubbles' default help colours (greys 239/246/249 and the like) fall
	// under 4.5:1 on one background or the other; keys in the text colour and
	// descriptions in the palette's grey meet it on both.
	key, desc := st().Foreground(fg), st().Foreground(grey)
	s.Help = help.Styles{
		ShortKey: key, ShortDesc: desc, ShortSeparator: desc, Ellipsis: desc,
		FullKey: key, FullDesc: desc, FullSeparator: desc,
	}
	if plain {
		s.Help = help.Styles{}
	}
	return s
}

// verdictWord carries a step's verdict without colour, next to report.Glyph;
// padded so the reasons line up.
func verdictWord(v resolver.Verdict) string {
	switch v {
	case resolver.Applied:
		return "applied "
	case resolver.Skipped:
		return "skipped "
	case resolver.Fallback:
		return "fallback"
	case resolver.Error:
		return "error   "
	default:
		return "info    "
	}
}

// glyphOf is the verdict's symbol, shared with the text report so the explorer and
// `xcvr explain` never disagree.
func glyphOf(v resolver.Verdict) string { return report.Glyph(v) }

// selection returns the row paint and marker for a row: the selected row is
// highlighted (brighter when its pane has focus) and carries the "›" marker.
func (st *Styles) selection(selected, focused bool, plain, marked string) (paint, string) {
	switch {
	case !selected:
		return paint{}, plain
	case focused:
		return st.Selected, marked
	}
	return st.SelectedBlur, marked
}
