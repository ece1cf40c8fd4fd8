package audit

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"xcvr/internal/compare"
	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// Options are what the command line says for every worker.
type Options struct {
	// Base is the spec the input flags build (version, install, --env, ...);
	// each worker's own files are laid over it and flags win.
	Base inputs.Spec
	// ModelFromFlags is true when --model, --model-dir or --model-config chose
	// the model for every worker.
	ModelFromFlags bool
	Catalog        *models.Catalog
	// To, when set, is the version an upgrade would bring (--to).
	To *resolver.Version
}

// Entry is one worker resolved.
type Entry struct {
	Worker *Worker
	Trace  resolver.Trace
	// Inputs are what the trace resolved, kept for upgrade checks.
	Inputs resolver.Inputs
	// Err is a reason the worker could not be resolved at all (a bad version).
	Err string
	// Notes are the resolution's own remarks (an unknown model id).
	Notes []string
}

// commandOnly reports whether the only workers that fail are those whose
// command line is refused: their fix is the command line, the files need
// none.
func (r *Report) commandOnly() bool {
	n := 0
	es := asIfStarted(r.Entries)
	for i, e := range r.Entries {
		if e.Failed() {
			if e.Worker.CommandError == "" || es[i].Failed() {
				return false
			}
			n++
		}
	}
	ok, _ := consistent(es)
	return n > 0 && ok
}

// asIfStarted is the entries with each refused command line taken as
// corrected: judged by its config's resolution.
func asIfStarted(es []Entry) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		if e.Worker.CommandError != "" && e.Err == e.Worker.CommandError {
			e.Err = ""
		}
		out[i] = e
	}
	return out
}

// Failed reports whether the worker fails to start.
func (e Entry) Failed() bool { return e.Err != "" || e.Trace.Result.Outcome == resolver.OutcomeError }

// Report is the audit of a set.
type Report struct {
	Set     *Set
	Entries []Entry
	Version resolver.Version
	// Consistent is true when every context and generation worker that starts
	// ends on the same transceiver and backend with disaggregation on (or there
	// are none).
	Consistent bool
	// Split explains why not.
	Split string
	// Groups are the deployments the set holds when it holds several
	// (groups.go): each checked on its own, "" the shared one; nil when one.
	Groups []string
	// Alike are deployments of one name whose workers resolve alike
	// (alike.go), said once.
	Alike []Alike
	// Fix is the smallest verified change, per worker, that makes every
	// worker start and the roles agree; nil when none is needed or none works.
	Fix []WorkerFix
	// Upgrade is the --to check, nil without --to.
	Upgrade *compare.Upgrade
}

// WorkerFix is one worker's part of the fix.
type WorkerFix struct {
	Worker string
	Edits  []compare.Edit
	YAML   string
	// Outcome is where the worker ends with the fix, verified by resolving it.
	Outcome resolver.Result
}

// Fails reports whether the deployment fails: a worker that does not start, or
// roles that cannot exchange KV cache.
func (r *Report) Fails() bool {
	for _, e := range r.Entries {
		if e.Failed() {
			return true
		}
	}
	return !r.Consistent
}

// Empty reports whether the set held no TensorRT-LLM worker to resolve (an
// empty kubectl List, only Services, only an orchestrator's routes): audit
// then exits 1, as check-logs does when no process shows its transceiver, so
// that a gate does not pass on nothing.
func (r *Report) Empty() bool { return len(r.Entries) == 0 }

// emptyLine is the verdict of an Empty report.
const emptyLine = "no TensorRT-LLM worker in the input; nothing was audited"

// Unresolved lists the workers audit found but could not resolve (the
// config each names is not in the set or cannot be read): listed under Not
// placed, they make audit exit 1, since the verdict cannot speak for them.
func (r *Report) Unresolved() []Unplaced {
	var out []Unplaced
	for _, u := range r.Set.Unplaced {
		if u.Worker {
			out = append(out, u)
		}
	}
	return out
}

