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
	// AxisKVManager is kv_cache_config.use_kv_cache_manager_v2 (auto, v1, v2).
	AxisKVManager Axis = "kv-cache-manager"
)

// Axes lists the axes in the order --rows/--cols document them.
func Axes() []Axis { return []Axis{AxisModel, AxisBackend, AxisVersion, AxisKVManager} }

// ParseAxis reads "model(s)", "backend(s)", "version(s)" or "kv-cache-manager(s)"
// (also "kv").
func ParseAxis(s string) (Axis, error) {
	switch strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "s") {
	case "model":
		return AxisModel, nil
	case "backend":
		return AxisBackend, nil
	case "version":
		return AxisVersion, nil
	case "kv-cache-manager", "kv", "kv-manager", "kvmanager":
		return AxisKVManager, nil
	}
	return "", errors.New("axis " + quote(s) + ": want model, backend, version or kv-cache-manager")
}

// kvKey names a use_kv_cache_manager_v2 input as --kv-cache-manager spells it.
func kvKey(f resolver.Field[resolver.KVSetting]) string {
	if !f.Given() || f.Value == "" {
		return "auto"
	}
	return string(f.Value)
}

// kvField is the input for a --kv-cache-manager choice: auto leaves it unset.
func kvField(k string) resolver.Field[resolver.KVSetting] {
	switch k {
	case "v1":
		return resolver.Field[resolver.KVSetting]{Value: resolver.KVV1, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--kv-cache-manager"}}
	case "v2":
		return resolver.Field[resolver.KVSetting]{Value: resolver.KVV2, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--kv-cache-manager"}}
	}
	return resolver.Field[resolver.KVSetting]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
}

func quote(s string) string { return "\"" + s + "\"" }

// Cell is one resolution in a grid.
type Cell struct {
	Model   string // the architecture, "" for none
	Backend string // as typed: "DEFAULT", "UCX", ..., "none"
	Version string
	// KVSetting is the --kv-cache-manager choice (auto, v1, v2).
	KVSetting string
	Outcome   resolver.Outcome
	// KVManager is the KV-cache manager the worker ends with ("V1", "V2"), None
	// when disaggregation is off or start-up failed before it was chosen.
	KVManager resolver.PyStr
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
	// KVManagers are --kv-cache-manager choices (auto, v1, v2); empty means the
	// base's own.
	KVManagers []string
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

// kvs is the grid's KV-manager choices, the base's own when none are given.
func (g Grid) kvs() []string {
	if len(g.KVManagers) == 0 {
		return []string{kvKey(g.Base.KVManager)}
	}
	return g.KVManagers
}

// Size is the number of cells of the grid.
func (g Grid) Size() int { return len(g.Models) * len(g.Backends) * len(g.Versions) * len(g.kvs()) }

// Evaluate resolves every cell of g into out (grown if too small) and returns it,
// ordered version-major, then model, then backend, then KV-cache manager. One Inputs value is reused for
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
	kvs := g.kvs()
	kvFields := make([]resolver.Field[resolver.KVSetting], len(kvs))
	for i, k := range kvs {
		kvFields[i] = kvField(k)
		if len(g.KVManagers) == 0 {
			kvFields[i] = g.Base.KVManager
		}
	}
	in := g.Base
	i := 0
	for _, v := range g.Versions {
		// The version's rules are made once for all its cells.
		v.Rules = resolver.ReleaseRules(v)
		in.Version = v
		for mi, m := range g.Models {
			infos[mi] = cat.Lookup(m, v)
		}
		for mi, m := range g.Models {
			in.Model.Value = infos[mi]
			for bi, b := range g.Backends {
				in.Backend = spelled(backends[bi], v)
				for ki, k := range kvs {
					in.KVManager = kvFields[ki]
					t := resolver.Resolve(in)
					out[i] = Cell{Model: m, Backend: b, Version: v.Name, KVSetting: k, Outcome: t.Result.Outcome,
						ResolvedRuntime: t.Result.ResolvedRuntime, RuntimeKnown: t.Result.RuntimeKnown,
						FailedStep: t.Result.FailedStep, KVManager: t.Result.KVManager}
					i++
				}
			}
		}
	}
	return out
}

// spelled writes a backend column the way the version spells it (ucx before
// the upper-case names of 2025-08-14), so a 1.0 row answers for the backend an
// operator of 1.0 wrote rather than failing validation.
func spelled(f resolver.Field[resolver.PyStr], v resolver.Version) resolver.Field[resolver.PyStr] {
	if f.Value.Valid {
		f.Value = resolver.Str(resolver.SpellBackend(resolver.ReleaseRules(v), f.Value.S))
	}
	return f
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

// Matrix is a two-dimensional slice of a grid: rows × columns with the other axes
// fixed.
type Matrix struct {
	// Rows and Cols are the two axes that vary.
	Rows, Cols Axis
	// Fixed is the first axis held fixed (model, backend, version order) and
	// FixedKey its value; AllFixed and AllFixedKeys list every fixed axis.
	Fixed        Axis
	FixedKey     string
	AllFixed     []Axis
	AllFixedKeys []string
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
	if base.Version.Install != nil {
		// The installed TensorRT-LLM is one more version on the axis, after the
		// releases, under its own name (its rules and hooks come from its code).
		iv := base.Version
		iv.Name = InstallKey(iv)
		full.Versions = append(full.Versions, iv)
	}
	g := Grid{Base: base, Models: full.Models, Backends: full.Backends, Versions: full.Versions,
		KVManagers: []string{"auto", "v1", "v2"}}
	m := Matrix{Rows: rows, Cols: cols, Base: base}
	for _, a := range Axes() {
		if a == rows || a == cols {
			continue
		}
		var key string
		switch a {
		case AxisModel:
			g.Models = []string{base.Model.Value.Arch}
			key = base.Model.Value.Arch
		case AxisBackend:
			key = "none"
			if base.Backend.Value.Valid {
				key = base.Backend.Value.S
			}
			g.Backends = []string{key}
		case AxisVersion:
			g.Versions = []resolver.Version{base.Version}
			key = base.Version.Name
		case AxisKVManager:
			key = kvKey(base.KVManager)
			g.KVManagers = nil // the base's own field, origin and all
		}
		if m.Fixed == "" {
			m.Fixed, m.FixedKey = a, key
		}
		m.AllFixed = append(m.AllFixed, a)
		m.AllFixedKeys = append(m.AllFixedKeys, key)
	}
	keys := func(a Axis) []string {
		switch a {
		case AxisModel:
			return g.Models
		case AxisBackend:
			return g.Backends
		case AxisKVManager:
			return g.kvs()
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
		case AxisKVManager:
			k = c.KVSetting
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

// InstallKey names an installed TensorRT-LLM on the version axis: its version
// after "install ", so it stands apart from the release of the same name (and a
// label cut to the terminal's width still says which it is).
func InstallKey(v resolver.Version) string { return "install " + v.Install.Version }

// CellInputs returns the inputs of one cell, for opening its full chain: the base
// with the cell's model, backend and version.
func (m Matrix) CellInputs(r, c int, cat *models.Catalog) (resolver.Inputs, error) {
	cell := m.At(r, c)
	var v resolver.Version
	var err error
	versionAxis := m.Rows == AxisVersion || m.Cols == AxisVersion
	if m.Base.Version.Install != nil && (cell.Version == InstallKey(m.Base.Version) || !versionAxis) {
		v = m.Base.Version
	} else if v, err = resolver.ParseVersion(cell.Version); err != nil {
		return resolver.Inputs{}, err
	}
	in := m.Base
	in.Version = v
	in.Model.Value = cat.Lookup(cell.Model, v)
	in.Backend = spelled(backendField(cell.Backend), v)
	if m.Rows == AxisKVManager || m.Cols == AxisKVManager {
		in.KVManager = kvField(cell.KVSetting)
	}
	return in, nil
}
