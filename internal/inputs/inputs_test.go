package inputs

import (
	"testing"

	"xcvr/models"
	"xcvr/resolver"
)

func TestBuild(t *testing.T) {
	cat := models.Builtin()
	flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--x"}
	s := Defaults()
	s.Model = Value{"openai/gpt-oss-120b", flag}
	s.TimeoutMS = Value{"null", flag}
	s.Runtime = Value{"null", flag}
	s.Pipelined = Value{"true", flag}
	s.Loader = Value{"_autodeploy", flag}
	in, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if in.Model.Value.Arch != "GptOssForCausalLM" || !in.Model.Value.Known {
		t.Errorf("HF id not mapped: %+v", in.Model.Value)
	}
	if !in.Timeout.Given() || in.Timeout.Value.Valid {
		t.Errorf("timeout null: %+v", in.Timeout)
	}
	if !in.Runtime.Given() || in.Runtime.Value.Valid {
		t.Errorf("runtime null: %+v", in.Runtime)
	}
	if !in.Pipelined.Value || in.Loader.Value != resolver.LoaderAutoDeploy {
		t.Errorf("pipelined/loader: %+v %+v", in.Pipelined, in.Loader)
	}
	if in.Version.Name != resolver.DefaultVersionName || in.VersionOrigin.Kind != resolver.OriginPreset {
		t.Errorf("version %+v origin %+v", in.Version, in.VersionOrigin)
	}

	s = Defaults()
	s.Model = Value{"none", flag}
	s.Backend = Value{"none", flag}
	in, _ = Build(s, cat)
	if in.Model.Value.Arch != "" || in.Backend.Value.Valid || !in.Backend.Given() {
		t.Errorf("none: %+v %+v", in.Model.Value, in.Backend)
	}
	if in.Runtime.Given() || in.Timeout.Given() || in.Pipelined.Given() {
		t.Error("defaults must stay omitted")
	}

	for _, bad := range []func(*Spec){
		func(s *Spec) { s.Version = Value{"0.9", flag} },
		func(s *Spec) { s.TimeoutMS = Value{"1e3", flag} },
		func(s *Spec) { s.Loader = Value{"trt", flag} },
		func(s *Spec) { s.Pipelined = Value{"yes", flag} },
	} {
		s := Defaults()
		bad(&s)
		if _, err := Build(s, cat); err == nil {
			t.Errorf("accepted %+v", s)
		}
	}
}

func TestEnv(t *testing.T) {
	s := Defaults()
	s.FromEnviron([]string{"TRTLLM_USE_UCX_KVCACHE=1", "PATH=/bin", "TRTLLM_X=a=b", "junk"})
	if len(s.Env) != 2 || s.Env["TRTLLM_X"].Value != "a=b" || s.Env["TRTLLM_USE_UCX_KVCACHE"].Origin.Kind != resolver.OriginEnv {
		t.Errorf("FromEnviron: %+v", s.Env)
	}
	flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--env"}
	if err := s.SetEnv("TRTLLM_USE_UCX_KVCACHE", flag); err != nil || len(s.Env) != 1 {
		t.Errorf("KEY alone should unset: %v %+v", err, s.Env)
	}
	if err := s.SetEnv("TRTLLM_USE_MPI_KVCACHE=", flag); err != nil || s.Env["TRTLLM_USE_MPI_KVCACHE"].Value != "" {
		t.Errorf("KEY= should set empty: %v", err)
	}
	for _, bad := range []string{"=1", "A B=1", ""} {
		if err := s.SetEnv(bad, flag); err == nil {
			t.Errorf("SetEnv(%q) accepted", bad)
		}
	}
	if got := s.EnvNames(); len(got) != 2 || got[0] != "TRTLLM_USE_MPI_KVCACHE" {
		t.Errorf("EnvNames = %v", got)
	}
}

// TestNestedKeysFollowTheVersion: a key KvCacheConfig does not have is refused
// for a release whose fields xcvr holds, and not when the version is an
// install's, whose nested models xcvr does not read.
func TestNestedKeysFollowTheVersion(t *testing.T) {
	file := resolver.Origin{Kind: resolver.OriginFile, Detail: "w.yaml:2"}
	s := Defaults()
	s.NestedKeys = []resolver.NestedKey{{Root: resolver.NestedKVCache,
		VersionedKey: resolver.VersionedKey{Key: "free_gpu_memroy_fraction", Input: "0.8", InputType: "float", Origin: file}}}
	s.Version = Value{"1.2.0rc1", resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	in, err := Build(s, models.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.ConfigErrors) != 1 || in.ConfigErrors[0].Root != resolver.NestedKVCache || in.ConfigErrors[0].Loc != "free_gpu_memroy_fraction" {
		t.Fatalf("1.2.0rc1: %+v", in.ConfigErrors)
	}
	s.Install = &resolver.Install{Version: "1.2.0rc1", VersionEvidence: "tensorrt_llm/version.py:2"}
	s.Version = Value{"1.2.0rc1", resolver.Origin{Kind: resolver.OriginInstall, Detail: "tensorrt_llm/version.py:2"}}
	if in, err = Build(s, models.Builtin()); err != nil || len(in.ConfigErrors) != 0 {
		t.Fatalf("install: %v %+v", err, in.ConfigErrors)
	}
}