// emptyVerdict is an Empty report's verdict: no worker in the input, or
// workers found but none resolved.
func (r *Report) emptyVerdict() string {
	n := 0
	for _, u := range r.Unresolved() {
		n += max(u.Runs, 1)
	}
	if n > 0 {
		return fmt.Sprintf("%d TensorRT-LLM worker(s) found, none resolved: the config each names is not in the set or cannot be read (under Not placed); give audit those files", n)
	}
	return emptyLine
}

// unresolvedLine says which workers the verdict does not speak for; "" when
// every worker found was resolved or none was (emptyVerdict says so).
func (r *Report) unresolvedLine(t func(string) string) string {
	us := r.Unresolved()
	if len(us) == 0 || r.Empty() {
		return ""
	}
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = t(u.Source.String())
	}
	return fmt.Sprintf("Not resolved (%d), so not checked against the others: %s; the config each names is not in the set or cannot be read (under Not placed): give audit those files", len(us), strings.Join(names, "; "))
}

// Resolve resolves every worker of the set.
func Resolve(set *Set, opt Options) *Report {
	rep := &Report{Set: set, Entries: make([]Entry, 0, len(set.Workers))}
	// The workers of a set share a few versions (their images may differ):
	// each version's rules are made once (as compare.Evaluate does per
	// version), not once per worker.
	rulesOf := map[resolver.Version]*resolver.Rules{}
	for _, w := range set.Workers {
		e := Entry{Worker: w}
		s := spec(w, opt, &e)
		in, err := inputs.Build(s, opt.Catalog)
		if err != nil {
			e.Err = err.Error()
		} else {
			e.Inputs = in
			run := in
			if run.Version.Rules == nil {
				rules, ok := rulesOf[run.Version]
				if !ok {
					rules = resolver.ReleaseRules(run.Version)
					rulesOf[run.Version] = rules
				}
				run.Version.Rules = rules
			}
			e.Trace = resolver.Resolve(run)
			rep.Version = in.Version
		}
		if w.CommandError != "" {
			e.Err = w.CommandError
		}
		rep.Entries = append(rep.Entries, e)
	}
	if rep.Version.Name == "" {
		if in, err := inputs.Build(opt.Base, opt.Catalog); err == nil {
			rep.Version = in.Version
		}
	}
	names, parts := groupsOf(rep.Entries)
	rep.Consistent = true
	var splits []string
	for i, part := range parts {
		ok, split := consistent(part)
		if ok {
			continue
		}
		rep.Consistent = false
		if len(parts) > 1 {
			split = "in " + groupLabel(names[i]) + ", " + split
		}
		splits = append(splits, split)
	}
	rep.Split = strings.Join(splits, "; ")
	if len(parts) > 1 {
		rep.Groups = names
		rep.Alike = alike(names, parts, set.files)
	}
	if rep.Fails() {
		// Each deployment's fix aims at its own workers' end.
		for _, part := range parts {
			if !(&Report{Entries: part, Consistent: consistentOnly(part)}).Fails() {
				continue
			}
			f := findFix(part)
			if f == nil {
				rep.Fix = nil
				break
			}
			rep.Fix = append(rep.Fix, f...)
		}
	}
	if opt.To != nil {
		rep.Upgrade = upgrade(rep, opt)
	}
	return rep
}

