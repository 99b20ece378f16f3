//go:build unix

package reports

import (
	"io/fs"
	"syscall"
	"testing"
)

// TestReplacementRefusal: who may replace an existing file by a rename,
// as Files does. A file a redirect could not write (access(2) fails) is
// refused whoever asks; in a folder with the sticky bit, a file is
// replaced only by its owner, the folder's owner or root, as rename(2)
// allows (EPERM otherwise); without the bit, a writable file in a
// writable folder is anyone's to replace.
func TestReplacementRefusal(t *testing.T) {
	const (
		root   = 0
		user   = 1000
		other  = 1001
		sticky = fs.ModeDir | fs.ModeSticky | 0o777 // /tmp's mode, 1777
		open   = fs.ModeDir | 0o777
	)
	stickyWhy := "it is another user's (uid 0), in /t, a folder with the sticky bit set (mode 1777), where only the file's owner, the folder's owner (uid 0) or root may replace it"
	for _, tc := range []struct {
		name string
		r    replacement
		want string
	}{
		{"own file, sticky folder", replacement{euid: user, mode: 0o644, owner: user, dirMode: sticky, dirOwner: root}, ""},
		{"root's file, sticky folder", replacement{euid: user, mode: 0o666, owner: root, dirMode: sticky, dirOwner: root}, stickyWhy},
		{"another user's file, sticky folder of one's own", replacement{euid: user, mode: 0o666, owner: other, dirMode: sticky, dirOwner: user}, ""},
		{"root replaces a user's file, sticky folder", replacement{euid: root, mode: 0o644, owner: user, dirMode: sticky, dirOwner: other}, ""},
		{"root's writable file, folder without the bit", replacement{euid: user, mode: 0o666, owner: root, dirMode: open, dirOwner: root}, ""},
		{"root's 0644 file, world-writable folder", replacement{euid: user, access: syscall.EACCES, mode: 0o644, owner: root, dirMode: open, dirOwner: root},
			"permission denied (mode 0644, owner uid 0): a shell's redirect could not write it either"},
		{"not writable, sticky folder too", replacement{euid: user, access: syscall.EACCES, mode: 0o640, owner: other, dirMode: sticky, dirOwner: root},
			"permission denied (mode 0640, owner uid 1001): a shell's redirect could not write it either"},
		{"read-only file system", replacement{euid: root, access: syscall.EROFS, mode: 0o644, owner: root, dirMode: open, dirOwner: root},
			"read-only file system (mode 0644, owner uid 0): a shell's redirect could not write it either"},
	} {
		tc.r.dir = "/t"
		if got := tc.r.refusal(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
