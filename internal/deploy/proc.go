package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"xcvr/internal/guard"
)

// Process is a running process as /proc shows it.
type Process struct {
	PID     int
	Cmdline []string
	// Environ is KEY=VALUE entries, as os.Environ() gives them.
	Environ []string
	// Cwd is the process's working directory, for relative paths on its command
	// line ("" when it cannot be read).
	Cwd   string
	Serve *ServeCommand
}

// ServeCommand is what xcvr takes from a trtllm-serve command line.
type ServeCommand struct {
	// Subcommand is serve (also when omitted), disaggregated,
	// disaggregated_mpi_worker or mm_embedding_serve.
	Subcommand string
	// Model is the positional model (an HF id or a checkpoint path).
	Model string
	// Config is the --config / --extra_llm_api_options file, and ConfigFlag the
	// spelling used.
	Config     string
	ConfigFlag string
	// Backend is --backend (pytorch, _autodeploy, tensorrt); "" when absent.
	Backend string
	// DisaggConfig is -c / --config_file of the disaggregated subcommands.
	DisaggConfig string
}

// ErrNotLinux is returned by ReadProcess on systems without Linux's /proc.
var ErrNotLinux = errors.New("--pid reads /proc/PID/environ and /proc/PID/cmdline, which only Linux has")

// ReadProcess reads a process's command line, environment and working directory
// from procRoot (normally "/proc"). Permission problems get an explanation, since
// reading another user's environ needs that user or root.
func ReadProcess(procRoot string, pid int) (*Process, error) {
	if procRoot == "/proc" && runtime.GOOS != "linux" {
		return nil, fmt.Errorf("%w; this system is %s", ErrNotLinux, runtime.GOOS)
	}
	if pid <= 0 {
		return nil, fmt.Errorf("--pid %d: want a positive process id", pid)
	}
	dir := filepath.Join(procRoot, strconv.Itoa(pid))
	read := func(name string) ([]byte, error) {
		p := filepath.Join(dir, name)
		data, err := guard.ReadRaw(p, guard.ProcLimits())
		if err != nil {
			return nil, procErr(pid, p, err)
		}
		return data, nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--pid %d: no process %d (%s does not exist): it has exited, or its PID is another PID namespace's (a host's PID inside a container, or a container's on the host)", pid, pid, dir)
	} else if err != nil {
		return nil, procErr(pid, dir, err)
	}
	cmd, err := read("cmdline")
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimRight(cmd, "\x00")) == 0 {
		// A kernel thread or a zombie: its cmdline reads empty and its
		// environ refuses with ESRCH (no memory to read them from). Say
		// which, before that raw "no such process".
		return nil, noUserSpace(pid, dir)
	}
	env, err := read("environ")
	if err != nil {
		return nil, err
	}
	p := &Process{PID: pid, Cmdline: splitNUL(cmd), Environ: splitNUL(env)}
	if cwd, err := os.Readlink(filepath.Join(dir, "cwd")); err == nil {
		p.Cwd = cwd
	}
	p.Serve = ParseServeCommand(p.Cmdline)
	if p.Serve != nil && p.Cwd != "" {
		for _, s := range []*string{&p.Serve.Config, &p.Serve.DisaggConfig} {
			if *s != "" && !filepath.IsAbs(*s) {
				*s = filepath.Join(p.Cwd, *s)
			}
		}
		if m := p.Serve.Model; m != "" && !filepath.IsAbs(m) && (strings.HasPrefix(m, ".") || !looksLikeHFID(m)) {
			p.Serve.Model = filepath.Join(p.Cwd, m)
		}
	}
	return p, nil
}

// looksLikeHFID reports whether s has the owner/name shape of a Hugging Face id.
func looksLikeHFID(s string) bool {
	parts := strings.Split(s, "/")
	return len(parts) == 2 && parts[0] != "" && parts[1] != ""
}

// procErr says why /proc/PID/FILE could not be read, naming --pid: the
// kernel's own words ("open /proc/2/environ: no such process") do not tell an
// operator what to do.
func procErr(pid int, p string, err error) error {
	dir := filepath.Dir(p)
	switch {
	case errors.Is(err, fs.ErrPermission):
		owner := -1
		if st, serr := os.Stat(dir); serr == nil {
			if s, ok := st.Sys().(*syscall.Stat_t); ok {
				owner = int(s.Uid)
			}
		}
		return fmt.Errorf("--pid %d: cannot read %s: permission denied; %s", pid, p, permissionHint(pid, owner, os.Geteuid()))
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ESRCH):
		// The process was there a moment ago (its /proc directory was):
		// it ended, or is ending, while xcvr read it.
		if e := noUserSpace(pid, dir); e != nil && !errors.Is(e, errExited) {
			return e
		}
		return fmt.Errorf("--pid %d: process %d exited while xcvr read %s; nothing left to read", pid, pid, p)
	}
	return fmt.Errorf("--pid %d: %w", pid, err)
}

// errExited marks noUserSpace's answer for a process that is gone.
var errExited = errors.New("exited")

// pfKthread is PF_KTHREAD, the kernel-thread bit of /proc/PID/stat's flags
// (include/linux/sched.h; kthreadd's flags, 0x208040 on Linux 6, have it).
const pfKthread = 0x00200000

