package resolver

import (
	"errors"
	"strconv"
	"strings"
)

// The changes before transceiver_runtime existed that decide an old release's
// answer (1.0 to 1.3.0rc7). Each day carries its evidence; [U] days are placed
// between the releases the evidence brackets.
const (
	// PR #5234 "[BREAKING CHANGE] use cacheTransceiverConfig as knobs for disagg
	// service" (reviewed 2025-06-16..19, merged 2025-07-17 as 44c70c88f9: main's
	// git log as a stored commit listing, "Commit Section 8" row 3743) [D: the v1.0.0rc4
	// release notes (published 2025-07-22) list it as new ("Use
	// cacheTransceiverConfig as knobs for disagg service (#5234)"), so it is not
	// in 1.0.0rc3 (published 2025-07-16 08:25 UTC, cut by 07-16, PR #6086); PR
	// #6085's review of 2025-07-18 already shows its code as the diff's base].
	// Before it a truthy TRTLLM_USE_{UCX,NIXL,MPI}_KVCACHE alone turned the
	// transceiver on.
	dayConfigKnobs Day = 20250717
	// The DEFAULT backend's selectors become "exactly 1, warned" (NIXL then MPI,
	// UCX otherwise) instead of #5234's own form (any non-empty
	// TRTLLM_USE_UCX/NIXL/MPI_KVCACHE, in that order, no warning) [U day: #5234's
	// form is on main on 2025-07-18 (PR #6085's diff keeps its
	// `cache_transceiver_config.backend = backend_type` line as context; the form
	// itself read in symphonylyh/TensorRT-LLM@cc079558); the later form is read
	// in raayandhar/TensorRT-LLM@3e912e56, a fork of September 2025 before #7926;
	// the PR that made the change was not found: no title in main's stored git
	// log of 2025-07-16..09-03 names it (#6085, merged 07-24, is the other
	// candidate: its review diff of 07-18 still shows #5234's form). Placed with the upper-case change
	// (#6323, "BREAKING CHANGE: Mismatch between docs and actual commands", a
	// candidate), so the 1.0 line, branched by 2025-08-07, keeps #5234's form].
	daySelectorsExact Day = 20250814
	// PR #6085 "[TRTLLM-6444] Add some UCX trouble shooting docs and print UCX
	// related logs" (reviewed 2025-07-18): the UCX INFO line is logged. Merged
	// 2025-07-24 as a63a1ac7f9 [D: main's git log as a stored commit listing,
	// "Commit Section 8" row 3631: after 69e9f6d489 (row 3702, 07-19), the
	// v1.0.0rc4 tag, and before the v1.0.0rc5 tag fbee279909 (row 3518, 08-01)].
	day6085 Day = 20250724
	// Backend names upper-case only; before it Literal["default", "ucx", "nixl",
	// "mpi"] [V llm_args.py of the time]. The change is PR #6323 "[None][fix]
	// BREAKING CHANGE: Mismatch between docs and actual commands" (Shi Xiaowei),
	// merged 2025-08-14 as 1095dfd03c [D: main's git log as a stored commit
	// listing ("Commit Section 7", row 3294); the next day #6921 "Update tests
	// to use standardized uppercase backend identifiers" (row 3276); PR #6887,
	// the author's closed "CI test" of 08-14, describes the same change:
	// "Lowercase values are no longer accepted"].
	dayUpperCase Day = 20250814
	// kv_transfer_timeout_ms becomes a field (default None): PR #8459
	// "[https://nvbugs/5429636][feat] Kv transfer timeout" (Patrice
	// Castonguay), merged 2025-10-22 as 879039f6d5 [D: main's git log as a
	// stored commit listing, row 2319, newer than the v1.2.0rc1 tag 796891ba2a
	// (row 2374, 10-19) and older than rc2's 31116825b3 (row 2115, 11-05); that
	// this commit adds kv_transfer_timeout_ms is said by a stored third-party
	// analysis of upstream ("added to main in October 2025 by commit
	// 879039f6..."), not read in its diff. PR #8178 (opened 2025-10-07, "Added
	// optional kv_transfer_timeout_ms"), which xcvr named, is not in main's log
	// under its number; not on main by 10-03 (PR #7575's thread)]. The upper-case,
	// pre-MOONCAKE llm_args.py has it.
	dayTimeoutField Day = 20251022
	// PR #7926 "Set nixl to default cache transceiver backend" (reviewed
	// 2025-09-28, merged 2025-10-19): DEFAULT resolves to NIXL; before, to UCX
	// [D: main's git log as a stored commit listing ("Commit Section 5", rows
	// 2374-2375): dd25595ae8 "[TRTLLM-7964][infra] Set nixl to default cache
	// transceiver backend (#7926)" of 2025-10-19, just before 796891ba2a, the
	// v1.2.0rc1 tag; v1.2.0rc0 (published 2025-09-30) predates it].
	dayNIXLDefault Day = 20251019
	// PR #8309 "Support Mooncake transfer engine as a cache transceiver backend"
	// (opened 2025-10-13, merged 2025-12-19): MOONCAKE joins the backend literal
	// and TRTLLM_USE_MOONCAKE_KVCACHE the selectors [D: main's git log as a
	// stored commit listing, row 1361: 9f283f330b of 2025-12-19; the real error
	// of 2025-10-27 (aiconfigurator PR #79) lists four names; 1.2.0's release
	// notes list the Mooncake backend]. The four-selector order NIXL > UCX >
	// MOONCAKE > MPI is placed with it [U: PR #9352's diff of 2025-11-21 still
	// shows the two-selector form].
	dayMooncake Day = 20251219
	// PR #12249 "BREAKING: Setting default value of KV cache transfer timeout to
	// 60s" (opened 2026-03-16, merged): kv_transfer_timeout_ms defaults to 60000
	// [D: new in the v1.3.0rc9 notes (published 2026-03-24), absent from rc8's
	// (03-17); the first transceiver_runtime llm_args.py still has None; the
	// day within that week is placed].
	dayTimeoutDefault Day = 20260320
)

