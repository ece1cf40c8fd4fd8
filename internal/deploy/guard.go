package deploy

import (
	"xcvr/internal/guard"
)

// Limits on what the deploy readers accept beyond internal/guard's: real worker and
// orchestrator YAMLs are a few kilobytes and nest a handful of levels.
const (
	// MaxDepth is the deepest nesting of mappings and sequences accepted.
	MaxDepth = guard.MaxDepth
	// MaxNodes bounds the number of values a document expands to, counting every
	// alias as a full copy of its anchor (what PyYAML's consumers would walk).
	MaxNodes = 200_000
)

// ReadYAMLFile reads a worker, disaggregated or catalog YAML through the guard.
func ReadYAMLFile(path string) ([]byte, error) { return guard.ReadFile(path, guard.YAMLLimits()) }

// ReadEnvFileBytes reads an env file through the guard.
func ReadEnvFileBytes(path string) ([]byte, error) { return guard.ReadFile(path, guard.EnvLimits()) }

// ReadJSONFile reads a checkpoint's config.json through the guard.
//
// The bytes are returned as read (ReadModelConfig applies the text checks), so
// that ReadModelConfig can tell a byte-order mark that json.loads would refuse.
func ReadJSONFile(path string) ([]byte, error) { return guard.ReadRaw(path, guard.JSONLimits()) }
