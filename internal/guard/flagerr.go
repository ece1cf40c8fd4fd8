package guard

import (
	"errors"
	"io/fs"
	"strings"

	"xcvr/internal/termsafe"
)

// FlagError names the flag a file was given to in the error of reading it,
// so an operator sees which of several file flags is wrong and why, in one
// shape for every one of them:
//
//	--config /nx: no such file or directory            (os: "stat /nx: ...")
//	--config a.yaml:3:7: refused: a control byte ...    (the file's own line)
//	--model-dir /m: /m/config.json: permission denied  (a file under it)
//	--host-key /k/key: mkdir /k: permission denied      (what was being done)
//
// The os's reading verbs (stat, open, read) are dropped: the flag says the
// file was being read. An error that does not start with the file gets it.
// Only errors of reading go through it: what a parser says of the contents
// (PyYAML's, pydantic's, TensorRT-LLM's words) is kept byte for byte. With
// flag "" (a file given as an argument) the message starts with the file.
func FlagError(flag, path string, err error) error {
	if err == nil {
		return nil
	}
	fe := &flagError{err: err}
	pre := flag + " "
	if flag == "" {
		pre = ""
	}
	var pe *fs.PathError
	var ml termsafe.MultilineError
	switch {
	case errors.As(err, &pe) && (err.Error() == pe.Error() || err.Error() == path+": "+pe.Error()):
		at, reading := pe.Path, true
		switch pe.Op {
		case "stat", "lstat", "open", "openat", "read", "fstat":
		default:
			at, reading = pe.Op+" "+at, false
		}
		if pe.Path == path && reading {
			fe.msg = pre + path + ": " + pe.Err.Error()
		} else {
			fe.msg = pre + path + ": " + at + ": " + pe.Err.Error()
		}
	case strings.HasPrefix(err.Error(), path+":"):
		fe.msg = pre + err.Error()
	default:
		fe.msg = pre + path + ": " + err.Error()
	}
	if errors.As(err, &ml) {
		// Its newlines are kept (termsafe.Message): the path, from the
		// command line, must not bring any of its own.
		fe.msg = strings.Replace(fe.msg, path, termsafe.Line(path), 1)
	}
	return fe
}

// flagError is FlagError's error: its text, and the reading error under it
// for errors.Is and errors.As (fs.ErrNotExist, ErrNotRegular, yamlpos.Error).
type flagError struct {
	msg string
	err error
}

func (e *flagError) Error() string { return e.msg }
func (e *flagError) Unwrap() error { return e.err }