// release is one row of the release table.
type release struct {
	name      string
	main      Day // the main day it behaves like (its cut, or the branch point)
	published Day // 0 when not established
	conf      Confidence
	evidence  string
}

func (r release) version() Version {
	return Version{Name: r.name, Main: r.main, Era: eraOf(r.main), Release: true, Published: r.published,
		Confidence: r.conf, Evidence: r.evidence}.withSummary()
}

// releaseTable is every release xcvr models, oldest first. Main days marked
// inferred are placed between the bounds their evidence gives; see README
// "How the versions are modelled".
//
// A release's docs build, committed to NVIDIA/TensorRT-LLM's gh-pages branch
// under <version>/, ends each page with "Last updated on <day>" and "This page
// is generated by TensorRT-LLM commit <hash>": docs/source/conf.py writes the
// build's UTC day (datetime.now) and the checkout's HEAD [V conf.py]. The build
// day bounds the cut from above; the commit is the release's tag wherever the
// tag is known (1.2.1, 1.3.0rc11, rc14, rc23 to rc27), so where main's git log
// or a weekly change report of main's commits dates that commit, it is the cut
// (derived). A commit not in main's log is a release branch's.
func releaseTable() []release {
	return []release{
		// 1.0: cut from main until release/1.0 branched [U]; lower-case backend names.
		{"1.0.0rc0", 20250621, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.0.0rc0/, footer 'Last updated on June 21, 2025' from commit ebadc13): main's ebadc13086 of 2025-06-21 (main's git log, a stored commit listing), so cut that day, before #5234, when only a TRTLLM_USE_*_KVCACHE variable turned the transceiver on; exists (tensorrtllm_backend PR #768 'TensorRT-LLM Backend v1.0.0rc0 release')"},
		{"1.0.0rc1", 20250628, 0, Inferred, "exists (tensorrtllm_backend PR #771); no docs build of its own found; placed between rc0 (main 2025-06-21) and rc2 (07-06), so before #5234 merged (07-17)"},
		{"1.0.0rc2", 20250706, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.0.0rc2/, footer 'Last updated on July 06, 2025' from commit 66f299a): main's 66f299a205 of 2025-07-06 (main's git log), before #5234 (first listed in the rc4 notes): a TRTLLM_USE_*_KVCACHE variable alone turns the transceiver on; exists (tensorrtllm_backend PR #774)"},
		{"1.0.0rc3", 20250715, 20250716, Derived, "published 2025-07-16 08:25 UTC (release page v1.0.0rc3, tag cfcb97a); main was bumped to 1.0.0rc4 that day (PR #6086), so rc3 was cut by then, before #5234 (new in the rc4 notes)"},
		{"1.0.0rc4", 20250719, 20250722, Derived, "published 2025-07-22 08:24 UTC (release page v1.0.0rc4, tag 69e9f6d): main's commit 69e9f6d489 of 2025-07-19 (main's git log, a stored commit listing), after #5234 (07-17) and before #6085 (07-24: no UCX hint yet); its notes list #5234 as new; version.py@000a01de reads 1.0.0rc4; backend names lower-case (aiconfigurator's 1.0.0rc4 template writes backend: default)"},
		{"1.0.0rc5", 20250801, 20250804, Derived, "published 2025-08-04 09:45 UTC (release page v1.0.0rc5, tag fbee279): main's commit fbee279909 of 2025-08-01 (main's git log, a stored commit listing), after #6085 (07-24, the UCX hint)"},
		{"1.0.0rc6", 20250806, 0, Derived, "main was bumped to 1.0.0rc6 on 2025-08-04 (#6597) and to 1.1.0rc0 on 2025-08-07 (#6651; main's git log, a stored commit listing), so rc6 was cut, and release/1.0 branched, by then: before the upper-case change (#6323, 08-14); published by 2025-08-21 (Dynamo PR #2606 moves from rc4 to rc6), whose engine configs still write backend: default on 2025-08-22 (PR #2670)"},
		{"1.0.0", 20250806, 0, Inferred, "the 1.0 final, placed at rc6's day: its docs build (NVIDIA/TensorRT-LLM gh-pages 1.0.0/, footer 'Last updated on September 23, 2025' from commit ae8270b), a commit not in main's git log, so built from the release/1.0 branch, taken to keep rc6's rules (lower-case backend names)"},
		// 1.1
		{"1.1.0rc0", 20250815, 20250816, Derived, "published 2025-08-16 00:09 UTC (release page v1.1.0rc0, tag 26f413a); the tag is main's commit 26f413ad90 of 2025-08-15 (main's git log, a stored commit listing, row 3288), after #6323 (upper-case backend names, row 3294, 08-14)"},
		{"1.1.0rc1", 20250819, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.1.0rc1/, footer 'Last updated on August 19, 2025' from commit 7334f93): main's 7334f9390c of 2025-08-19 (main's git log), after #6323 (upper-case backend names, 08-14); Dynamo PR #2930 (2025-09-08) writes its engine configs' backend names upper-case (DEFAULT/UCX)"},
		{"1.1.0rc2", 20250829, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.1.0rc2/, footer 'Last updated on August 29, 2025' from commit 15ec2b8): main's 15ec2b855d of 2025-08-29 (main's git log), before #7926 (DEFAULT -> NIXL, merged 2025-10-19); exists (tensorrtllm_backend PR #794)"},
		{"1.1.0rc2.post1", 20250829, 0, Inferred, "a patch of rc2: rc2's rules"},
		{"1.1.0rc2.post2", 20250829, 0, Inferred, "a patch of rc2: rc2's rules"},
		{"1.1.0rc3", 20250905, 0, Inferred, "exists (Dynamo PR #2930, opened 2025-09-08, is titled 'Update trtllm version to 1.1.0rc3'); no docs build of its own found; placed between rc2 (main 2025-08-29) and rc4 (published by 09-10)"},
		{"1.1.0rc4", 20250909, 20250910, Derived, "published by 2025-09-10: tensorrtllm_backend PR #796 'TensorRT-LLM Backend v1.1.0rc4 release' (commit of 2025-09-10 07:06 UTC) moves its tensorrt_llm submodule to 62b564ac; cut day placed the day before, before #7926 (merged 2025-10-19)"},
		{"1.1.0rc5", 20250917, 0, Derived, "main was bumped from 1.1.0rc5 to 1.1.0rc6 on 2025-09-18 (PR #7824), so rc5 was cut by then, before #7926 (merged 2025-10-19): DEFAULT still means UCX; exists (tensorrtllm_backend PR #799)"},
		{"1.1.0", 20250917, 0, Inferred, "the 1.1 final, placed at rc5's day: its docs build (NVIDIA/TensorRT-LLM gh-pages 1.1.0/, footer 'Last updated on December 12, 2025' from commit 48b7b5d), a commit not in main's git log, so built from its release branch, taken to keep rc5's line (main moved on to 1.2)"},
		// 1.2
		{"1.2.0rc0", 20250929, 20250930, Derived, "published 2025-09-30 07:55 UTC (release page v1.2.0rc0, tag 560ded5); cut day placed the day before, so before #7926 (merged to main 2025-10-19, dd25595ae8 in main's git log): DEFAULT still means UCX"},
		{"1.2.0rc1", 20251019, 20251022, Derived, "published 2025-10-22 06:56 UTC (release page v1.2.0rc1, tag 796891b); the tag is main's commit 796891ba2a of 2025-10-19, the next after #7926's dd25595ae8 in main's git log (a stored commit listing): DEFAULT means NIXL"},
		{"1.2.0rc2", 20251105, 20251107, Derived, "published by 2025-11-07: tensorrtllm_backend PR #819 'TensorRT-LLM Backend v1.2.0rc2 release' (commit of 2025-11-07 02:26 UTC) moves its submodule from rc1's 796891b to 31116825, main's commit 31116825b3 of 2025-11-05 (main's git log, a stored commit listing)"},
		{"1.2.0rc3", 20251120, 20251121, Derived, "published 2025-11-21 08:35 UTC (release page v1.2.0rc3, tag 2128f73; its notes add TRTLLM_NIXL_KVCACHE_BACKEND, #9075); the tag is main's commit 2128f73d58 of 2025-11-20 (main's git log, a stored commit listing): after #9155 (11-18), before #8309 (MOONCAKE, 12-19); main was bumped to rc4 on 11-21 (#9363)"},
		{"1.2.0rc4", 20251202, 0, Inferred, "exists (tensorrtllm_backend PR #825); placed after rc3"},
		{"1.2.0rc5", 20251207, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.0rc5/, footer 'Last updated on December 07, 2025' from commit e4c7078): main's e4c707845f of 2025-12-07 (main's git log); main was bumped to 1.2.0rc6 on 12-10 (#9874): before #8309 (MOONCAKE, 12-19)"},
		{"1.2.0rc6", 20251215, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.0rc6/, footer 'Last updated on December 15, 2025' from commit 9ba1426): main's 9ba14263db of 2025-12-15 (main's git log), four days before #8309 (MOONCAKE, 9f283f330b of 12-19): no MOONCAKE, the two-selector form; its patches .post1 and .post3 show CacheTransceiverConfig.backend Literal['DEFAULT', 'UCX', 'NIXL', 'MPI'] in their own llm_args.py (verified)"},
		{"1.2.0rc6.post1", 20251215, 0, Derived, "a patch of rc6 (Dynamo PR #5361, 2026-01-12): its docs (gh-pages 1.2.0rc6.post1/, built 2026-01-07 from e4a6c99, a release-branch commit) hold its llm_args.py, whose CacheTransceiverConfig has backend Literal['DEFAULT', 'UCX', 'NIXL', 'MPI'], kv_transfer_timeout_ms and kv_transfer_sender_future_timeout_ms: rc6's fields, no MOONCAKE (verified); rc6's rules"},
		{"1.2.0rc6.post2", 20251215, 20260122, Derived, "a patch of rc6: rc6's rules; on PyPI on 2026-01-22 (the release history quoted in PR #11224, 2026-02-03), its docs built that day from 50379d0; between .post1 and .post3, whose llm_args.py both lack MOONCAKE (verified)"},
		{"1.2.0rc6.post3", 20251215, 0, Derived, "a patch of rc6: version bumped to it on 2026-02-03 (PR #11224); its docs (gh-pages 1.2.0rc6.post3/, built 2026-02-04 from 7c6df0e) hold its llm_args.py: backend Literal['DEFAULT', 'UCX', 'NIXL', 'MPI'], no MOONCAKE, and update_llm_args_with_extra_dict builds KvCacheConfig (verified); rc6's rules"},
		{"1.2.0rc6.post4", 20251215, 0, Inferred, "a patch of rc6: rc6's rules (.post1 to .post3 kept them, verified); version bumped to it on 2026-04-08 (PR #12857)"},
		{"1.2.0rc7", 20260104, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.0rc7/, footer 'Last updated on January 04, 2026' from commit a65b0d4): main's a65b0d4efa (main's git log, which dates it 2026-01-05 in local time; the UTC build day bounds it); main was bumped to 1.2.0rc8 on 01-08 (#10542)"},
		{"1.2.0rc8", 20260111, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.0rc8/, footer 'Last updated on January 11, 2026' from commit 80649a8): main's 80649a8b78 of 2026-01-11 (main's git log); main was bumped to rc8 on 01-08 (#10542); exists (tensorrtllm_backend PR #837); no modelled change falls between 2025-12-19 and 2026-02-02"},
		{"1.2.0", 20260111, 20260312, Inferred, "the 1.2 final, published 2026-03-12 19:43 UTC (release page v1.2.0, tag 51f5ef3; its notes are the 1.2 line's, with the Mooncake backend and no transceiver_runtime); its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.0/, footer 'Last updated on March 12, 2026' from commit dbdb13b), a commit not in main's git log: the release branch, taken to keep rc8's line"},
		{"1.2.1", 20260111, 0, Inferred, "release/1.2 was bumped to it on 2026-04-03 (PR #12755); its docs build (NVIDIA/TensorRT-LLM gh-pages 1.2.1/, footer 'Last updated on April 16, 2026' from commit 376f7e1), the v1.2.1 tag (a third-party pin table: 376f7e1bd8): the release branch; 1.2.0's rules"},
		// 1.3 before transceiver_runtime
		{"1.3.0rc0", 20260118, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc0/, footer 'Last updated on January 18, 2026' from commit 0af1a0e): main's 0af1a0e478 of 2026-01-18 (main's git log), after 1.2.0rc8 (01-11) and before #10659 (02-02)"},
		{"1.3.0rc1", 20260125, 20260127, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc1/, footer 'Last updated on January 25, 2026' from commit 45d7022): main's 45d7022cc3 ('Waive failed tests on main 1/25', dated 2026-01-26 in local time in main's git log); on PyPI on 2026-01-27 (the release history quoted in PR #11224), the day main was bumped to rc2 (#11021)"},
		{"1.3.0rc2", 20260203, 0, Inferred, "main was bumped to 1.3.0rc2 on 2026-01-27 (#11021) and to rc3 on 02-03 (#11238; main's git log, a stored commit listing), so rc2 was cut in between; placed at 02-03, so after #10659 (02-02: use_kv_cache_manager_v2), which the cut may precede"},
		{"1.3.0rc3", 20260210, 20260212, Derived, "published 2026-02-12 19:48 UTC (release page v1.3.0rc3, tag b464c75); cut day placed before"},
		{"1.3.0rc4", 20260217, 0, Inferred, "exists; placed between rc3 and rc5"},
		{"1.3.0rc5", 20260222, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc5/, footer 'Last updated on February 23, 2026' from commit 630fccb): main's 630fccb3ca of 2026-02-22 (main's git log); published by 2026-02-25 (Dynamo PR #6579)"},
		{"1.3.0rc5.post1", 20260222, 0, Inferred, "a patch of rc5 (Dynamo PR #7040, 2026-03-06): rc5's rules"},
		{"1.3.0rc5.post2", 20260222, 0, Inferred, "a patch of rc5: rc5's rules; a branch was bumped from 1.3.0rc6 to it on 2026-04-06 (PR #12777)"},
		{"1.3.0rc6", 20260303, 0, Inferred, "exists; placed between rc5 and rc7"},
		{"1.3.0rc7", 20260310, 20260310, Derived, "published 2026-03-10 20:30 UTC (release page v1.3.0rc7, tag 69de4a6); before transceiver_runtime (new in the rc8 notes)"},
		{"1.3.0rc8", 20260317, 20260317, Derived, "published 2026-03-17 19:43 UTC (release page v1.3.0rc8, tag 73cca36); the first release with transceiver_runtime: its notes add the Python cache transceiver"},
		{"1.3.0rc9", 20260324, 20260324, Derived, "published 2026-03-24 17:08 UTC (release page v1.3.0rc9, tag 3353334); its notes list #12249 (kv_transfer_timeout_ms defaults to 60 s) as new"},
		{"1.3.0rc10", 20260330, 20260331, Derived, "published 2026-03-31 10:02 UTC (release page v1.3.0rc10, tag 628bb56; its notes list 'Consolidate PyTransceiver code (#12342)' as new); the tag is main's commit 628bb56 '[chore] Fixing guardword check' of 2026-03-30 03:37 UTC (a stored daily digest of main's commits)"},
		{"1.3.0rc11", 20260408, 20260409, Derived, "published 2026-04-09 12:57 UTC (release page v1.3.0rc11, tag 4e69c14); its docs build says 'Last updated on April 08, 2026', generated from 4e69c14, the tag"},
		{"1.3.0rc12", 20260416, 0, Derived, "main was bumped to 1.3.0rc12 at 61cef21 (2026-04-16 16:21 UTC) and the v1.3.0rc13 release notes' 'What's Changed' (commits since rc12's tag, quoted by a stored digest of 2026-05-05) starts with #13042, main's next commit (4d29d83, 04-16 19:31 UTC; a stored daily digest of main's commits): cut on 04-16"},
		{"1.3.0rc12.post1", 20260416, 0, Inferred, "built on the feat/deepseek_v4 branch (PR #14690 cites commit 45d0452 'Update version to 1.3.0rc12.post1'; its docs were built 2026-05-15 from 11e16cd): rc12's rules"},
		{"1.3.0rc13", 20260426, 0, Derived, "its tag is b9ce4b69 (third-party QA and test notes: '1.3.0rc13 b9ce4b69', 'pin b9ce4b69 on main (1.3.0rc13)'), main's lock-file commit of 2026-04-26 (a daily digest of main's commits generated 04-27); main was bumped to rc14 on 04-29 (#13602); published by 2026-05-04 (Dynamo PR #9126)"},
		{"1.3.0rc14", 20260505, 0, Inferred, "its tag is 93cb6518 (third-party pins: 'tag v1.3.0rc14, commit 93cb6518b6'), whose docs build says 'Last updated on May 06, 2026': cut between main's bump to rc14 (04-29, #13602) and 05-06; day placed at 05-05; published by 2026-05-07 (Dynamo PR #9264)"},
		{"1.3.0rc15", 20260520, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc15/, footer 'Last updated on May 20, 2026' from commit c72d43d): main's c72d43d896 of 2026-05-20 (a weekly change report of main's commits, 05-18..05-25); main was bumped to rc16 on 05-21 (#14422)"},
		{"1.3.0rc15.post1", 20260520, 0, Inferred, "built on the feat/deepseek_v4 branch (PR #14690, 2026-05-28): rc15's rules"},
		{"1.3.0rc16", 20260525, 20260526, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc16/, footer 'Last updated on May 25, 2026' from commit 4517988): main's 4517988cb3 of 2026-05-25 (weekly change report); published on GitHub 2026-05-26 08:08 UTC (a third-party article quoting the release); main was bumped to rc17 on 05-28 (#14657)"},
		{"1.3.0rc17", 20260601, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc17/, footer 'Last updated on June 01, 2026' from commit a422420): main's a422420db9 of 2026-06-01 (weekly change report); main was bumped to rc18 on 06-03 (#14872); published by 2026-06-03 (Dynamo PR #10251)"},
		// 1.3 from the spec's release list.
		{"1.3.0rc18", 20260609, 20260610, Derived, "published 2026-06-10; cut from main the day before (PR #15188 bumps main to rc19 on 06-10)"},
		{"1.3.0rc19", 20260622, 20260623, Derived, "published 2026-06-23; cut from main the day before"},
		{"1.3.0rc20", 20260629, 20260630, Derived, "published 2026-06-30 01:11 UTC; last era-0 anchor in the spec"},
		{"1.3.0rc21", 20260715, 20260715, Derived, "published 2026-07-15 22:46 UTC, before #16164 merged on 07-16"},
		{"1.3.0rc22", 20260721, 20260722, Derived, "published 2026-07-22; era 1 verified (rc22 release notes list #16164); main moved to rc23 that day"},
		{"1.3.0rc23", 20260730, 0, Inferred, "its tag is d41ab33df1 (a third-party article on v1.3.0rc23), whose docs build says 'Last updated on July 30, 2026': cut by 07-30, after main moved to rc23 (07-22); day placed at the build day, as for the releases whose tag day is known; published by 2026-08-04"},
		{"1.3.0rc24", 20260809, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc24/, footer 'Last updated on August 09, 2026' from commit 1cef02e), the v1.3.0rc24 tag 1cef02e901 (third-party pins: 'commit date 2026-08-09T03:44:40-07:00'), main's commit of 08-09 (#17282, weekly change report): after #17269 (08-06), before #17137 (placed 08-10); main was bumped to rc25 on 08-11 (#17481); published by 2026-08-13"},
		{"1.3.0rc25", 20260827, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc25/, footer 'Last updated on August 27, 2026' from commit 785c948), the v1.3.0rc25 tag 785c948197 (a third-party citation: 'committer date 2026-08-27T19:59:30+08:00', 11:59 UTC): before #18134 (08-28); not on NGC on 2026-08-20; main was bumped to rc26 on 08-31 (#18402)"},
		{"1.3.0rc26", 20260904, 20260909, Derived, "published 2026-09-09 09:37 UTC; the tag c295dd9 is main's c295dd9fca of 2026-09-04 (#18675, weekly change report) and its docs build says 'Last updated on September 04, 2026' from c295dd9: after #15727 (e34a4ff974, 09-02), before #17899 (c3c207a190, 09-05); era 2 verified (docs 1.3.0rc26 kv-transfer: transceiver_runtime 'defaults to auto, which selects it on the supported NIXL path')"},
		{"1.3.0rc27", 20260914, 0, Derived, "its tag 6e1cc953c0 (a third-party pin of v1.3.0rc27) is main's commit of 2026-09-14 (#19134, weekly change report) and its docs build says 'Last updated on September 14, 2026' from 6e1cc95: before #19140 and #19004 (both 09-15); main was bumped to rc28 only on 09-17 (PR #19346), so that day's nightly still says rc27; era 2 and #15727 verified (docs 1.3.0rc27 CacheTransceiverConfig: transceiver_runtime = 'auto', enable_pipelined_transfer, no agent_bounce_*)"},
		{"1.3.0rc28", 20260921, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc28/, footer 'Last updated on September 21, 2026' from commit fca831e): main's fca831eac3 of 2026-09-21 (#19269, weekly change report), as the docs commit is the tag wherever the tag is known (rc11, rc14, rc23 to rc27); main was bumped to rc29 on 09-23; exists (NGC tag)"},
		{"1.3.0rc29", 20260924, 0, Derived, "its docs build (NVIDIA/TensorRT-LLM gh-pages 1.3.0rc29/, footer 'Last updated on September 26, 2026' from commit c76f4a8): main's c76f4a8564 of 2026-09-24 (#19532, weekly change report), the day after main was bumped to rc29 (bc38304d3d, 09-23); before #17495 per the 1.4.0rc1 notes; exists (NGC tag)"},
		{"1.4.0rc1", 20261021, 20261022, Derived, "published 2026-10-22 01:38 UTC (tag 0372799); era 3 verified (notes list #17495; docs 1.4.0rc1 CacheTransceiverConfig: transceiver_runtime = 'PYTHON', agent_bounce_* fields)"},
		{"1.4.0rc2", 20261028, 0, Inferred, "implied by 1.4.0rc4 docs; date not established: no docs build of its own on gh-pages and no version bump or commit listing after 2026-10-05 in the index; placed a week after rc1"},
		{"1.4.0rc3", 20261104, 0, Inferred, "implied by 1.4.0rc4 docs; date not established (as rc2); placed a week after rc2"},
		{"1.4.0rc4", 20261111, 0, Inferred, "era 3 verified (docs 1.4.0rc4: transceiver_runtime = 'PYTHON'; agent_bounce_buffer_enable a deprecated no-op); date not established"},
	}
}

