package serve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	gossh "golang.org/x/crypto/ssh"
)

// maxHostKeyBytes bounds the host key file: an ed25519 key in OpenSSH form is
// about 400 bytes, an RSA-16384 one under 13 KiB.
const maxHostKeyBytes = 64 << 10

// ensureHostKey returns the host key at path (its PEM bytes, as checked, and
// its fingerprint), creating an ed25519 key (mode 0600, its directory 0700)
// when there is none. As sshd does with StrictModes, it refuses a key someone
// else could read or replace: a symbolic link, a file owned by another user,
// one readable or writable by group or others, or one in a directory (or under
// one) that another user owns or that anyone may write to without the sticky
// bit (/tmp, 1777, is fine; 0777 is not).
func ensureHostKey(path string) ([]byte, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	var data []byte
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
			return nil, "", err
		}
		if err := safeDirs(path, filepath.Dir(abs)); err != nil {
			return nil, "", err
		}
		if data, err = createHostKey(abs); err != nil {
			return nil, "", err
		}
	case errors.Is(err, syscall.ELOOP):
		return nil, "", fmt.Errorf("%s: host key is a symbolic link; give the key file's own path", path)
	case err != nil:
		return nil, "", err
	default:
		defer f.Close()
		if err := safeDirs(path, filepath.Dir(abs)); err != nil {
			return nil, "", err
		}
		st, err := f.Stat()
		if err != nil {
			return nil, "", err
		}
		if err := privateKeyFile(path, st); err != nil {
			return nil, "", err
		}
		if data, err = io.ReadAll(io.LimitReader(f, maxHostKeyBytes+1)); err != nil {
			return nil, "", err
		}
		if len(data) > maxHostKeyBytes {
			return nil, "", fmt.Errorf("%s: over %d KiB; not a host key", path, maxHostKeyBytes>>10)
		}
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: not a private key: %w", path, err)
	}
	return data, gossh.FingerprintSHA256(signer.PublicKey()), nil
}

func createHostKey(path string) ([]byte, error) {
	pem, err := newHostKey()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(pem); err != nil {
		f.Close()
		return nil, err
	}
	return pem, f.Close()
}

// privateKeyFile refuses a host key file that is not a regular file of the
// server's user, private to it.
func privateKeyFile(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: host key is not a regular file", path)
	}
	if uid, ok := owner(st); ok && uid != os.Getuid() {
		return fmt.Errorf("%s: host key is owned by uid %d, not by the server's user (uid %d); another user could replace it", path, uid, os.Getuid())
	}
	if m := st.Mode().Perm(); m&0o077 != 0 {
		return fmt.Errorf("%s: host key is readable by others (mode %04o); chmod 600 it", path, m)
	}
	return nil
}

// safeDirs refuses dir and its parents when another user could swap the key
// inside them: owned by a user other than the server's or root, or writable by
// anyone without the sticky bit.
func safeDirs(path, dir string) error {
	for {
		st, err := os.Stat(dir)
		if err != nil {
			return err
		}
		m := st.Mode()
		if m.Perm()&0o002 != 0 && m&fs.ModeSticky == 0 {
			return fmt.Errorf("%s: host key refused: %s is writable by anyone (mode %04o) without the sticky bit; another user could replace the key", path, dir, m.Perm())
		}
		if uid, ok := owner(st); ok && uid != 0 && uid != os.Getuid() {
			return fmt.Errorf("%s: host key refused: %s is owned by uid %d, not by the server's user (uid %d) or root", path, dir, uid, os.Getuid())
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// owner is the file's owning uid, where the system says.
func owner(st fs.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}
