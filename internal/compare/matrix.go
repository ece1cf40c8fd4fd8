package compare

import (
	"errors"
	"strings"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// Axis is one input a matrix varies.
type Axis string

// The three axes; the one that is neither rows nor columns is held fixed at the
// base inputs' value.
const (
	AxisModel   Axis = "model"
	AxisBackend Axis = "backend"
	AxisVersion Axis = "version"
)

// Axes lists the axes in the order --rows/--cols document them.
func Axes() []Axis { return []Axis{AxisModel, AxisBackend, AxisVersion} }

// ParseAxis reads "model(s)", "backend(s)" or "version(s)".
func ParseAxis(s string) (Axis, error) {
	switch strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "s") {
	case "model":
		return AxisModel, nil
	case "backend":
		return AxisBackend, nil
	case "version":
		return AxisVersion, nil
	}
	return "", errors.New("axis " + quote(s) + ": want model, backend or version")
}

func quote(s string) string { return "\"" + s + "\"" }

// Cell is one resolution in a grid.
type Cell struct {
	Model   string // the architecture, "" for none
	Backend string // as typed: "DEFAULT", "UCX", ..., "none"
	Version string
	Outcome resolver.Outcome
	// ResolvedRuntime is transceiver_runtime after config load; RuntimeKnown is
	// false when validation failed before it.
	ResolvedRuntime resolver.PyStr
	RuntimeKnown    bool
	// FailedStep is the step that raised, "" unless Outcome is ERROR.
	FailedStep string
}

// Grid is a set of inputs that differ only by model, backend and version.
type Grid struct {
	// Base supplies every other input (runtime, timeout, loader, environment).
	Base     resolver.Inputs
	Models   []string
	Backends []string
	Versions []resolver.Version
}

// DefaultGrid is every catalog model × every backend × every known version, the
// other inputs taken from base.
func DefaultGrid(base resolver.Inputs, cat *models.Catalog) Grid {
	g := Grid{Base: base, Backends: inputs.Backends(), Versions: resolver.KnownVersions()}
	for _, e := range cat.Entries() {
		g.Models = append(g.Models, e.Arch)
	}
	return g
}

// Size is the number of cells of the grid.
func (g Grid) Size() int { return len(g.Models) * len(g.Backends) * len(g.Versions) }

// Evaluate resolves every cell of g into out (grown if too small) and returns it,
// ordered version-major, then model, then backend. One Inputs value is reused for
// every cell and the catalog is consulted once per model and version, so the only
// per-cell work is Resolve itself.
func Evaluate(g Grid, cat *models.Catalog, out []Cell) []Cell {
	n := g.Size()
	if cap(out) < n {
		out = make([]Cell, n)
	}
	out = out[:n]
	backends := make([]resolver.Field[resolver.PyStr], len(g.Backends))
	for i, b := range g.Backends {
		backends[i] = backendField(b)
	}
	infos := make([]resolver.ModelInfo, len(g.Models))
	in := g.Base
	i := 0
	for _, v := range g.Versions {
		in.Version = v
		for mi, m := range g.Models {
			infos[mi] = cat.Lookup(m, v)
		}
		for mi, m := range g.Models {
			in.Model.Value = infos[mi]
			for bi, b := range g.Backends {
				in.Backend = backends[bi]
				t := resolver.Resolve(in)
				out[i] = Cell{Model: m, Backend: b, Version: v.Name, Outcome: t.Result.Outcome,
					ResolvedRuntime: t.Result.ResolvedRuntime, RuntimeKnown: t.Result.RuntimeKnown,
					FailedStep: t.Result.FailedStep}
				i++
			}
		}
	}
	return out
}

// backendField is the backend input for a typed choice, as inputs.Build makes it:
// "none" is an explicit null, which turns disaggregation off.
func backendField(b string) resolver.Field[resolver.PyStr] {
	origin := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"}
	switch b {
	case "none", "null", "":
		return resolver.Field[resolver.PyStr]{Origin: origin}
	}
	return resolver.Field[resolver.PyStr]{Value: resolver.Str(b), Origin: origin}
}

