package tour

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
	"xcvr/ui"
)

// Model is the tour: a narration band on top of the real explorer. n and p move
// between scenarios, q leaves; every other key goes to the explorer, and so does
// every key while the explorer takes text (an edit box, the model picker).
type Model struct {
	stops []Scenario
	at    int
	base  ui.Options // the explorer's options; Spec is replaced per stop
	ex    ui.Model

	width, height int
	exH           int // the height the explorer was last given
	// storyTop is the first line of the story shown when the band has to
	// scroll it ([ and ] move it); a new stop starts at the top.
	storyTop    int
	bold, faint func(string) string
	// cache holds the last band: it is drawn on every frame but changes only
	// with the stop, the size or the outcome.
	cache *bandCache
}

type bandCache struct {
	at, w, h, top int
	outcome       resolver.Outcome
	lines         []string
	text          string
}

// New builds the tour over scenarios, starting at the first. opts configures each
// stop's explorer (catalog, colour); its Spec is replaced by the scenario's.
// Colour is off when opts.Color is "never".
func New(stops []Scenario, opts ui.Options) Model {
	if opts.Catalog == nil {
		// Once, not per stop: models.Builtin parses the embedded YAML each call.
		opts.Catalog = models.Builtin()
	}
	m := Model{stops: stops, base: opts, width: opts.Width, height: opts.Height, cache: &bandCache{at: -1}}
	plain := func(s string) string { return s }
	m.bold, m.faint = plain, plain
	if opts.Color != "never" {
		m.bold = func(s string) string { return "\x1b[1m" + s + "\x1b[22m" }
		m.faint = func(s string) string { return "\x1b[2m" + s + "\x1b[22m" }
	}
	m.goTo(0)
	return m
}

// At returns the index of the current stop.
func (m Model) At() int { return m.at }

// Explorer returns the explorer of the current stop, as edited so far.
func (m Model) Explorer() ui.Model { return m.ex }

// goTo presets a fresh explorer with stop i, its step in the spotlight.
func (m *Model) goTo(i int) {
	m.at, m.storyTop = i, 0
	o := m.base
	o.Spec = m.stops[i].Spec
	o.Width, o.Height = m.width, m.exHeight()
	m.ex = ui.New(o).Reserve("n", "p").Spotlight(m.stops[i].Step)
	m.exH = o.Height
	m.fit()
}

// fit gives the explorer the lines the band leaves. The band's height depends on
// the explorer's outcome (the "Now:" line), so it is checked after every change.
func (m *Model) fit() {
	if m.height <= 0 {
		return
	}
	if h := m.exHeight(); h != m.exH {
		m.exH = h
		nm, _ := m.ex.Update(tea.WindowSizeMsg{Width: m.width, Height: h})
		m.ex = nm.(ui.Model)
	}
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd { return m.ex.Init() }

// Update implements tea.Model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.exH = m.exHeight()
		return m.forward(tea.WindowSizeMsg{Width: msg.Width, Height: m.exH})
	case tea.KeyPressMsg:
		if m.ex.Capturing() {
			return m.forward(msg)
		}
		switch msg.String() {
		case "n", "pgdown":
			if m.at+1 < len(m.stops) {
				m.goTo(m.at + 1)
			}
			return m, nil
		case "p", "pgup":
			if m.at > 0 {
				m.goTo(m.at - 1)
			}
			return m, nil
		case "q", "ctrl+c":
			return m, tea.Quit
		case "]", "shift+down":
			m.scrollStory(+1)
			return m, nil
		case "[", "shift+up":
			m.scrollStory(-1)
			return m, nil
		}
	case tea.MouseClickMsg:
		mo := msg.Mouse()
		mo.Y -= m.bandHeight()
		if mo.Y < 0 {
			return m, nil
		}
		return m.forward(tea.MouseClickMsg(mo))
	}
	return m.forward(msg)
}

func (m Model) forward(msg tea.Msg) (tea.Model, tea.Cmd) {
	nm, cmd := m.ex.Update(msg)
	m.ex = nm.(ui.Model)
	m.fit()
	return m, cmd
}

// bandMin is the fewest lines the band takes: the title, a line of the story,
// the "Now:" line and the keys.
const bandMin = 4

// MinSize is the smallest terminal the tour draws in: the explorer's minimum
// and the band's.
func MinSize() (width, height int) {
	w, h := ui.MinSize()
	return w, h + bandMin
}

// View implements tea.Model: the band, then the explorer's frame below it.
// Below MinSize it says the size it needs: the explorer under a band would
// say "terminal too small (need 60×16)" in a 60x16 terminal.
func (m Model) View() tea.View {
	v := m.ex.View()
	if w, h := MinSize(); m.height > 0 && (m.width < w || m.height < h) {
		v.Content = ui.TooSmallFrame(m.width, m.height, w, h)
		v.WindowTitle = "xcvr tour"
		return v
	}
	m.band()
	v.Content = m.cache.text + "\n" + v.Content
	v.WindowTitle = "xcvr tour"
	return v
}

