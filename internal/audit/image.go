package audit

import (
	"path"
	"strings"

	"xcvr/resolver"
)

// A worker's container image often says which TensorRT-LLM it runs: an
// operator who audits a manifest without --trtllm means that release, not
// xcvr's newest. Two kinds of image are read:
//
//   - NVIDIA's TensorRT-LLM release image, nvcr.io/nvidia/tensorrt-llm/release:TAG,
//     whose tag is the release (upstream's docs: "docker run ...
//     nvcr.io/nvidia/tensorrt-llm/release:x.y.z");
//   - Dynamo's TensorRT-LLM runtime, nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:TAG,
//     whose tag is Dynamo's release: dynamoTRTLLM maps it to the TensorRT-LLM
//     release that Dynamo's support matrix says it ships.
//
// Any other image, or a tag not listed, leaves xcvr's default, and the
// worker says so.

// dynamoTRTLLM is the TensorRT-LLM release each Dynamo release ships, from
// Dynamo's release data (ai-dynamo/dynamo docs/fern/components/releases.data.ts
// at 0059bada, "the single source of truth" behind its support matrix: each
// release's pins.trtllm, v0.6.0 to v1.4.2, the platform previews v1.1.0-dev.N
// and v1.3.0-dev.1 included); it agrees with docs/reference/support-matrix.md,
// which this map was first read from, for every release both list. Releases
// it does not list (0.4.x, 0.5.x; the DeepSeek-V4 model builds ship no
// TensorRT-LLM image) are not guessed.
var dynamoTRTLLM = map[string]string{
	"0.6.0":       "1.1.0rc5",
	"0.6.1":       "1.1.0rc5",
	"0.6.1.post1": "1.1.0rc5",
	"0.7.0":       "1.2.0rc2",
	"0.7.0.post1": "1.2.0rc3",
	"0.7.1":       "1.2.0rc3",
	"0.8.0":       "1.2.0rc6.post1",
	"0.8.1":       "1.2.0rc6.post1",
	"0.8.1.post1": "1.2.0rc6.post1",
	"0.8.1.post2": "1.2.0rc6.post2",
	"0.8.1.post3": "1.2.0rc6.post3",
	"0.9.0":       "1.3.0rc1",
	"0.9.1":       "1.3.0rc3",
	"1.0.0":       "1.3.0rc5.post1",
	"1.0.1":       "1.3.0rc5.post1",
	"1.0.2":       "1.3.0rc5.post1",
	"1.1.0-dev.1": "1.3.0rc5.post1",
	"1.1.0-dev.2": "1.3.0rc9",
	"1.1.0-dev.3": "1.3.0rc11",
	"1.1.0":       "1.3.0rc11",
	"1.1.1":       "1.3.0rc11",
	"1.2.0":       "1.3.0rc14",
	"1.2.1":       "1.3.0rc14",
	"1.3.0-dev.1": "1.3.0rc17",
	"1.3.0":       "1.3.0rc19",
	"1.3.1":       "1.3.0rc19",
	"1.4.0":       "1.3.0rc22",
	"1.4.1":       "1.3.0rc22",
	"1.4.2":       "1.3.0rc22",
}

// dynamoTagVariants are the suffixes of a Dynamo runtime image's tag that
// name another build of the same release: its EFA images (-efa; -efa-amd64
// before v1.3.0, whose notes say "EFA variants retagged from -efa-amd64 to
// -efa") and per-architecture tags. releases.data.ts pins one TensorRT-LLM
// per release, for the image and its EFA variant alike (its ARTIFACTS list
// "1.4.2" and "1.4.2-efa" under one "TRT-LLM v1.3.0rc22").
var dynamoTagVariants = []string{"-efa-amd64", "-efa-arm64", "-efa", "-amd64", "-arm64"}

// imageRef splits an image reference into its repository and tag ("" when
// it has none, or is pinned by digest only).
func imageRef(image string) (repo, tag string) {
	image = strings.TrimSpace(image)
	if i := strings.IndexByte(image, '@'); i >= 0 {
		image = image[:i]
		if j := strings.LastIndexByte(image, ':'); j > strings.LastIndexByte(image, '/') {
			return image[:j], image[j+1:]
		}
		return image, ""
	}
	if j := strings.LastIndexByte(image, ':'); j > strings.LastIndexByte(image, '/') {
		return image[:j], image[j+1:]
	}
	return image, ""
}

// imageVersion is the TensorRT-LLM release an image runs and how that is
// known; ok is false when the image does not say (a variable, another
// image, a tag xcvr does not list).
func imageVersion(image string) (version, how string, ok bool) {
	if strings.Contains(image, "$") {
		return "", "", false
	}
	repo, tag := imageRef(image)
	repo = strings.ToLower(repo)
	tag = strings.TrimPrefix(tag, "v")
	switch {
	case tag == "":
		return "", "", false
	case strings.HasSuffix(repo, "nvidia/tensorrt-llm/release"):
		if _, err := resolver.ParseVersion(tag); err != nil {
			return "", "", false
		}
		return tag, "the TensorRT-LLM release image's tag", true
	case path.Base(repo) == "tensorrt-llm" || path.Base(repo) == "tensorrt_llm":
		// A mirror of the release image (AIBrix's .../aibrix/tensorrt-llm:1.3.0rc8):
		// its tag, when it is a release, names it.
		if _, err := resolver.ParseVersion(tag); err != nil || !strings.ContainsAny(tag, ".") {
			return "", "", false
		}
		return tag, "a TensorRT-LLM image's tag, taken as its release (inferred)", true
	case path.Base(repo) == "tensorrtllm-runtime" && strings.Contains(repo, "ai-dynamo"):
		v, ok := dynamoTRTLLM[tag]
		for _, suf := range dynamoTagVariants {
			if ok {
				break
			}
			if base, cut := strings.CutSuffix(tag, suf); cut {
				v, ok = dynamoTRTLLM[base]
			}
		}
		if !ok {
			return "", "", false
		}
		return v, "Dynamo " + tag + " ships TensorRT-LLM " + v + " (Dynamo's support matrix)", true
	}
	return "", "", false
}

// runFlags are docker and podman run's options that take no value.
var runFlags = map[string]bool{"--rm": true, "-i": true, "-t": true, "-it": true, "-ti": true, "-d": true, "-itd": true, "-dit": true,
	"-id": true, "-td": true, "--privileged": true, "--init": true, "--detach": true, "--interactive": true, "--tty": true,
	"-P": true, "--publish-all": true, "--read-only": true, "--no-healthcheck": true, "--oom-kill-disable": true}

// commandImage is the image a command's words run: docker or podman run's
// first argument after its options, or srun's --container-image (pyxis);
// "" when none.
func commandImage(words []string) string {
	for i := 0; i < len(words) && !isSep(words[i]); i++ {
		w := words[i]
		if v, ok := strings.CutPrefix(w, "--container-image="); ok {
			return v
		}
		if w == "--container-image" && i+1 < len(words) {
			return words[i+1]
		}
		if b := path.Base(w); (b == "docker" || b == "podman" || b == "nvidia-docker") && i+1 < len(words) && words[i+1] == "run" {
			for j := i + 2; j < len(words) && !isSep(words[j]); j++ {
				a := words[j]
				if !strings.HasPrefix(a, "-") {
					return a
				}
				if !runFlags[a] && !strings.Contains(a, "=") {
					j++ // the option's value
				}
			}
			return ""
		}
	}
	return ""
}
