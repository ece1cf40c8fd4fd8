package buildinfo

import (
	"runtime/debug"
	"testing"
)

func vcs(rev, tm, modified string) []debug.BuildSetting {
	return []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: rev},
		{Key: "vcs.time", Value: tm},
		{Key: "vcs.modified", Value: modified},
	}
}

const rev = "2a7aee9abcdef0123456789abcdef0123456789a"

func TestFromBuild(t *testing.T) {
	cases := []struct {
		name  string
		stamp Stamp
		bi    *debug.BuildInfo
		want  Info
	}{{
		name:  "release: every field stamped, the toolchain's record ignored",
		stamp: Stamp{Version: "0.2.0", Commit: rev, Date: "2026-12-01T10:00:00Z"},
		bi:    &debug.BuildInfo{Main: debug.Module{Path: "xcvr", Version: "(devel)"}, Settings: vcs("ffff", "2026-11-30T23:56:00Z", "true")},
		want:  Info{Version: "0.2.0", Commit: rev, Date: "2026-12-01T10:00:00Z", DateKind: "built", Stamped: true},
	}, {
		name: "go build in a checkout with changes: pseudo-version, revision and commit time",
		bi: &debug.BuildInfo{Main: debug.Module{Path: "xcvr", Version: "v0.0.0-20261130235600-2a7aee9abcde+dirty"},
			Settings: vcs(rev, "2026-11-30T23:56:00Z", "true")},
		want: Info{Version: "0.0.0-20261130235600-2a7aee9abcde+dirty", Commit: rev, Modified: true, Date: "2026-11-30T23:56:00Z", DateKind: "committed"},
	}, {
		name: "go install MODULE@v0.2.0 from the proxy: a version, no VCS record",
		bi:   &debug.BuildInfo{Main: debug.Module{Path: "xcvr", Version: "v0.2.0"}},
		want: Info{Version: "0.2.0"},
	}, {
		name: "go build -buildvcs=false",
		bi:   &debug.BuildInfo{Main: debug.Module{Path: "xcvr", Version: "(devel)"}},
		want: Info{Version: "devel"},
	}, {
		name: "no build info at all",
		want: Info{Version: "devel"},
	}, {
		name:  "only the version stamped: commit and its time still come from the toolchain",
		stamp: Stamp{Version: "v0.3.0-rc1"},
		bi:    &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-30T23:56:00Z", "false")},
		want:  Info{Version: "0.3.0-rc1", Commit: rev, Date: "2026-11-30T23:56:00Z", DateKind: "committed", Stamped: true},
	}, {
		name:  "a stamped commit drops the toolchain's modified flag",
		stamp: Stamp{Commit: "abc"},
		bi:    &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-30T23:56:00Z", "true")},
		want:  Info{Version: "devel", Commit: "abc", Date: "2026-11-30T23:56:00Z", DateKind: "committed", Stamped: true},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := FromBuild(c.stamp, c.bi); got != c.want {
				t.Fatalf("FromBuild:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	cases := []struct {
		info Info
		want string
	}{
		{Info{Version: "0.2.0", Commit: rev, Date: "2026-12-01T10:00:00Z", DateKind: "built", GoVersion: "go1.26.8", Platform: "linux/arm64"},
			"xcvr 0.2.0\ncommit 2a7aee9abcde, built 2026-12-01T10:00:00Z, go1.26.8 linux/arm64"},
		{Info{Version: "0.0.0-20261130235600-2a7aee9abcde+dirty", Commit: rev, Modified: true, Date: "2026-11-30T23:56:00Z", DateKind: "committed"},
			"xcvr 0.0.0-20261130235600-2a7aee9abcde+dirty\ncommit 2a7aee9abcde (modified), committed 2026-11-30T23:56:00Z"},
		{Info{Version: "devel", GoVersion: "go1.26.8", Platform: "darwin/arm64"},
			"xcvr devel\ncommit unknown, build date unknown, go1.26.8 darwin/arm64"},
		{Info{Version: "0.2.0", Commit: "abc", Date: "x", DateKind: "built"}, "xcvr 0.2.0\ncommit abc, built x"},
	}
	for _, c := range cases {
		if got := c.info.String(); got != c.want {
			t.Errorf("String:\n got %q\nwant %q", got, c.want)
		}
	}
}

func TestTrimV(t *testing.T) {
	for in, want := range map[string]string{"v0.2.0": "0.2.0", "0.2.0": "0.2.0", "v": "v", "vnext": "vnext", "": "", "(devel)": "(devel)"} {
		if got := trimV(in); got != want {
			t.Errorf("trimV(%q) = %q, want %q", in, got, want)
		}
	}
}