// spec lays one worker's files over the flags' spec.
func spec(w *Worker, opt Options, e *Entry) inputs.Spec {
	s := opt.Base
	s.Env = maps.Clone(opt.Base.Env)
	if s.Env == nil {
		s.Env = map[string]resolver.EnvVar{}
	}
	for _, v := range w.Env {
		if cur, ok := s.Env[v.Name]; ok && cur.Origin.Kind == resolver.OriginFlag {
			continue
		}
		s.Env[v.Name] = resolver.EnvVar{Value: v.Value, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: v.Origin}}
	}
	if w.Image != "" && s.Version.Origin.Kind == resolver.OriginPreset {
		// No --trtllm: the release the worker's image runs, when it says.
		if v, how, ok := imageVersion(w.Image); ok {
			s.Version = inputs.Value{Raw: v, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ImageOrigin + " (image " + w.Image + ": " + how + ")"}}
		} else if strings.Contains(w.Image, "$") {
			why := "the set does not set its variable"
			if strings.HasPrefix(w.key, "compose\x00") {
				why += " (give audit the .env beside the compose file)"
			}
			e.Notes = append(e.Notes, "image "+w.Image+" ("+w.ImageOrigin+"): "+why+"; using "+s.Version.Raw+", xcvr's default (pass --trtllm)")
		} else {
			e.Notes = append(e.Notes, "image "+w.Image+" ("+w.ImageOrigin+"): xcvr does not know which TensorRT-LLM release it runs; using "+s.Version.Raw+", xcvr's default (pass --trtllm)")
		}
	}
	if w.Overlay != nil {
		deploy.Apply(&s, w.Overlay)
	} else {
		// No config file: TensorRT-LLM's defaults, not xcvr's preset backend.
		deploy.Apply(&s, &deploy.Overlay{File: w.Source.File})
	}
	// A config whose backend key names the TensorRT engine (trt, tensorrt:
	// serve.py's launch_server builds tensorrt_llm._tensorrt_engine.LLM for
	// them) is not the PyTorch path: the reader warns and ignores the key;
	// the worker says what that means.
	key, inConfig := w.Overlay.BackendKey()
	if inConfig && w.Overlay.Loader == nil && (key.Input == "'trt'" || key.Input == "'tensorrt'") {
		e.Notes = append(e.Notes, "backend "+key.Input+" ("+key.Origin.String()+") runs the TensorRT engine (trtllm-serve builds tensorrt_llm._tensorrt_engine.LLM for it), not the PyTorch path xcvr models (pytorch, _autodeploy): its transceiver is the C++ executor's own; the prediction below is the PyTorch path's")
	}
	// trtllm-serve --backend picks the loader when the config's backend key
	// does not (the YAML is laid over the command line); --loader wins over
	// both.
	if b := w.ServeBackend; b != "" && !inConfig {
		switch {
		case b != "pytorch" && b != "_autodeploy":
			e.Notes = append(e.Notes, "trtllm-serve --backend "+b+" at "+w.ServeBackendOrigin+" is not the PyTorch path xcvr models (pytorch, _autodeploy): a TensorRT engine's transceiver is the C++ executor's own; the prediction below is the PyTorch path's")
		case s.Loader.Origin.Kind == resolver.OriginFlag:
			s.Loader.Origin.Detail = strings.TrimSpace(s.Loader.Origin.Detail + " (overrides trtllm-serve --backend " + b + " at " + w.ServeBackendOrigin + ")")
		default:
			s.Loader = inputs.Value{Raw: b, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "trtllm-serve --backend at " + w.ServeBackendOrigin}}
		}
	}
	if !opt.ModelFromFlags && w.Model != "" {
		if ent, ok := opt.Catalog.FindHFID(w.Model); ok {
			s.Model = inputs.Value{Raw: ent.Arch, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ModelOrigin}}
		} else if base, ent, how, ok := opt.Catalog.FindByName(w.Model); ok {
			// Qwen/Qwen3-32B-FP8: Qwen/Qwen3-32B quantized, the same
			// architecture; inferred, and said so.
			s.Model = inputs.Value{Raw: ent.Arch, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ModelOrigin + ", inferred from " + w.Model + " as " + base + " " + how}}
			e.Notes = append(e.Notes, "model "+w.Model+" ("+w.ModelOrigin+"): not a Hugging Face id xcvr knows; it names "+base+" "+how+", whose architecture is "+ent.Arch+": using it, inferred (pass --model-dir DIR to read the checkpoint's config.json)")
		} else if ent, ok := opt.Catalog.FindHFID(w.ServedModel); ok && w.ServedModel != "" {
			// A checkpoint on a volume (--model-path /model-cache/deepseek-r1-fp4)
			// served under its Hugging Face id: the id is the best guess
			// offline, and said to be one.
			s.Model = inputs.Value{Raw: ent.Arch, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ModelOrigin + ", inferred from --served-model-name " + w.ServedModel}}
			e.Notes = append(e.Notes, "model "+w.Model+" ("+w.ModelOrigin+"): not a Hugging Face id; its --served-model-name "+w.ServedModel+" is one xcvr knows: using "+ent.Arch+", inferred (pass --model-dir DIR to read the checkpoint's config.json)")
		} else if base, ent, how, ok := opt.Catalog.FindByName(w.ServedModel); ok {
			s.Model = inputs.Value{Raw: ent.Arch, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ModelOrigin + ", inferred from --served-model-name " + w.ServedModel + " as " + base + " " + how}}
			e.Notes = append(e.Notes, "model "+w.Model+" ("+w.ModelOrigin+"): not a Hugging Face id; its --served-model-name "+w.ServedModel+" names "+base+" "+how+", whose architecture is "+ent.Arch+": using it, inferred (pass --model-dir DIR to read the checkpoint's config.json)")
		} else if base, ent, ok := opt.Catalog.FindByDirName(w.Model); ok {
			// /models/Qwen3-8B: a checkpoint directory named exactly as a
			// listed model is.
			s.Model = inputs.Value{Raw: ent.Arch, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: w.ModelOrigin + ", inferred from the directory name " + path.Base(w.Model)}}
			e.Notes = append(e.Notes, "model "+w.Model+" ("+w.ModelOrigin+"): a path; its directory is named as "+base+" is, whose architecture is "+ent.Arch+": using it, inferred (pass --model-dir DIR to read the checkpoint's config.json)")
		} else {
			e.Notes = append(e.Notes, "model "+w.Model+" ("+w.ModelOrigin+"): not a Hugging Face id xcvr knows offline; using "+s.Model.Raw+" (pass --model ARCH)")
		}
	}
	return s
}