// Matrix is a two-dimensional slice of a grid: rows × columns with the third axis
// fixed.
type Matrix struct {
	// Rows and Cols are the two axes that vary.
	Rows, Cols Axis
	// Fixed is the axis held fixed and FixedKey its value.
	Fixed    Axis
	FixedKey string
	// RowKeys and ColKeys name the rows and columns: architectures, backends as
	// typed ("none" for off) or version names.
	RowKeys []string
	ColKeys []string
	// Cells are row-major: Cells[r*len(ColKeys)+c].
	Cells []Cell
	// Base is the inputs every cell shares apart from the three axes.
	Base resolver.Inputs
}

// At returns the cell at row r, column c.
func (m Matrix) At(r, c int) Cell { return m.Cells[r*len(m.ColKeys)+c] }

// NewMatrix resolves base over rows × cols (all catalog models, all backends or
// all known versions), holding the third axis at base's value.
func NewMatrix(base resolver.Inputs, rows, cols Axis, cat *models.Catalog) (Matrix, error) {
	if rows == cols {
		return Matrix{}, errors.New("--rows and --cols must differ (both are " + string(rows) + ")")
	}
	for _, a := range []Axis{rows, cols} {
		if _, err := ParseAxis(string(a)); err != nil {
			return Matrix{}, err
		}
	}
	full := DefaultGrid(base, cat)
	g := Grid{Base: base, Models: full.Models, Backends: full.Backends, Versions: full.Versions}
	m := Matrix{Rows: rows, Cols: cols, Base: base}
	for _, a := range Axes() {
		if a != rows && a != cols {
			m.Fixed = a
		}
	}
	switch m.Fixed {
	case AxisModel:
		g.Models = []string{base.Model.Value.Arch}
		m.FixedKey = base.Model.Value.Arch
	case AxisBackend:
		b := "none"
		if base.Backend.Value.Valid {
			b = base.Backend.Value.S
		}
		g.Backends = []string{b}
		m.FixedKey = b
	case AxisVersion:
		g.Versions = []resolver.Version{base.Version}
		m.FixedKey = base.Version.Name
	}
	keys := func(a Axis) []string {
		switch a {
		case AxisModel:
			return g.Models
		case AxisBackend:
			return g.Backends
		}
		names := make([]string, len(g.Versions))
		for i, v := range g.Versions {
			names[i] = v.Name
		}
		return names
	}
	m.RowKeys, m.ColKeys = keys(rows), keys(cols)
	cells := Evaluate(g, cat, nil)
	// Evaluate's order is version, model, backend; index each cell by its keys.
	pos := func(a Axis, c Cell) int {
		var k string
		switch a {
		case AxisModel:
			k = c.Model
		case AxisBackend:
			k = c.Backend
		default:
			k = c.Version
		}
		for i, x := range keys(a) {
			if x == k {
				return i
			}
		}
		return -1
	}
	m.Cells = make([]Cell, len(m.RowKeys)*len(m.ColKeys))
	for _, c := range cells {
		m.Cells[pos(rows, c)*len(m.ColKeys)+pos(cols, c)] = c
	}
	return m, nil
}

// CellInputs returns the inputs of one cell, for opening its full chain: the base
// with the cell's model, backend and version.
func (m Matrix) CellInputs(r, c int, cat *models.Catalog) (resolver.Inputs, error) {
	cell := m.At(r, c)
	v, err := resolver.ParseVersion(cell.Version)
	if err != nil {
		return resolver.Inputs{}, err
	}
	in := m.Base
	in.Version = v
	in.Model.Value = cat.Lookup(cell.Model, v)
	in.Backend = backendField(cell.Backend)
	return in, nil
}
