package boot

// Trivial reports whether the command line asks for something that reads no
// input and does bounded work: shell completion (which a shell runs on every
// Tab), --version, help. Those run in one process: supervising them would
// double their start-up for a crash they cannot meet.
func Trivial(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "__complete", "__completeNoDesc", "completion", "help":
		return true
	case "--version", "-v":
		return len(args) == 1
	}
	return false
}
