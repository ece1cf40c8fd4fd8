package deploy

import (
	"fmt"
	"strings"

	"xcvr/internal/llmargs"
	"xcvr/resolver"
)

// NotWorkerError is a file given as a worker (or disaggregated) config that is
// a Kubernetes object, a Dynamo resource or a Slurm submit config. TensorRT-LLM
// would refuse it with pydantic's extra_forbidden errors for its keys; xcvr
// says that, what the file is, and that audit reads it.
type NotWorkerError struct {
	File string
	// What names the file, e.g. "a Kubernetes ConfigMap (apiVersion v1)".
	What string
	// Pydantic is TensorRT-LLM's ValidationError for the file's keys.
	Pydantic string
}

// Error renders the refusal, the file's kind and the pointer to audit.
func (e *NotWorkerError) Error() string {
	return fmt.Sprintf("%s is %s, not a worker config; TensorRT-LLM refuses it:\n%s\nxcvr audit %s resolves the workers it describes",
		e.File, e.What, e.Pydantic, e.File)
}

// notWorker recognises a deployment file given where a worker config is
// expected.
func notWorker(name string, root *Node) error {
	if root == nil || root.Kind != KindMap {
		return nil
	}
	what := ""
	get := func(k string) string {
		if p, ok := root.Get(k); ok && p.Val.Kind == KindStr {
			return p.Val.Str
		}
		return ""
	}
	_, slurm := root.Get("worker_config")
	switch kind, api := get("kind"), get("apiVersion"); {
	case kind == "DynamoGraphDeployment":
		what = "an NVIDIA Dynamo DynamoGraphDeployment (apiVersion " + api + ")"
	case kind != "" && api != "":
		what = "a Kubernetes " + kind + " (apiVersion " + api + ")"
	case slurm:
		what = "a Slurm submit config (worker_config.ctx/gen, as upstream's submit.py reads)"
	default:
		return nil
	}
	var keys []resolver.VersionedKey
	for _, p := range root.Pairs {
		keys = append(keys, resolver.VersionedKey{Key: p.KeyString(), Input: p.Val.Repr(), InputType: p.Val.TypeName()})
	}
	errs := llmargs.Errors(keys, nil)
	var b strings.Builder
	fmt.Fprintf(&b, "pydantic_core._pydantic_core.ValidationError: %d validation error", len(errs))
	if len(errs) != 1 {
		b.WriteString("s")
	}
	b.WriteString(" for TorchLlmArgs")
	for _, e := range errs {
		fmt.Fprintf(&b, "\n%s\n  %s [type=%s, input_value=%s, input_type=%s]", e.Root, e.Message, e.Type, resolver.PyTruncate(e.Input), e.InputType)
	}
	return &NotWorkerError{File: name, What: what, Pydantic: b.String()}
}
