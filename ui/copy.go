package ui

import (
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"xcvr/internal/inputs"
	"xcvr/internal/report"
	"xcvr/resolver"
)

// copyYAML is `y`: the cache_transceiver_config block that pins what the chain
// resolved to. It says when there is nothing to pin instead of claiming a copy,
// and that the copy travels by OSC 52, which a terminal may ignore; with both
// roles of a disaggregated YAML it copies both, nested under their sections.
func (m *Model) copyYAML() tea.Cmd {
	if m.other == nil {
		if m.trace.Result.Outcome == resolver.OutcomeError {
			return m.setStatus("nothing to pin: start-up fails (o shows why)", true)
		}
		return tea.Batch(tea.SetClipboard(configYAML(m.trace)),
			m.setStatus("YAML sent by OSC 52 (may be ignored; explain -o yaml prints it)", false))
	}
	ctx, gen := m.roleTraces()
	var failing []string
	if ctx.Result.Outcome == resolver.OutcomeError {
		failing = append(failing, roleContext)
	}
	if gen.Result.Outcome == resolver.OutcomeError {
		failing = append(failing, roleGeneration)
	}
	if len(failing) > 0 {
		return m.setStatus("nothing to pin: the "+strings.Join(failing, " and ")+" role fails", true)
	}
	return tea.Batch(tea.SetClipboard(rolesYAML(ctx, gen)),
		m.setStatus("both roles' YAML sent by OSC 52 (may be ignored)", false))
}

// rolesYAML nests each role's pinned block under its section of the
// disaggregated YAML, so one paste covers both roles.
func rolesYAML(ctx, gen resolver.Trace) string {
	var b strings.Builder
	for _, r := range []struct {
		section string
		t       resolver.Trace
	}{{"context_servers", ctx}, {"generation_servers", gen}} {
		b.WriteString(r.section + ":\n")
		for _, l := range strings.SplitAfter(report.PinYAML(r.t), "\n") {
			if l != "" {
				b.WriteString("  " + l)
			}
		}
	}
	return b.String()
}

// commandLine is `x`: the xcvr explain command line that reproduces the screen,
// for a ticket or a chat. It starts from the CLI's own file flags (Options.Command)
// and adds a flag for every input the user set, by flag or in the explorer.
func (m *Model) commandLine() string {
	cmd, _ := m.commandLineNotes()
	return cmd
}

// commandLineNotes is commandLine and what it cannot say: an edit no flag
// expresses (a file's value set back to omitted, a file's variable unset).
//
// With both roles of a --disagg file, explain applies its flags to both
// roles; so when either role was edited, each role gets its own command
// (--role NAME and that role's flags), joined by "; ", and a note says why.
func (m *Model) commandLineNotes() (string, []string) {
	if m.other == nil {
		return m.roleCommand(&m.spec, &m.start, "")
	}
	o := m.other
	mine, theirs := edited(m.rows, &m.spec), o.editable && edited(m.rows, &o.spec)
	if !mine && !theirs {
		return m.roleCommand(&m.spec, &m.start, "")
	}
	a, na := m.roleCommand(&m.spec, &m.start, m.roleName)
	b, nb := m.roleCommand(&o.spec, &o.start, o.name)
	if m.roleName == roleGeneration {
		a, b, na, nb = b, a, nb, na
	}
	var notes []string
	for _, n := range na {
		notes = append(notes, roleOrder(m.roleName, o.name)[0]+": "+n)
	}
	for _, n := range nb {
		notes = append(notes, roleOrder(m.roleName, o.name)[1]+": "+n)
	}
	return a + "; " + b, notes
}

// roleOrder is the two role names, context first.
func roleOrder(a, b string) [2]string {
	if a == roleGeneration {
		return [2]string{b, a}
	}
	return [2]string{a, b}
}

// roleCommand is the explain command line for one spec: the CLI's own file
// flags, then a flag for every input set by flag or in the explorer; role,
// when set, adds --role.
func (m *Model) roleCommand(s, start *inputs.Spec, role string) (string, []string) {
	var notes []string
	args := append([]string{"xcvr", "explain"}, m.command...)
	quoted := make([]string, 0, len(args)+16)
	for _, a := range args {
		quoted = append(quoted, ShellQuote(a))
	}
	add := func(flag, raw string) { quoted = append(quoted, flag, ShellQuote(raw)) }
	set := func(name string, v inputs.Value) bool {
		switch v.Origin.Kind {
		case explorerOrigin.Kind:
			return true
		case resolver.OriginFlag:
			return strings.HasPrefix(v.Origin.Detail, "--"+name)
		}
		return false
	}
	// A version read from a --log file is not something explain reads: say it
	// as --trtllm. (One from --install is read again by --install.)
	if set("trtllm", s.Version) || s.Version.Origin.Kind == resolver.OriginFile {
		add("--trtllm", s.Version.Raw)
	}
	if set("model", s.Model) {
		add("--model", orWord(s.Model.Raw, "none"))
	}
	if set("backend", s.Backend) {
		add("--backend", orWord(s.Backend.Raw, "none"))
	}
	if set("runtime", s.Runtime) {
		add("--runtime", orWord(s.Runtime.Raw, "unset"))
	}
	if set("timeout-ms", s.TimeoutMS) && s.TimeoutMS.Raw != "" {
		add("--timeout-ms", s.TimeoutMS.Raw)
	} else if s.TimeoutMS.Origin.Kind == explorerOrigin.Kind && overrides(s.TimeoutMS.Origin) != "" {
		notes = append(notes, "timeout back to the default")
	}
	if set("loader", s.Loader) {
		add("--loader", orWord(s.Loader.Raw, "pytorch"))
	}
	if set("pipelined", s.Pipelined) && s.Pipelined.Raw != "" {
		quoted = append(quoted, "--pipelined="+s.Pipelined.Raw)
	} else if s.Pipelined.Origin.Kind == explorerOrigin.Kind && overrides(s.Pipelined.Origin) != "" {
		notes = append(notes, "pipelined omitted")
	}
	// The environment: what came from a file or a process is read again by the
	// file flags; the rest is spelt out, after --clean-env so that the reader's
	// own TRTLLM_* variables cannot change the answer.
	var env []string
	for _, k := range s.EnvNames() {
		v := s.Env[k]
		if v.Origin.Kind == resolver.OriginFile || strings.HasPrefix(v.Origin.Detail, "/proc/") {
			continue
		}
		env = append(env, k+"="+v.Value)
	}
	sort.Strings(env)
	if !hasArg(m.command, "--clean-env") {
		quoted = append(quoted, "--clean-env")
	}
	for _, kv := range env {
		add("--env", kv)
	}
	for _, k := range start.EnvNames() {
		if v := start.Env[k]; v.Origin.Kind == resolver.OriginFile || strings.HasPrefix(v.Origin.Detail, "/proc/") {
			if _, still := s.Env[k]; !still {
				notes = append(notes, k+" unset")
			}
		}
	}
	if role != "" {
		add("--role", role)
	}
	return strings.Join(quoted, " "), notes
}

// edited reports whether any input of s was set in the explorer.
func edited(rows []inputRow, s *inputs.Spec) bool {
	for _, r := range rows {
		if rawOf(s, r).Origin.Kind == explorerOrigin.Kind {
			return true
		}
	}
	return false
}

func orWord(s, empty string) string {
	if s == "" {
		return empty
	}
	return s
}

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// ShellQuote quotes a word for a POSIX shell when it needs it; the linear
// tour quotes its command lines with it too.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
