// Package buildinfo says which build of xcvr is running: the version, commit and
// date a release build stamps in with -ldflags -X, or, for a plain go build or
// go install, what the Go toolchain recorded in the binary itself.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// The release build (.ci/goreleaser.yaml) sets these with
//
//	-X xcvr/internal/buildinfo.version=0.2.0
//	-X xcvr/internal/buildinfo.commit=<full revision>
//	-X xcvr/internal/buildinfo.date=<RFC 3339 build time>
//
// They are variables because -X can only set package-level string variables; they
// stay empty in any other build, and Read falls back to the toolchain's record.
var (
	version string
	commit  string
	date    string
)

// Stamp is what the linker was told (-ldflags -X); empty fields were not set.
type Stamp struct {
	Version, Commit, Date string
}

// Info is one build's identity, as `xcvr --version` prints it.
type Info struct {
	// Version is a release's version without the leading "v" ("0.2.0"), the module
	// version the toolchain recorded ("0.2.0" from go install MODULE@v0.2.0, a
	// pseudo-version such as "0.0.0-20261130235600-2a7aee9abcde+dirty" from a go build
	// in a checkout), or "devel" when nothing says more.
	Version string
	// Commit is the full VCS revision, "" when unknown (go install from the module
	// proxy, or a build with -buildvcs=false).
	Commit string
	// Modified is true when the toolchain saw uncommitted changes (vcs.modified).
	Modified bool
	// Date is an RFC 3339 time, "" when unknown; DateKind says which time it is.
	Date string
	// DateKind is "built" for a stamped build date, "committed" for the toolchain's
	// vcs.time (the commit's time: Go records no build time).
	DateKind string
	// Stamped is true when any field came from -ldflags -X.
	Stamped bool
	// GoVersion and Platform describe the toolchain and target ("linux/arm64").
	GoVersion, Platform string
}

// Read returns the running binary's Info.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	info := FromBuild(Stamp{Version: version, Commit: commit, Date: date}, bi)
	info.GoVersion = runtime.Version()
	info.Platform = runtime.GOOS + "/" + runtime.GOARCH
	return info
}

// FromBuild merges a linker stamp with the toolchain's record bi (nil when the
// binary has none). A stamped field wins; each missing one falls back on its own,
// so a release built with only -X version still reports the commit Go recorded.
func FromBuild(s Stamp, bi *debug.BuildInfo) Info {
	var rec Info
	if bi != nil {
		rec.Version = bi.Main.Version
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rec.Commit = kv.Value
			case "vcs.time":
				rec.Date = kv.Value
			case "vcs.modified":
				rec.Modified = kv.Value == "true"
			}
		}
	}
	info := Info{Commit: rec.Commit, Modified: rec.Modified, Date: rec.Date}
	if rec.Date != "" {
		info.DateKind = "committed"
	}
	info.Version = trimV(rec.Version)
	if s.Version != "" {
		info.Version, info.Stamped = trimV(s.Version), true
	}
	if s.Commit != "" {
		// A stamped commit names the release's source; the toolchain's modified
		// flag may describe another tree (or none), so it no longer applies.
		info.Commit, info.Modified, info.Stamped = s.Commit, false, true
	}
	if s.Date != "" {
		info.Date, info.DateKind, info.Stamped = s.Date, "built", true
	}
	if info.Version == "" || info.Version == "(devel)" {
		info.Version = "devel"
	}
	return info
}

// trimV drops a leading "v" from a semantic version, so a release reads the same
// whether goreleaser (which strips it) or the module proxy (which keeps it) named it.
func trimV(v string) string {
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		return v[1:]
	}
	return v
}

// ShortCommit is the first 12 characters of Commit, as git and Go pseudo-versions
// abbreviate it, or "unknown".
func (i Info) ShortCommit() string {
	switch {
	case i.Commit == "":
		return "unknown"
	case len(i.Commit) > 12:
		return i.Commit[:12]
	}
	return i.Commit
}

// String is the two lines `xcvr --version` starts with:
//
//	xcvr 0.2.0
//	commit 2a7aee9abcde, built 2026-11-30T23:56:00Z, go1.26.8 linux/arm64
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("xcvr " + i.Version + "\ncommit " + i.ShortCommit())
	if i.Modified {
		b.WriteString(" (modified)")
	}
	if i.Date != "" {
		b.WriteString(", " + i.DateKind + " " + i.Date)
	} else {
		b.WriteString(", build date unknown")
	}
	if i.GoVersion != "" {
		b.WriteString(", " + i.GoVersion)
	}
	if i.Platform != "" {
		b.WriteString(" " + i.Platform)
	}
	return b.String()
}
