#!/usr/bin/env python3
"""Ask Microsoft's d3dcompiler_47.dll (under wine) one question, for learning facts.

  probe.py compile FILE.hlsl PROFILE [--entry main] [--flags1 HEX] [--flags2 HEX]
                                     [--strip HEX] [--dis HEX,...] [-o BLOB]
  probe.py disasm FILE [--dis HEX,...]
  probe.py assemble FILE.asm [--flags1 HEX] [--include] [--dis HEX,...] [-o BLOB]
      (D3DAssemble of Shader Model 1-3 assembly text; --include resolves #include
       against the file's own directory)

Prints the HRESULT, the compiler's messages and each D3DDisassemble text (one per
--dis flag set; default 0). Needs tools/oracle/setup.sh to have run. The generator
(`cargo run --manifest-path tools/oracle/Cargo.toml`) is what writes test data;
this script only shows what Microsoft says for one input.
"""
import argparse, os, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, ".cache")


def b(x):
    if isinstance(x, str):
        x = x.encode()
    return struct.pack("<I", len(x)) + x


def u(v):
    return struct.pack("<I", v)


def run(job):
    with tempfile.TemporaryDirectory() as d:
        j, r = os.path.join(d, "jobs.bin"), os.path.join(d, "results.bin")
        open(j, "wb").write(job)
        env = dict(os.environ, WINEDEBUG="-all", WINEDLLOVERRIDES="d3dcompiler_47=n")
        subprocess.run(["wine", os.path.join(CACHE, "runner.exe"), "Z:" + j.replace("/", "\\"),
                        "Z:" + r.replace("/", "\\")], cwd=CACHE, env=env, check=True,
                       stderr=subprocess.DEVNULL)
        return open(r, "rb").read()


class Reader:
    def __init__(self, d):
        self.d, self.p = d, 0

    def u32(self):
        v = struct.unpack_from("<I", self.d, self.p)[0]
        self.p += 4
        return v

    def bytes(self):
        n = self.u32()
        x = self.d[self.p:self.p + n]
        self.p += n
        return x


def text(x):
    return x.rstrip(b"\0").decode("latin-1")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["compile", "disasm", "assemble"])
    ap.add_argument("file")
    ap.add_argument("profile", nargs="?")
    ap.add_argument("--entry", default="main")
    ap.add_argument("--flags1", default="0")
    ap.add_argument("--flags2", default="0")
    ap.add_argument("--strip", default="0")
    ap.add_argument("--dis", default="0")
    ap.add_argument("--include", action="store_true")
    ap.add_argument("-o")
    a = ap.parse_args()
    dis = [int(x, 16) for x in a.dis.split(",")]
    disj = u(len(dis)) + b"".join(u(x) for x in dis)
    data = open(a.file, "rb").read()
    if a.cmd == "compile":
        job = b"C" + b(data) + b(a.entry) + b(a.profile) + u(int(a.flags1, 16)) + u(int(a.flags2, 16)) + u(int(a.strip, 16)) + disj
    elif a.cmd == "assemble":
        name = "Z:" + os.path.abspath(a.file).replace("/", "\\")
        job = b"A" + b(data) + b(name) + u(int(a.flags1, 16)) + u(1 if a.include else 0) + disj
    else:
        job = b"D" + b(data) + disj
    r = Reader(run(job))
    assert r.d[0:1] == job[0:1]
    r.p = 1
    if a.cmd in ("compile", "assemble"):
        hr = r.u32()
        print(f"== {a.cmd} hr=0x{hr:08x}")
        err = text(r.bytes())
        if err:
            print(err)
        blob = r.bytes()
        if a.o and blob:
            open(a.o, "wb").write(blob)
    for f in dis:
        hr = r.u32()
        t = r.bytes()
        print(f"== D3DDisassemble flags=0x{f:x} hr=0x{hr:08x}")
        sys.stdout.write(text(t))


if __name__ == "__main__":
    main()