// rulesSummary describes the rules of main at day d in one line: the era, or
// for a build before transceiver_runtime what decides its answer.
func rulesSummary(d Day, era int) string {
	if d >= dayFieldExists || era != 0 {
		return EraSummary(era)
	}
	def := "DEFAULT means NIXL"
	if d < dayNIXLDefault {
		def = "DEFAULT means UCX"
	}
	switch {
	case d < dayConfigKnobs:
		return "before #5234: no transceiver_runtime; a truthy TRTLLM_USE_*_KVCACHE alone turns the C++ transceiver on"
	case d < daySelectorsExact:
		return "before transceiver_runtime: the C++ transceiver only; backend names lower-case (ucx, nixl, mpi, default); default takes the first non-empty TRTLLM_USE_UCX/NIXL/MPI_KVCACHE, else UCX (#5234's form)"
	case d < dayUpperCase:
		return "before transceiver_runtime: the C++ transceiver only; backend names lower-case (ucx, nixl, mpi, default; DEFAULT means UCX)"
	default:
		return "before transceiver_runtime: the C++ transceiver only; backend names upper-case; " + def
	}
}

// versionKey orders TensorRT-LLM versions as PEP 440 does for the forms
// upstream publishes: X.Y.Z, rcN before the final, .postN after its base, and
// .devN before it.
type versionKey struct {
	major, minor, patch int
	rc                  int // finalRC for a final release
	post                int // -1 when there is none
	dev                 int64
	isDev               bool
}