// bandHeight is the number of lines the narration takes at the current width.
func (m Model) bandHeight() int { return len(m.band()) }

// exHeight is what is left for the explorer.
func (m Model) exHeight() int {
	if m.height <= 0 {
		return 0
	}
	return max(m.height-m.bandHeight(), 1)
}

// band renders the narration: the stop and its title, what to look at, the one
// edit to try, how the current outcome compares with the claim, and the keys.
// When the terminal is short it gives up the rule, joins the outcome and the
// keys, and then cuts the narration, so that the explorer below keeps its
// minimum height. Scenario text comes from a file and is escaped before it
// reaches the terminal.
func (m Model) band() []string {
	c := m.cache
	o := m.ex.Trace().Result.Outcome
	if c.at == m.at && c.w == m.width && c.h == m.height && c.outcome == o && c.top == m.storyTop {
		return c.lines
	}
	lines, _ := m.drawBand()
	*c = bandCache{at: m.at, w: m.width, h: m.height, top: m.storyTop, outcome: o, lines: lines, text: strings.Join(lines, "\n")}
	return lines
}

// scrollStory moves the story window of a short terminal by d lines.
func (m *Model) scrollStory(d int) {
	_, most := m.drawBand()
	m.storyTop = clamp(m.storyTop+d, 0, most)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// drawBand returns the band and the largest storyTop that still shows
// something new (0 when the whole story fits).
func (m Model) drawBand() ([]string, int) {
	w := m.width
	if w <= 0 {
		w = 80
	}
	s := m.stops[m.at]
	wrap := func(text string) []string {
		var out []string
		for _, l := range strings.Split(ansi.Wrap(text, w, " -"), "\n") {
			out = append(out, ansi.Truncate(l, w, "…"))
		}
		return out
	}
	title := "Tour " + strconv.Itoa(m.at+1) + "/" + strconv.Itoa(len(m.stops)) + " · " + termsafe.Line(s.Title)
	head := wrap(m.bold(title))
	narr := wrap(strings.Join(strings.Fields(termsafe.Text(s.Narrate)), " "))
	look := wrap("Look at step '" + s.Step + "' (selected below).")
	var try []string
	if s.Try != "" {
		try = wrap("Try: " + termsafe.Line(s.Try))
	}
	keys := "n next · p previous · q leave the tour"
	if m.at+1 == len(m.stops) {
		keys = "last stop · p previous · q leave the tour"
	}
	now, rule := m.now(s), m.faint(strings.Repeat("─", w))
	join := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	full := join(head, narr, look, try, wrap(now), []string{m.faint(keys), rule})
	_, minH := ui.MinSize()
	budget := m.height - minH
	if m.height <= 0 || len(full) <= budget {
		return full, 0
	}
	// Too short for all of it: the title on one line, a window on the story
	// (what to look at, the narration, what to try), how the outcome compares
	// with the story, and a key line that says how much of the story is above
	// and below. The explorer keeps its minimum height whatever the length.
	budget = max(budget, bandMin)
	story := join(look, narr, try)
	win := budget - 3
	most := max(len(story)-win, 0)
	top := clamp(m.storyTop, 0, most)
	shown := story[top:min(top+win, len(story))]
	marks := ""
	if top > 0 {
		marks += " ↑" + strconv.Itoa(top)
	}
	if below := len(story) - top - len(shown); below > 0 {
		marks += " ↓" + strconv.Itoa(below)
	}
	k := "n/p stop · [ ] story" + marks + " · q leave"
	if m.at+1 == len(m.stops) {
		k = "last stop · p back · [ ] story" + marks + " · q leave"
	}
	fit := func(s string) string { return ansi.Truncate(s, w, "…") }
	return join([]string{fit(m.bold(title))}, shown, []string{fit(now), fit(m.faint(k))}), most
}

// now says what the explorer resolves to at the moment, against the claim.
func (m Model) now(s Scenario) string {
	got := m.ex.Trace().Result.Outcome
	if got == s.Expect {
		return "Now: " + outcomeWord(got) + ", as the story says."
	}
	return "Now: " + outcomeWord(got) + " (the story's was " + outcomeWord(s.Expect) + ": your edit changed it)."
}

func outcomeWord(o resolver.Outcome) string {
	switch o {
	case resolver.OutcomePython:
		return "Python transceiver"
	case resolver.OutcomeCPP:
		return "C++ transceiver"
	case resolver.OutcomeDisabled:
		return "disaggregation off"
	case resolver.OutcomeError:
		return "start-up fails"
	}
	return string(o)
}
