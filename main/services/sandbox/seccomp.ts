/**
 * A classic-BPF seccomp program for bwrap's `--seccomp FD`, used when a run has no
 * network. The network namespace already cuts off IP and abstract Unix sockets; what it
 * leaves is connect() to a Unix socket file that is visible on the read-only root (a
 * daemon's socket under /var, a socket in the project). This filter makes socket(AF_UNIX)
 * fail with EAFNOSUPPORT, and refuses io_uring (which can open sockets without the
 * socket() system call) and the x32 ABI (which would dodge the syscall-number check).
 * socketpair() stays allowed: it connects nothing outside the process tree.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;
const AF_UNIX = 1;
const X32_BIT = 0x40000000;
/** io_uring_setup has the same number on every architecture that has it. */
const IO_URING_SETUP = 425;

const ARCHES: Readonly<Record<string, { audit: number; socket: number }>> = {
  x64: { audit: 0xc000003e, socket: 41 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};

export function seccompSupported(arch: string): boolean {
  return arch in ARCHES;
}

type Insn = readonly [code: number, jt: number, jf: number, k: number];

/** The filter as bytes (struct sock_filter[], host byte order = little-endian on both arches). */
export function unixSocketFilter(arch: string): Uint8Array {
  const a = ARCHES[arch];
  if (!a) throw new Error(`no seccomp filter for ${arch}`);
  const prog: Insn[] = [
    /* 0 */ [LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    /* 1 */ [JEQ_K, 0, 8, a.audit], // another ABI → 10
    /* 2 */ [LD_W_ABS, 0, 0, 0], // seccomp_data.nr
    /* 3 */ [JGE_K, 6, 0, X32_BIT], // x32 → 10
    /* 4 */ [JEQ_K, 6, 0, IO_URING_SETUP], // → 11
    /* 5 */ [JEQ_K, 0, 2, a.socket], // not socket() → 8
    /* 6 */ [LD_W_ABS, 0, 0, 16], // args[0], low 32 bits (the kernel reads domain as an int)
    /* 7 */ [JEQ_K, 1, 0, AF_UNIX], // AF_UNIX → 9
    /* 8 */ [RET_K, 0, 0, RET_ALLOW],
    /* 9 */ [RET_K, 0, 0, RET_ERRNO | EAFNOSUPPORT],
    /* 10 */ [RET_K, 0, 0, RET_ERRNO | EPERM],
    /* 11 */ [RET_K, 0, 0, RET_ERRNO | ENOSYS],
  ];
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k, true);
  });
  return out;
}