const finalRC = 1 << 30

func (a versionKey) less(b versionKey) bool {
	switch {
	case a.major != b.major:
		return a.major < b.major
	case a.minor != b.minor:
		return a.minor < b.minor
	case a.patch != b.patch:
		return a.patch < b.patch
	case a.rc != b.rc:
		return a.rc < b.rc
	case a.post != b.post:
		return a.post < b.post
	case a.isDev != b.isDev:
		return a.isDev
	}
	return a.dev < b.dev
}

// String is the canonical spelling.
func (a versionKey) String() string {
	s := strconv.Itoa(a.major) + "." + strconv.Itoa(a.minor) + "." + strconv.Itoa(a.patch)
	if a.rc != finalRC {
		s += "rc" + strconv.Itoa(a.rc)
	}
	if a.post >= 0 {
		s += ".post" + strconv.Itoa(a.post)
	}
	if a.isDev {
		s += ".dev" + strconv.FormatInt(a.dev, 10)
	}
	return s
}

// errVersionForm is the shape ParseVersion accepts.
const versionForm = "X.Y.Z[rcN][.postN][.devYYYYMMDDNN] (e.g. 1.1.0rc5, 1.1.0rc2.post2) or main@YYYY-MM-DD"

// parseVersionKey reads X.Y.Z[rcN][.postN][.devN] (lower case, no leading v).
func parseVersionKey(s string) (versionKey, bool) {
	k := versionKey{rc: finalRC, post: -1}
	num := func(t string, max int) (int, bool) {
		if t == "" || len(t) > max {
			return 0, false
		}
		n := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, true
	}
	rest := s
	if i := strings.Index(rest, ".dev"); i >= 0 {
		d := rest[i+4:]
		if d == "" || len(d) > 14 {
			return k, false
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 || d[0] == '+' || d[0] == '-' {
			return k, false
		}
		k.isDev, k.dev, rest = true, n, rest[:i]
	}
	if i := strings.Index(rest, ".post"); i >= 0 {
		n, ok := num(rest[i+5:], 4)
		if !ok {
			return k, false
		}
		k.post, rest = n, rest[:i]
	}
	if i := strings.Index(rest, "rc"); i >= 0 {
		n, ok := num(rest[i+2:], 4)
		if !ok {
			return k, false
		}
		k.rc, rest = n, rest[:i]
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return k, false
	}
	var ok bool
	if k.major, ok = num(parts[0], 4); !ok {
		return k, false
	}
	if k.minor, ok = num(parts[1], 4); !ok {
		return k, false
	}
	if k.patch, ok = num(parts[2], 4); !ok {
		return k, false
	}
	return k, true
}

// PlaceVersion answers any X.Y.Z[rcN][.postN][.devYYYYMMDDNN] from 1.0 on: a
// release xcvr lists is itself; a nightly whose .dev suffix dates it on a day xcvr
// models is main on that day; any other version takes the rules of the release
// before it (the newest's when it is newer than all of them), marked inferred,
// with a Placement sentence for stderr. A 0.x version is refused, naming the
// oldest release modelled.
func PlaceVersion(s string) (Version, error) {
	rt := releaseTable()
	norm := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v")
	k, ok := parseVersionKey(norm)
	if !ok {
		return Version{}, errors.New("unknown TensorRT-LLM version " + strconv.Quote(s) + ": want " + versionForm +
			"; xcvr models " + rt[0].name + " to " + rt[len(rt)-1].name)
	}
	canon := k.String()
	if k.major == 0 {
		return Version{}, errors.New("TensorRT-LLM " + canon + " is not modelled: xcvr's rules start at " +
			rt[0].name + " (the first 1.0 release candidate); 0.x releases predate cache_transceiver_config")
	}
	for _, r := range rt {
		if r.name == canon {
			return r.version(), nil
		}
	}
	if k.isDev {
		// A nightly carries the next release's name and the day it was built
		// from main (1.3.0rc27.dev2026091700 is main on 2026-09-17).
		if d, ok := devDay(norm); ok && d >= rt[0].main {
			v, err := mainVersion("main@"+d.String(), d)
			if err == nil {
				v.Placement = canon + " is a nightly of main: answered as main@" + d.String()
				return v, nil
			}
		}
	}
	newest := rt[len(rt)-1]
	idx := -1
	for i, r := range rt {
		rk, _ := parseVersionKey(r.name)
		if rk.less(k) {
			idx = i
		}
	}
	var nb release
	var placement, evidence string
	switch {
	case idx == len(rt)-1:
		nb = newest
		placement = "xcvr's rules end at " + newest.name + "; " + canon + " is answered with them; pass --install to read yours"
		evidence = canon + " is newer than every release xcvr lists: answered with " + newest.name + "'s rules (inferred)"
	case idx < 0:
		nb = rt[0]
		placement = canon + " precedes every release xcvr lists; it is answered with the rules of " + nb.name + ", the oldest; pass --install to read yours"
		evidence = canon + " is older than every release xcvr lists: answered with " + nb.name + "'s rules (inferred)"
	default:
		nb = rt[idx]
		placement = canon + " is not a release xcvr lists; it is answered with the rules of " + nb.name + ", the release before it; pass --install to read yours"
		evidence = canon + " lies between " + nb.name + " and " + rt[idx+1].name + ": answered with " + nb.name + "'s rules (inferred)"
	}
	v := Version{Name: canon, Main: nb.main, Era: eraOf(nb.main), Release: true, Confidence: Inferred,
		Evidence: evidence, Placement: placement}.withSummary()
	return v, nil
}

// Family is a version's release line, "1.3" for 1.3.0rc22, or "main" for a
// main@DATE build.
func (v Version) Family() string {
	if !v.Release {
		return "main"
	}
	k, ok := parseVersionKey(v.Name)
	if !ok {
		return ""
	}
	return strconv.Itoa(k.major) + "." + strconv.Itoa(k.minor)
}

// ReleaseFamily is one release line and its releases, oldest first.
type ReleaseFamily struct {
	Name     string // "1.3"
	Releases []Version
}

// ReleaseFamilies groups KnownVersions by release line, oldest first, for lists
// that would be too long flat (the explorer's version row, `xcvr versions`).
func ReleaseFamilies() []ReleaseFamily {
	var out []ReleaseFamily
	for _, v := range KnownVersions() {
		f := v.Family()
		if len(out) == 0 || out[len(out)-1].Name != f {
			out = append(out, ReleaseFamily{Name: f})
		}
		out[len(out)-1].Releases = append(out[len(out)-1].Releases, v)
	}
	return out
}

// BackendLiterals is the Literal[...] of cache_transceiver_config.backend in
// the build's rules: an install's annotation where it was read, else xcvr's
// model of the release (lower-case before the upper-case change of
// 2025-08-14, MOONCAKE from its addition on).
func BackendLiterals(rs *Rules) []string { return rs.backendNames() }

// backendNames is the build's backend names: its backend field's Literal,
// else (before #5234, when there is no such field) the names of its day.
func (rs *Rules) backendNames() []string {
	if lits := rs.fieldLiterals("backend"); len(lits) > 0 {
		return lits
	}
	return backendLiteralsAt(rs)
}

// backendLiteralsAt is the backend names of xcvr's model of a build, by the
// dated changes its rules hold.
func backendLiteralsAt(rs *Rules) []string {
	switch {
	case !rs.Has(dayUpperCase):
		return []string{"default", "ucx", "nixl", "mpi"}
	case !rs.Has(dayMooncake):
		return []string{"DEFAULT", "UCX", "NIXL", "MPI"}
	}
	return []string{"DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI"}
}

// selectorsAt is the DEFAULT backend's selector order in xcvr's model of a
// build, by the dated changes its rules hold, and what DEFAULT becomes when
// none of them is exactly "1".
func selectorsAt(rs *Rules) ([]BackendSelector, string) {
	switch {
	case !rs.Has(daySelectorsExact):
		// #5234's own form: `if getenv("TRTLLM_USE_UCX_KVCACHE")` ... `elif
		// getenv("TRTLLM_USE_NIXL_KVCACHE")` ... `elif
		// getenv("TRTLLM_USE_MPI_KVCACHE")`, UCX otherwise, no warning
		// (selectorsTruthyAt) [V symphonylyh/TensorRT-LLM@cc079558
		// tensorrt_llm/_torch/pyexecutor/kv_cache_transceiver.py:40-46].
		return legacySelectors(), "UCX"
	case !rs.Has(dayNIXLDefault):
		// kv_cache_transceiver.py of the time: env_vars =
		// [("TRTLLM_USE_NIXL_KVCACHE", BackendTypeCpp.NIXL),
		// ("TRTLLM_USE_MPI_KVCACHE", BackendTypeCpp.MPI)], UCX otherwise
		// [V raayandhar/TensorRT-LLM@3e912e56
		// tensorrt_llm/_torch/pyexecutor/kv_cache_transceiver.py:38-44].
		return []BackendSelector{{EnvUseNIXL, "NIXL"}, {EnvUseMPI, "MPI"}}, "UCX"
	case !rs.Has(dayMooncake):
		// kv_cache_transceiver.py of the time: [("TRTLLM_USE_UCX_KVCACHE", "UCX"),
		// ("TRTLLM_USE_MPI_KVCACHE", "MPI")], NIXL otherwise [V].
		return []BackendSelector{{EnvUseUCX, "UCX"}, {EnvUseMPI, "MPI"}}, "NIXL"
	}
	return backendSelectors(), "NIXL"
}

// selectorsTruthyAt reports whether the build's DEFAULT backend takes any
// non-empty selector value, without a warning: #5234's own form, from #5234
// until the exactly-"1" form (daySelectorsExact).
func selectorsTruthyAt(rs *Rules) bool {
	return rs.Has(dayConfigKnobs) && !rs.Has(daySelectorsExact)
}

// legacySelectors are the variables that alone turned the transceiver on before
// #5234, in the order create_kv_cache_transceiver tried them (any non-empty
// value counted: plain truthiness of getenv) [V: a pre-#5234
// kv_cache_transceiver.py stored copy, `if getenv("TRTLLM_USE_UCX_KVCACHE")`
// ... `elif getenv("TRTLLM_USE_NIXL_KVCACHE")` ... `elif
// getenv("TRTLLM_USE_MPI_KVCACHE")`, no transceiver when none is set]. #5234
// kept the same order and truthiness for backend DEFAULT, with UCX when none
// is set and no warning [V symphonylyh/TensorRT-LLM@cc079558 :40-46], until
// daySelectorsExact.
func legacySelectors() []BackendSelector {
	return []BackendSelector{{EnvUseUCX, "UCX"}, {EnvUseNIXL, "NIXL"}, {EnvUseMPI, "MPI"}}
}

// DisabledRequestError is the assertion a worker without a transceiver raises
// for each disaggregated request, from #5234 on (executor/worker.py; the stray
// backquote is upstream's) [V: six stored executor/worker.py versions assert
// it verbatim; later ones also let a "context_and_generation" request through].
const DisabledRequestError = "AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:<backend_type>` in config file for disaggregated serving"

// hasField reports whether cache_transceiver_config has the field in this
// build's rules. Only the fields whose arrival xcvr dates are left out of a
// release's field set before their day (releaseFields); the install's own
// field set, when read, decides every field.
func (r *run) hasField(f string) bool {
	if _, ok := r.rules.field(f); ok {
		return true
	}
	if r.rules.FieldsRead {
		return false
	}
	// A key no release declares is the reader's extra input; a dated field
	// absent from this release's set is not a field here.
	return !datedField(f)
}

// fieldSince says from when a dated field exists, for hints.
func fieldSince(f string) string {
	switch f {
	case "transceiver_runtime":
		return "the field exists only from 1.3.0rc8 (" + dayFieldExists.String() + "); before it the C++ transceiver is the only one"
	case "kv_transfer_timeout_ms":
		return "the field exists only from " + dayTimeoutField.String() + " (#8459, derived): 1.2.0rc2 on"
	}
	d, ok := fieldFirstDay(f)
	if !ok || d == 0 {
		return "not a field in this release"
	}
	if c := fieldDayConfidence(f); c != Verified {
		return "the field exists only from about " + d.String() + " (" + string(c) + ")"
	}
	return "the field exists only from " + d.String()
}

// pyTypeOfStr is pydantic's input_type for a PyStr.
func pyTypeOfStr(v PyStr) string {
	if !v.Valid {
		return "NoneType"
	}
	return "str"
}

// pyTypeOfInt is pydantic's input_type for an OptInt.
func pyTypeOfInt(v OptInt) string {
	if !v.Valid {
		return "NoneType"
	}
	return "int"
}

// SpellBackend returns the build's own spelling of backend b ("ucx" for UCX
// in 1.0), or b when the build has no such name.
func SpellBackend(rs *Rules, b string) string {
	for _, lit := range rs.backendNames() {
		if equalFold(lit, b) {
			return lit
		}
	}
	return b
}

// RulesBrief is a few words on what decides the build's answer, for tables:
// how the transceiver is switched on, the backend spellings, what DEFAULT
// means and the transceiver_runtime default, all read from its rules.
func RulesBrief(rs *Rules) string {
	lits := rs.backendNames()
	names := strings.Join(lits[1:], ",")
	switch {
	case !rs.Has(dayConfigKnobs):
		return "env TRTLLM_USE_*_KVCACHE switches C++ on; no runtime field"
	case !rs.Has(dayFieldExists):
		return "C++ only; backend " + names + "; DEFAULT=" + rs.DefaultBackend
	case rs.On(PathDefaultPython):
		return "runtime default PYTHON; C++ deprecated"
	case rs.On(PathAutoPython):
		return "runtime default auto: PYTHON on NIXL unless ruled out"
	case rs.On(PathConfigLoad):
		return "runtime default auto: model's PYTHON on NIXL, else C++"
	}
	if !rs.Has(dayPyTransceiverV2) {
		// 1.3.0rc8 and rc9: 'PYTHON' builds the first Python transceiver.
		return "runtime CPP|PYTHON (" + ClassPythonNative + "), default None (C++); DEFAULT=" + rs.DefaultBackend
	}
	return "runtime CPP|PYTHON, default None (C++); DEFAULT=" + rs.DefaultBackend
}
