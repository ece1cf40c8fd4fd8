package compare

import (
	"strconv"
	"strings"

	"xcvr/resolver"
)

// matrixCellWidth fits the widest cell ("✓ PYTHON V2": outcome and KV-cache
// manager) and a release name ("1.3.0rc18"); one more cell separates columns.
const matrixCellWidth = 11

// CellLabel is a cell's glyph and word, followed by the KV-cache manager (V1, V2)
// when the worker starts.
func CellLabel(c Cell) string {
	s := OutcomeLabel(c.Outcome)
	if c.KVManager.Valid && (c.Outcome == resolver.OutcomePython || c.Outcome == resolver.OutcomeCPP) {
		s += " " + c.KVManager.S
	}
	return s
}

// fixedLabel names every fixed axis and its value: "model X, kv-cache-manager auto".
func (m Matrix) fixedLabel(quote bool) string {
	var parts []string
	for i, a := range m.AllFixed {
		v := keyName(m.AllFixedKeys[i])
		if quote {
			v = "`" + v + "`"
		}
		parts = append(parts, string(a)+" "+v)
	}
	return strings.Join(parts, ", ")
}

// MatrixText renders the matrix as a table that fits opts.Width: columns that do
// not fit continue in further blocks below, and column names longer than a cell
// are replaced by numbers explained under the table.
func MatrixText(m Matrix, opts TextOptions) string {
	w := opts.width()
	var b strings.Builder
	title := "xcvr matrix: " + string(m.Rows) + "s × " + string(m.Cols) + "s, " + m.fixedLabel(false)
	b.WriteString(opts.style(sgrBold, oneLine(title, w)) + "\n")
	writeWrapped(&b, "  other inputs: ", otherInputs(m), w)
	b.WriteByte('\n')

	labelW := 0
	for _, k := range m.RowKeys {
		labelW = max(labelW, len([]rune(keyName(k))))
	}
	// Give the row labels what the columns leave, but never less than 12 cells
	// nor so much that not one column fits.
	need := len(m.ColKeys) * (matrixCellWidth + 1)
	labelW = min(labelW, max(12, w-need-1), w-matrixCellWidth-2)
	perBlock := max(1, (w-labelW-1)/(matrixCellWidth+1))

	headers := make([]string, len(m.ColKeys))
	var legend []string
	for i, k := range m.ColKeys {
		name := keyName(k)
		if len([]rune(name)) <= matrixCellWidth {
			headers[i] = name
			continue
		}
		headers[i] = "[" + strconv.Itoa(i+1) + "]"
		legend = append(legend, headers[i]+" "+name)
	}
	rowNames := make([]string, len(m.RowKeys))
	for r, rk := range m.RowKeys {
		rowNames[r] = keyName(rk)
	}
	rowLabels := uniqueCuts(rowNames, labelW)
	for start := 0; start < len(m.ColKeys); start += perBlock {
		end := min(start+perBlock, len(m.ColKeys))
		if start > 0 {
			b.WriteByte('\n')
		}
		corner := string(m.Rows) + " \\ " + string(m.Cols)
		if len(corner) > labelW {
			corner = string(m.Rows)
		}
		line := pad(oneLine(corner, labelW), labelW)
		for c := start; c < end; c++ {
			line += " " + pad(headers[c], matrixCellWidth)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		for r := range m.RowKeys {
			line := pad(rowLabels[r], labelW)
			for c := start; c < end; c++ {
				cell := m.At(r, c)
				line += " " + pad(outcomeStyled(opts, cell.Outcome, CellLabel(cell)), matrixCellWidth)
			}
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	if len(legend) > 0 {
		b.WriteByte('\n')
		writeItems(&b, "columns: ", legend, ", ", w)
	}
	b.WriteByte('\n')
	writeItems(&b, "", OutcomeLegend(), "   ", w)
	return b.String()
}

// outcomeStyled colours a cell when colour is on; the glyph and word stay.
func outcomeStyled(opts TextOptions, o resolver.Outcome, s string) string {
	switch o {
	case resolver.OutcomePython:
		return opts.style("32", s)
	case resolver.OutcomeCPP:
		return opts.style("36", s)
	case resolver.OutcomeError:
		return opts.style(sgrError, s)
	case resolver.OutcomeDisabled:
		return opts.style(sgrFaint, s)
	}
	return s
}

// keyName shows an empty model as "(none)".
func keyName(k string) string {
	if k == "" {
		return "(none)"
	}
	return k
}

// otherInputs lists the inputs every cell shares.
func otherInputs(m Matrix) string {
	in := m.Base
	runtime := "unset"
	if in.Runtime.Given() {
		runtime = in.Runtime.Value.String()
		if !in.Runtime.Value.Valid {
			runtime = "null"
		}
	}
	timeout := "default"
	if in.Timeout.Given() {
		timeout = in.Timeout.Value.String()
	}
	s := "transceiver_runtime " + runtime + ", kv_transfer_timeout_ms " + timeout
	if in.Loader.Value != "" {
		s += ", loader " + string(in.Loader.Value)
	}
	if in.Pipelined.Given() {
		s += ", enable_pipelined_transfer " + strconv.FormatBool(in.Pipelined.Value)
	}
	for _, k := range sortedEnv(in.Env) {
		s += ", " + k + "=" + in.Env[k].Value
	}
	return s
}

// MatrixMarkdown renders the matrix as a GitHub table with full names.
func MatrixMarkdown(m Matrix) string {
	var b strings.Builder
	b.WriteString("**xcvr matrix**: " + string(m.Rows) + "s × " + string(m.Cols) + "s, " + m.fixedLabel(true) +
		"; " + otherInputs(m) + "\n\n")
	b.WriteString("| " + string(m.Rows) + " \\ " + string(m.Cols) + " |")
	for _, k := range m.ColKeys {
		b.WriteString(" " + keyName(k) + " |")
	}
	b.WriteString("\n|---|")
	for range m.ColKeys {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for r, rk := range m.RowKeys {
		b.WriteString("| " + keyName(rk) + " |")
		for c := range m.ColKeys {
			b.WriteString(" " + CellLabel(m.At(r, c)) + " |")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// MatrixJSON is the JSON shape of the matrix command.
type MatrixJSON struct {
	RowAxis  Axis   `json:"row_axis"`
	ColAxis  Axis   `json:"col_axis"`
	Fixed    Axis   `json:"fixed_axis"`
	FixedKey string `json:"fixed"`
	// AllFixed maps every fixed axis to its value (the KV-cache manager too).
	AllFixed map[Axis]string `json:"all_fixed"`
	Rows     []string        `json:"rows"`
	Columns  []string        `json:"columns"`
	Cells    []CellJSON      `json:"cells"`
}

// CellJSON is one cell in MatrixJSON; ResolvedRuntime is null for Python's None
// and when validation failed before the runtime was resolved.
type CellJSON struct {
	Model           string  `json:"model"`
	Backend         string  `json:"backend"`
	Version         string  `json:"version"`
	KVSetting       string  `json:"kv_setting"`
	Outcome         string  `json:"outcome"`
	KVCacheManager  *string `json:"kv_cache_manager"`
	ResolvedRuntime *string `json:"resolved_runtime"`
	FailedStep      string  `json:"failed_step,omitempty"`
}

// JSON returns the JSON shape of the matrix, cells row-major.
func (m Matrix) JSON() MatrixJSON {
	out := MatrixJSON{RowAxis: m.Rows, ColAxis: m.Cols, Fixed: m.Fixed, FixedKey: m.FixedKey,
		AllFixed: map[Axis]string{}, Rows: m.RowKeys, Columns: m.ColKeys, Cells: make([]CellJSON, len(m.Cells))}
	for i, a := range m.AllFixed {
		out.AllFixed[a] = m.AllFixedKeys[i]
	}
	for i, c := range m.Cells {
		cj := CellJSON{Model: c.Model, Backend: c.Backend, Version: c.Version, KVSetting: c.KVSetting,
			Outcome: string(c.Outcome), FailedStep: c.FailedStep}
		if c.KVManager.Valid {
			s := c.KVManager.S
			cj.KVCacheManager = &s
		}
		if c.RuntimeKnown && c.ResolvedRuntime.Valid {
			s := c.ResolvedRuntime.S
			cj.ResolvedRuntime = &s
		}
		out.Cells[i] = cj
	}
	return out
}
