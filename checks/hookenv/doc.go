// Package hookenv is what every check works with: the hook's environment
// (Env: the project, config, state, clock, and the answer's settlement),
// RunRules, which runs the rules for an event, the notices that wait for a
// session's main thread, the inbox (the default rule after every tool
// call, and the late messages a turn boundary hands over), the strict
// decoding of a check's options, and the read-only git calls the checks
// make. It decides nothing of its own beyond the inbox; the phase packages
// (guard, lifecycle, aftertool, limits) and the checks root import it, and
// it imports none of them.
package hookenv
