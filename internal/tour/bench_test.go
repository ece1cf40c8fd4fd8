package tour

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkTourKeyChangesInput is the explorer's input-changing key (backend →)
// inside the tour at 120x40: the explorer's Update and View plus the band.
func BenchmarkTourKeyChangesInput(b *testing.B) {
	m := newTour(&testing.T{}, 120, 40)
	m, _ = send(&testing.T{}, m, "tab", "down", "down")
	right := press("right")
	b.ReportAllocs()
	for b.Loop() {
		nm, _ := m.Update(right)
		m = nm.(Model)
		_ = m.View()
	}
}

// BenchmarkTourNextStop is n: a fresh explorer preset with the next stop.
func BenchmarkTourNextStop(b *testing.B) {
	m := newTour(&testing.T{}, 120, 40)
	n, p := press("n"), press("p")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := n
		if i%2 == 1 {
			k = p
		}
		nm, _ := m.Update(k)
		m = nm.(Model)
		_ = m.View()
	}
}

// The tour stays inside the explorer's keypress budget (2,000 allocations).
func TestTourKeyBudget(t *testing.T) {
	m := newTour(t, 120, 40)
	m, _ = send(t, m, "tab", "down", "down")
	var msg tea.Msg = press("right")
	allocs := testing.AllocsPerRun(20, func() {
		nm, _ := m.Update(msg)
		m = nm.(Model)
		_ = m.View()
	})
	if allocs >= 2000 {
		t.Errorf("an input-changing key in the tour allocates %v times; budget is 2,000", allocs)
	}
	t.Logf("allocations per input-changing key in the tour at 120x40: %v", allocs)
	m = newTour(t, 120, 40)
	n, p := press("n"), press("p")
	i := 0
	allocs = testing.AllocsPerRun(20, func() {
		k := n
		if i++; i%2 == 0 {
			k = p
		}
		nm, _ := m.Update(k)
		m = nm.(Model)
		_ = m.View()
	})
	if allocs >= 2000 {
		t.Errorf("n/p (a fresh explorer per stop) allocates %v times; budget is 2,000", allocs)
	}
	t.Logf("allocations per n/p at 120x40: %v", allocs)
}
