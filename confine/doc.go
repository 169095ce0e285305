// Package confine runs an agent's shell command inside a bubblewrap sandbox
// built from the policy the guards already hold: every path on the
// protected-read list is masked, the guards' own files are read-only, and
// writes go only to the project, the temporary folders, the build caches
// and the folders the config adds. The network and the environment are
// left as they are.
//
// The static guards judge a command before it runs, from its text; the
// sandbox holds whatever the command turns out to do (a script written
// earlier, a tool that runs another, a shell trick no parser reads).
package confine
