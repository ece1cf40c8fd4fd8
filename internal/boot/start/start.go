// Package start runs xcvr's supervisor (boot.Start) from its initialisation,
// before the packages of the rest of the program are initialised (see package
// boot). xcvr's main imports it for that effect alone.
package start

import "boot"

func init() { boot.Start() }
