package resolver

import "testing"

// FuzzResolve checks that Resolve never panics and always returns a well-formed
// trace, whatever the inputs: any literal, any environment value, any model.
func FuzzResolve(f *testing.F) {
	f.Add(uint8(0), "DEFAULT", "unset", int64(60000), uint8(0), uint8(0), "1", "", "GptOssForCausalLM", "PYTHON", uint8(0))
	f.Add(uint8(5), "UCX", "auto", int64(-1), uint8(1), uint8(1), "true", "1", "", "", uint8(3))
	f.Add(uint8(12), "nixl", "Auto", int64(0), uint8(2), uint8(2), "01", "0", "KimiLinearForCausalLM", "python", uint8(7))
	f.Add(uint8(200), "", "null", int64(1<<40), uint8(3), uint8(3), " 1", "1", "X", "CPP", uint8(255))
	versions := KnownVersions()
	f.Fuzz(func(t *testing.T, vi uint8, backend, runtime string, timeout int64, loader, pipe uint8, ucx, cancel, arch, pref string, flags uint8) {
		v := versions[int(vi)%len(versions)]
		if vi >= 128 {
			// main@ days across all eras, including far future ones.
			v = Version{Name: "main@x", Main: dayFieldExists + Day(vi), Era: eraOf(dayFieldExists + Day(int(vi)*100))}
			v.Main = dayFieldExists + Day(int(vi)*100)
		}
		flag := Origin{Kind: OriginFlag}
		in := Inputs{Version: v, Env: Env{}}
		if backend != "" {
			in.Backend = Field[PyStr]{Str(backend), flag}
		} else if flags&1 != 0 {
			in.Backend = Field[PyStr]{PyStr{}, flag}
		}
		switch runtime {
		case "unset":
		case "null":
			in.Runtime = Field[PyStr]{PyStr{}, flag}
		default:
			in.Runtime = Field[PyStr]{Str(runtime), flag}
		}
		if flags&2 != 0 {
			in.Timeout = Field[OptInt]{Int(timeout), flag}
		} else if flags&4 != 0 {
			in.Timeout = Field[OptInt]{OptInt{}, flag}
		}
		in.Loader = Field[Loader]{Loaders()[int(loader)%3], flag}
		if pipe%3 != 0 {
			in.Pipelined = Field[bool]{pipe%3 == 1, flag}
		}
		in.Env[EnvUseUCX] = EnvVar{Value: ucx}
		if flags&8 != 0 {
			in.Env[EnvInflightCancel] = EnvVar{Value: cancel}
			in.Env[EnvUseMPI] = EnvVar{Value: cancel}
			in.Env[EnvNIXLBackend] = EnvVar{Value: ucx}
		}
		m := ModelInfo{Arch: arch, Known: arch != "" && flags&16 != 0, Class: arch, RequiresPython: flags&32 != 0}
		if pref != "" {
			m.Preference = Str(pref)
		}
		in.Model = Field[ModelInfo]{Value: m}
		if flags&64 != 0 {
			in.ConfigErrors = []FieldError{{Loc: "foo", Message: "Extra inputs are not permitted", Type: "extra_forbidden", Input: "1", InputType: "int"}}
		}
		checkWellFormed(t, Resolve(in))
	})
}