// noUserSpace explains a process with nothing in user space to read, from
// /proc/PID/stat (proc(5): "pid (comm) state ppid ... flags" with flags the
// 9th field): a kernel thread (PF_KTHREAD) or a zombie (state Z), else one
// that exited (errExited).
func noUserSpace(pid int, dir string) error {
	data, err := guard.ReadRaw(filepath.Join(dir, "stat"), guard.ProcLimits())
	i := bytes.LastIndexByte(data, ')')
	j := bytes.IndexByte(data, '(')
	if err != nil || i < 0 || j < 0 || j > i {
		return fmt.Errorf("--pid %d: process %d exited while xcvr read it; nothing left to read: %w", pid, pid, errExited)
	}
	comm := string(data[j+1 : i])
	f := strings.Fields(string(data[i+1:]))
	var flags uint64
	if len(f) > 6 {
		flags, _ = strconv.ParseUint(f[6], 10, 64)
	}
	switch {
	case flags&pfKthread != 0:
		return fmt.Errorf("--pid %d: process %d (%s) is a kernel thread: it has no command line or environment to read; give the PID of trtllm-serve (pgrep -af trtllm-serve lists them)", pid, pid, comm)
	case len(f) > 0 && (f[0] == "Z" || f[0] == "X"):
		return fmt.Errorf("--pid %d: process %d (%s) has exited (a zombie its parent has not yet reaped): its command line and environment are gone", pid, pid, comm)
	}
	return fmt.Errorf("--pid %d: process %d (%s) has an empty command line; nothing to read", pid, pid, comm)
}

// permissionHint says why the kernel refused a /proc/PID file and what to do,
// from the process's owner (-1: unknown) and xcvr's effective user. The kernel
// lets a process read another's environ (ptrace's read mode) when both run as
// one user and the target is dumpable, or with CAP_SYS_PTRACE; a container
// drops that capability by default, so root in a debug container is refused a
// process of another user ("run xcvr as root" was the advice there too).
func permissionHint(pid, owner, euid int) string {
	switch {
	case owner < 0:
		return fmt.Sprintf("process %d belongs to another user, so run xcvr as that user or as root", pid)
	case owner == euid:
		return fmt.Sprintf("process %d runs as xcvr's own user (uid %d), so the kernel hides it for another reason: the process is not dumpable, or it is in another user namespace", pid, owner)
	case euid == 0:
		return fmt.Sprintf("process %d runs as uid %d and xcvr as root without CAP_SYS_PTRACE (a container drops it by default), so run xcvr as uid %d or give it CAP_SYS_PTRACE", pid, owner, owner)
	}
	return fmt.Sprintf("process %d runs as uid %d, not as xcvr's uid %d, so run xcvr as that user or as root", pid, owner, euid)
}

func splitNUL(b []byte) []string {
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return nil
	}
	parts := bytes.Split(b, []byte{0})
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

// serveSubcommands are trtllm-serve's click subcommands; "serve" is the default.
var serveSubcommands = map[string]bool{"serve": true, "disaggregated": true, "disaggregated_mpi_worker": true, "mm_embedding_serve": true}

// serveBoolFlags are trtllm-serve options that take no value, so the word after
// them can be the positional model.
var serveBoolFlags = map[string]bool{"--trust_remote_code": true, "--enable_chunked_prefill": true,
	"--fail_fast_on_attention_window_too_large": true, "--disagg_cluster_uri_only": true,
	"--enable_iter_perf_stats": true, "--help": true, "-h": true, "--metadata_server_config_file_only": true,
	"--server_start_timeout_only": true}

// ParseServeCommand recognises trtllm-serve in argv (run directly, through python,
// or as python -m tensorrt_llm.commands.serve) and takes the model, the LLM-args
// YAML and --backend from it. It returns nil for other commands.
func ParseServeCommand(argv []string) *ServeCommand {
	start := -1
	for i, a := range argv {
		if path.Base(a) == "trtllm-serve" {
			start = i + 1
			break
		}
		if a == "-m" && i+1 < len(argv) && argv[i+1] == "tensorrt_llm.commands.serve" {
			start = i + 2
			break
		}
		if i > 2 {
			break // the program is within the first few words (python [-u] script)
		}
	}
	if start < 0 {
		return nil
	}
	sc := &ServeCommand{Subcommand: "serve"}
	args := argv[start:]
	if len(args) > 0 && serveSubcommands[args[0]] {
		sc.Subcommand = args[0]
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) && sc.Model == "" {
				sc.Model = args[i+1]
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if sc.Model == "" && sc.Subcommand != "disaggregated" && sc.Subcommand != "disaggregated_mpi_worker" {
				sc.Model = a
			}
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if !hasVal && !serveBoolFlags[name] && i+1 < len(args) {
			val = args[i+1]
			hasVal = true
			i++
		}
		if !hasVal {
			continue
		}
		switch name {
		case "--config", "--extra_llm_api_options":
			if sc.Subcommand == "serve" {
				sc.Config, sc.ConfigFlag = val, name
			} else {
				sc.DisaggConfig = val
			}
		case "-c", "--config_file":
			sc.DisaggConfig = val
		case "--backend":
			sc.Backend = val
		}
	}
	return sc
}
