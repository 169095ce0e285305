package confine

// Args are bubblewrap's arguments for the plan, up to and including the
// "--" before the command. Mounts apply in order, each over the ones
// before it:
//
//  1. the whole filesystem read-only, with the host's devices (a
//     terminal, /dev/null, /dev/shm) as they are;
//  2. the project and the writable places bound read-write;
//  3. the guards' own folders and files bound read-only again, wherever
//     step 2 made them writable;
//  4. each protected file masked by an empty file no one may read (mode
//     0), each protected folder by an empty read-only tmpfs.
//
// No namespace but the mount one is unshared: the network, processes and
// the environment stay the command's own, so a server started in the
// background keeps running and is reachable.
func (pl Plan) Args(emptyFile string) []string {
	args := []string{"--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev"}
	for _, w := range pl.Writable {
		args = append(args, "--bind", w, w)
	}
	for _, r := range pl.ReadOnly {
		args = append(args, "--ro-bind", r, r)
	}
	for _, f := range pl.MaskFiles {
		args = append(args, "--ro-bind", emptyFile, f)
	}
	for _, d := range pl.MaskDirs {
		args = append(args, "--perms", "0000", "--tmpfs", d, "--remount-ro", d)
	}
	return append(args, "--")
}
