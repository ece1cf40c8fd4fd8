package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every binding the explorer answers to. The help bar is generated from
// it, so what the bar says is always what the keys do.
type KeyMap struct {
	Up, Down    key.Binding
	Left, Right key.Binding
	NextPane    key.Binding
	PrevPane    key.Binding
	Choose      key.Binding
	Edit        key.Binding
	Filter      key.Binding
	CopyChain   key.Binding
	CopyYAML    key.Binding
	Reset       key.Binding
	Help        key.Binding
	Quit        key.Binding
	Back        key.Binding
	ForceQuit   key.Binding
	// Compare opens the compare view; OtherPrev/OtherNext pick its second version.
	Compare, OtherPrev, OtherNext key.Binding
	// Matrix opens the matrix view.
	Matrix key.Binding
	// Role switches which role of a disaggregated YAML the inputs edit.
	Role key.Binding
	// Plain turns colour off and on (NO_COLOR is rarely forwarded over SSH).
	Plain key.Binding
	// NextStep and PrevStep jump between the steps that decided something.
	NextStep, PrevStep key.Binding
	// CopyCmd copies the xcvr explain command line that reproduces the screen.
	CopyCmd key.Binding
	// Outcome shows the whole outcome (exception, fix, log lines), scrollable.
	Outcome key.Binding

	editing, picks, comparing, matrix, roles, outcome bool
	// filtering is set while the model filter is typed into: k and j are text
	// there, so the bar must not offer them.
	filtering bool
	// enter is what enter does on the selected input row ("pick model", ...).
	enter string
}

// DefaultKeyMap returns the explorer's bindings: arrows and j/k, tab between
// panes, enter/space to choose, / to filter, c and y to copy, r to reset, q to quit.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		// ctrl+z is handled before the bindings: it always suspends.
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous value")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next value")),
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Choose:    key.NewBinding(key.WithKeys("enter", "space"), key.WithHelp("enter/space", "type, pick, toggle or next value (the bar says which)")),
		Edit:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit raw value")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		CopyChain: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy chain (Markdown)")),
		CopyYAML:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy YAML")),
		Reset:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reset")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Compare:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "compare")),
		OtherPrev: key.NewBinding(key.WithKeys("<", ","), key.WithHelp("<", "older 2nd version")),
		OtherNext: key.NewBinding(key.WithKeys(">", "."), key.WithHelp(">", "newer 2nd version")),
		Matrix:    key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "matrix")),
		Role:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "edit the other role")),
		Plain:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "colour on/off")),
		NextStep:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/previous deciding step")),
		PrevStep:  key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous deciding step")),
		CopyCmd:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "copy the xcvr explain command line")),
		Outcome:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "whole outcome (scrolls)")),
	}
}

// ShortHelp implements help.KeyMap: the one-line bar.
func (k KeyMap) ShortHelp() []key.Binding {
	switch {
	case k.editing:
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
			key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
			key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "other completion")),
			key.NewBinding(key.WithKeys("ctrl+w"), key.WithHelp("ctrl+w", "delete word")),
			k.ForceQuit,
		}
	case k.picks && k.filtering:
		return []key.Binding{moveHelp,
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pick")),
			key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear/back")), k.ForceQuit}
	case k.picks:
		return []key.Binding{k.Up, k.Down,
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pick")),
			k.Filter, k.Back, k.ForceQuit}
	case k.outcome:
		return []key.Binding{key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "scroll")),
			key.NewBinding(key.WithKeys("o", "esc"), key.WithHelp("o/esc", "back")), copyHelp, k.Quit}
	case k.matrix:
		return []key.Binding{cellHelp,
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open chain")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc/m", "back")), k.Help, k.Quit}
	case k.comparing:
		return []key.Binding{moveHelp, otherHelp,
			key.NewBinding(key.WithKeys("v"), key.WithHelp("v/esc", "close compare")),
			k.NextPane, valueHelp, k.Help, k.Quit}
	}
	// Ordered by use, because the bar is cut at the right on narrow terminals:
	// moving and what enter does on this row, then help and quit, then the views
	// and copies an operator reaches for, then the rest. With two roles,
	// switching them comes early: without it half the file is out of reach.
	enter := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", k.enter))
	if k.enter == "" {
		enter = chooseHelp
	}
	out := []key.Binding{moveHelp}
	if k.roles {
		out = append(out, k.Role)
	}
	step := stepHelp
	if !k.NextStep.Enabled() {
		step = k.PrevStep // n is reserved by a wrapper (the tour)
	}
	return append(out, enter, valueHelp, k.Help, k.Quit, k.NextPane, compareHelp, matrixHelp, step, editHelp, cmdHelp, yamlHelp,
		copyHelp, outcomeHelp, k.Filter, k.Reset, k.Plain)
}

// Display-only bindings: the short bar names pairs of keys once, so more of them fit.
var (
	moveHelp    = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "move"))
	valueHelp   = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←→", "value"))
	chooseHelp  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose"))
	copyHelp    = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy chain"))
	yamlHelp    = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yaml"))
	cmdHelp     = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "copy cmd"))
	compareHelp = key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "compare"))
	matrixHelp  = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "matrix"))
	stepHelp    = key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n/N", "step"))
	editHelp    = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit"))
	outcomeHelp = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "outcome"))
	otherHelp   = key.NewBinding(key.WithKeys("<", ">"), key.WithHelp("<>", "2nd version"))
	cellHelp    = key.NewBinding(key.WithKeys("up", "down", "left", "right"), key.WithHelp("↑↓←→", "cell"))
	roleHelp    = key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "edit the other role (both roles of a --disagg file)"))
	filterHelp  = key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the focused list (chain steps, matrix rows, models)"))
	suspendHelp = key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)"))
	mouseHelp   = key.NewBinding(key.WithKeys("mouse"), key.WithHelp("mouse", "click selects, a 2nd click is enter, the wheel scrolls"))
)

// FullHelp implements help.KeyMap: the `?` view, grouped by purpose.
func (k KeyMap) FullHelp() [][]key.Binding {
	if k.editing || k.picks || k.outcome {
		return [][]key.Binding{k.ShortHelp()}
	}
	if k.matrix {
		// Only what the matrix answers to; the explore keys do nothing here.
		return [][]key.Binding{
			{cellHelp, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the cell's chain")),
				key.NewBinding(key.WithKeys("esc", "m"), key.WithHelp("esc/m", "back")), k.Filter, k.Plain, k.Help, k.Quit, suspendHelp},
		}
	}
	role := k.Role
	if !k.roles {
		role = roleHelp // listed even without two roles, so it can be found
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.NextPane, k.PrevPane, role},
		{k.Choose, k.Left, k.Right, k.Edit},
		{k.NextStep, k.Outcome, filterHelp, k.Reset},
		{k.CopyChain, k.CopyYAML, k.CopyCmd},
		{k.Compare, k.OtherPrev, k.OtherNext, k.Matrix},
		{k.Plain, k.Help, k.Back, k.Quit, suspendHelp, mouseHelp},
	}
}
