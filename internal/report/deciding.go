package report

import (
	"strconv"

	"xcvr/resolver"
)

// runtimeSteps are the steps that can fix transceiver_runtime, in the order the
// resolver runs them: the last of them that applied or fell back is the one the
// transceiver's runtime comes from.
var runtimeSteps = map[string]bool{
	resolver.StepRuntime: true, resolver.StepPreference: true, resolver.StepAuto: true,
	resolver.StepLeftoverAuto: true, resolver.StepModelRequirement: true,
}

// DecidingStep is the index of the step that decided the outcome, -1 when no
// step did: the step that raised for a failure, the disaggregation step when
// it is off, else the step that fixed the runtime the transceiver is built for.
func DecidingStep(t *resolver.Trace) int {
	switch t.Result.Outcome {
	case resolver.OutcomeError:
		for i, s := range t.Steps {
			if s.ID == t.Result.FailedStep || (t.Result.FailedStep == "" && s.Verdict == resolver.Error) {
				return i
			}
		}
		return -1
	case resolver.OutcomeDisabled:
		for i, s := range t.Steps {
			if s.ID == resolver.StepDisagg {
				return i
			}
		}
		return -1
	}
	at := -1
	for i, s := range t.Steps {
		if runtimeSteps[s.ID] && (s.Verdict == resolver.Applied || s.Verdict == resolver.Fallback) {
			at = i
		}
	}
	return at
}

// DecidedAt names the deciding step for the outcome line: "decided at step 10
// (Resolve 'auto')", or "raised at step 17 (…)" for a failure.
func DecidedAt(t *resolver.Trace) string {
	i := DecidingStep(t)
	if i < 0 {
		return ""
	}
	verb := "decided at step "
	if t.Result.Outcome == resolver.OutcomeError {
		verb = "raised at step "
	}
	return verb + strconv.Itoa(i+1) + " (" + t.Steps[i].Title + ")"
}
