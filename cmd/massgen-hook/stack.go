package main

// startStack is the stack the main goroutine grows to before any work.
// A goroutine starts with 8 KiB and the runtime doubles it each time a
// call runs out, copying every frame already on it: a hook's deepest calls
// (YAML and JSON decoding, the shell parser, a guard's walk) doubled it
// two or three times, deep in the call chain, and each copy walked all
// those frames (200,000 instructions of a pre-tool-use, 130,000 of a
// subagent-stop). Grown here, at the top, the one copy moves two frames.
const startStack = 32 << 10

// growStack takes a frame of startStack bytes, so the runtime grows the
// stack while it is still shallow. The frame is used, so that the compiler
// keeps it; it stays on the stack (under the compiler's 128 KiB limit for
// a declared variable, and it does not escape).
//
//go:noinline
func growStack(i int) byte {
	var frame [startStack]byte
	frame[i%startStack] = 1
	return frame[(i*7)%startStack]
}
