package ui

import (
	"slices"
	"strconv"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/colorprofile"
)

// Spotlight returns the model with the step id selected and expanded in the chain
// pane, which gets the focus, and marked as changed until the next input change.
// The guided tour (internal/tour) uses it to point at the step a scenario is
// about; an unknown id leaves the model as it is.
func (m Model) Spotlight(id string) Model {
	for i, s := range m.trace.Steps {
		if s.ID != id {
			continue
		}
		m.focus = paneChain
		m.step = i
		m.expanded = true
		m.changed = map[string]bool{id: true}
		m.rev++
		return m
	}
	return m
}

// Reserve hands keys to a wrapper: the tour takes n and p for its own next and
// previous stop, so the explorer's next deciding step (n) and colour toggle (p)
// are switched off there, and neither the key bar, the help nor the chain's hint
// offers them. N still goes to the previous deciding step.
func (m Model) Reserve(keys ...string) Model {
	for _, k := range keys {
		for _, b := range []*key.Binding{&m.keys.NextStep, &m.keys.Plain} {
			if slices.Contains(b.Keys(), k) {
				b.SetEnabled(false)
			}
		}
	}
	return m
}

// Capturing reports whether the explorer is taking text (an edit box or the
// model picker's filter), so a wrapper must pass every key through: an 'n' typed
// into a model name is not the tour's "next".
func (m Model) Capturing() bool { return m.edit.active || m.pick.open }

// ColorProfile is the colour decision Run makes from opts (Profile, Color and a
// non-empty NO_COLOR in Environ); ok is false when detection from Out and
// Environ should decide. xcvr serve applies it to each session's environment.
func ColorProfile(opts Options) (colorprofile.Profile, bool) { return colorProfile(opts) }

// MinSize is the smallest terminal the explorer draws in; below it, it shows
// "terminal too small". A wrapper that takes lines for itself (the tour's
// narration) keeps at least this much for the explorer.
func MinSize() (width, height int) { return minWidth, minHeight }

// TooSmallFrame is the frame of w x h cells the explorer draws below its
// minimum size, with needW x needH as the size it needs; a wrapper whose
// minimum is larger (the tour: the explorer's and its band) draws its own.
func TooSmallFrame(w, h, needW, needH int) string {
	return placeCenter("terminal too small (need "+strconv.Itoa(needW)+"×"+strconv.Itoa(needH)+")", w, h)
}
