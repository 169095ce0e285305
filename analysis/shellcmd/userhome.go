package shellcmd

import (
	"errors"
	"os/user"
	"strings"
)

// LookupUserHome is an Options.UserHome that asks the system's user
// database, as bash does for ~user.
func LookupUserHome(name string) (home string, exists bool, err error) {
	u, err := user.Lookup(name)
	var unknown user.UnknownUserError
	switch {
	case errors.As(err, &unknown):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return u.HomeDir, true, nil
}

// NoSuchUserHome reports whether w starts with an unquoted ~user that bash
// left as it is, because this machine has no such user (UserHome said so):
// bash then takes it as a folder named ~user in the working directory, but
// on another machine, or once the user exists, it is that user's home.
// user is the name.
func (w Word) NoSuchUserHome() (user string, ok bool) {
	if !w.Known || !strings.HasPrefix(w.Raw, "~") || len(w.Value) < 2 || w.Value[0] != '~' {
		return "", false
	}
	name, _, _ := strings.Cut(w.Value[1:], "/")
	if name == "" || name == "+" || name == "-" || name[0] >= '0' && name[0] <= '9' {
		return "", false
	}
	return name, true
}
