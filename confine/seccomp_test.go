package confine

import (
	"encoding/binary"
	"testing"
)

// runFilter interprets the classic BPF program on one system call, as the
// kernel would, and returns its verdict.
func runFilter(t *testing.T, prog []byte, arch, nr, arg1 uint32) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.NativeEndian.PutUint32(data[offNr:], nr)
	binary.NativeEndian.PutUint32(data[offArch:], arch)
	binary.NativeEndian.PutUint32(data[offArg1L:], arg1)
	binary.NativeEndian.PutUint32(data[offArg1L+4:], 0xdead) // high half: ignored by ioctl
	var acc uint32
	for pc := 0; pc < len(prog)/8; {
		code := binary.NativeEndian.Uint16(prog[pc*8:])
		jt, jf := prog[pc*8+2], prog[pc*8+3]
		k := binary.NativeEndian.Uint32(prog[pc*8+4:])
		switch code {
		case bpfLdWAbs:
			acc = binary.NativeEndian.Uint32(data[k:])
			pc++
		case bpfJeqK:
			if acc == k {
				pc += 1 + int(jt)
			} else {
				pc += 1 + int(jf)
			}
		case bpfRetK:
			return k
		default:
			t.Fatalf("unknown opcode %#x at %d", code, pc)
		}
	}
	t.Fatal("the program ran off its end")
	return 0
}

func TestSeccompFilterRefusesTerminalInjectionOnly(t *testing.T) {
	prog := SeccompFilter()
	native, compat := abis()
	if prog == nil || native == nil {
		t.Skip("no filter for this architecture")
	}
	for _, c := range []struct {
		name           string
		arch, nr, arg1 uint32
		want           uint32
	}{
		{"TIOCSTI", native.arch, native.nrs[0], tiocsti, retErrnoEPE},
		{"TIOCLINUX", native.arch, native.nrs[0], tioclinux, retErrnoEPE},
		{"TIOCSTI, compat ABI", compat.arch, compat.nrs[0], tiocsti, retErrnoEPE},
		{"TIOCSTI, last native number", native.arch, native.nrs[len(native.nrs)-1], tiocsti, retErrnoEPE},
		{"TIOCGWINSZ", native.arch, native.nrs[0], 0x5413, retAllow},
		{"another call with TIOCSTI's value", native.arch, 1, tiocsti, retAllow},
		{"another architecture", 0x12345, native.nrs[0], tiocsti, retAllow},
	} {
		if got := runFilter(t, prog, c.arch, c.nr, c.arg1); got != c.want {
			t.Errorf("%s: got %#x want %#x", c.name, got, c.want)
		}
	}
}