// end is where a worker ends: outcome, class and backend.
func end(r resolver.Result) string {
	s := string(r.Outcome)
	if r.Class != "" {
		s += " " + r.Class
	}
	if r.EffectiveBackend.Valid {
		s += " on " + r.EffectiveBackend.S
	}
	return s
}

func sameEnd(a, b resolver.Result) bool {
	return a.Outcome == b.Outcome && a.Class == b.Class && a.EffectiveBackend == b.EffectiveBackend
}

// consistent checks the context and generation workers that start: all must
// end on one transceiver and backend, with disaggregation on.
func consistent(es []Entry) (bool, string) {
	var first *Entry
	var parts []string
	ok := true
	for i := range es {
		e := &es[i]
		if e.Worker.Role == RoleAggregated || e.Failed() {
			continue
		}
		r := e.Trace.Result
		parts = append(parts, e.Worker.Role+" "+e.Worker.Name+" → "+end(r))
		if r.Outcome == resolver.OutcomeDisabled {
			ok = false
			continue
		}
		if first == nil {
			first = e
			continue
		}
		if !sameEnd(first.Trace.Result, r) {
			ok = false
		}
	}
	if ok {
		return true, ""
	}
	return false, "the context and generation workers must end on the same transceiver and backend, with disaggregation on, to exchange KV cache: " + strings.Join(parts, "; ")
}

// hasCommandErrors reports whether a worker's command line is refused.
func (r *Report) hasCommandErrors() bool {
	for _, e := range r.Entries {
		if e.Worker.CommandError != "" {
			return true
		}
	}
	return false
}

// groupLabel names a deployment: its file, or file and object; the shared
// one is "the other files".
func groupLabel(g string) string {
	if g == "" {
		return "the other files"
	}
	return g
}

func consistentOnly(es []Entry) bool {
	ok, _ := consistent(es)
	return ok
}
