package shellcmd

import (
	"errors"
	"os/user"
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
