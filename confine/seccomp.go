package confine

import (
	"encoding/binary"
	"runtime"
)

// The sandbox keeps the command's terminal (a command may prompt on it),
// so the one thing a terminal lets a process do to others is refused: an
// ioctl that pushes characters into the terminal's input (TIOCSTI), or
// (on a Linux console) TIOCLINUX. Without it a confined command could type
// a command line into the shell that owns the terminal once the agent CLI
// exits, and it would run unconfined. The filter is a classic BPF program
// for bubblewrap's --seccomp: every other system call is allowed.

// Classic BPF opcodes and seccomp return values.
const (
	bpfLdWAbs   = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK     = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfRetK     = 0x06 // BPF_RET | BPF_K
	retAllow    = 0x7fff0000
	retErrnoEPE = 0x00050000 | 1 // SECCOMP_RET_ERRNO | EPERM

	// Offsets in struct seccomp_data: nr, arch, then args[] (64 bits
	// each, little-endian on every architecture below: the low half of
	// args[1] is the ioctl request, which the kernel reads as 32 bits).
	offNr    = 0
	offArch  = 4
	offArg1L = 24

	tiocsti   = 0x5412
	tioclinux = 0x541c
)

// abi is an architecture's audit value and its ioctl system call numbers.
type abi struct {
	arch uint32
	nrs  []uint32
}

// abis are the native and compat ABIs of the machine, nil where no filter
// is known (the sandbox then runs without it).
func abis() (native, compat *abi) {
	switch runtime.GOARCH {
	case "amd64":
		// x86_64 ioctl, x32's (514 with the x32 bit), i386's.
		return &abi{0xc000003e, []uint32{16, 0x40000000 | 514}}, &abi{0x40000003, []uint32{54}}
	case "arm64":
		return &abi{0xc00000b7, []uint32{29}}, &abi{0x40000028, []uint32{54}}
	}
	return nil, nil
}

// SeccompFilter is the BPF program, in the byte layout bubblewrap reads
// (struct sock_filter, host byte order); nil where there is none.
func SeccompFilter() []byte {
	native, compat := abis()
	if native == nil {
		return nil
	}
	type insn struct {
		code   uint16
		jt, jf uint8
		k      uint32
	}
	// Laid out by hand, targets by index:
	//  0 ld arch
	//  1 jeq native  -> 3 : 2
	//  2 jeq compat  -> n0 : allow
	//  3 ld nr; native nrs -> check : next ... -> allow
	//  n0 ld nr; compat nrs -> check : allow
	//  check: ld arg1; jeq tiocsti -> deny; jeq tioclinux -> deny : allow
	//  allow: ret allow; deny: ret errno
	nativeAt := 3
	compatAt := nativeAt + 1 + len(native.nrs)
	checkAt := compatAt + 1 + len(compat.nrs)
	allowAt := checkAt + 3
	denyAt := allowAt + 1
	rel := func(from, to int) uint8 { return uint8(to - from - 1) }
	prog := []insn{{code: bpfLdWAbs, k: offArch}}
	prog = append(prog, insn{bpfJeqK, rel(1, nativeAt), 0, native.arch})
	prog = append(prog, insn{bpfJeqK, rel(2, compatAt), rel(2, allowAt), compat.arch})
	// Each architecture's block loads the syscall number, jumps to the
	// argument check on any of its ioctl numbers, else allows.
	for _, a := range []struct {
		at int
		nr *abi
	}{{nativeAt, native}, {compatAt, compat}} {
		prog = append(prog, insn{code: bpfLdWAbs, k: offNr})
		for i, nr := range a.nr.nrs {
			at := a.at + 1 + i
			jf := uint8(0)
			if i == len(a.nr.nrs)-1 {
				jf = rel(at, allowAt)
			}
			prog = append(prog, insn{bpfJeqK, rel(at, checkAt), jf, nr})
		}
	}
	prog = append(prog, insn{code: bpfLdWAbs, k: offArg1L})
	prog = append(prog, insn{bpfJeqK, rel(checkAt+1, denyAt), 0, tiocsti})
	prog = append(prog, insn{bpfJeqK, rel(checkAt+2, denyAt), rel(checkAt+2, allowAt), tioclinux})
	prog = append(prog, insn{code: bpfRetK, k: retAllow})
	prog = append(prog, insn{code: bpfRetK, k: retErrnoEPE})
	out := make([]byte, 0, 8*len(prog))
	for _, in := range prog {
		out = binary.NativeEndian.AppendUint16(out, in.code)
		out = append(out, in.jt, in.jf)
		out = binary.NativeEndian.AppendUint32(out, in.k)
	}
	return out
}
