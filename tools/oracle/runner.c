/* dxref oracle runner: a tiny Windows console program, run under wine, that feeds
 * our own inputs to Microsoft's d3dcompiler_47.dll and writes back what it produced.
 *
 *   runner.exe JOBS RESULTS
 *
 * JOBS and RESULTS are sequences of records; every field is a little-endian u32 or
 * a byte string (u32 length, then the bytes).
 *
 *   job 'C' (compile):  source, entry, profile, flags1, flags2, strip, ndis, dis[ndis]
 *     -> hr, errors, blob (after D3DStripShader(strip) when strip != 0), then for each
 *        dis flag: hr, text   (no disassembly when compiling failed)
 *   job 'D' (disassemble): blob, ndis, dis[ndis]
 *     -> for each dis flag: hr, text
 *   job 'A' (D3DAssemble, Shader Model 1-3 assembly text): source, file name, flags,
 *        include (1: D3D_COMPILE_STANDARD_FILE_INCLUDE, files beside the named file;
 *        0: none), ndis, dis[ndis]
 *     -> hr, errors, blob, then for each dis flag: hr, text (none when assembling failed)
 *
 * A fault inside D3DDisassemble is answered with hr 0xDEAD0001 and no text; a call that
 * hangs ends the process after 10 s (the driver records hr 0xDEAD0002 for that job).
 *
 * A result record starts with the job's kind byte. Nothing else is printed. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

typedef struct Blob Blob;
typedef struct {
    void *QueryInterface;
    ULONG(__stdcall *AddRef)(Blob *);
    ULONG(__stdcall *Release)(Blob *);
    void *(__stdcall *GetBufferPointer)(Blob *);
    SIZE_T(__stdcall *GetBufferSize)(Blob *);
} BlobVtbl;
struct Blob { BlobVtbl *v; };

typedef HRESULT(WINAPI *CompileFn)(const void *, SIZE_T, const char *, const void *, void *,
                                   const char *, const char *, UINT, UINT, Blob **, Blob **);
typedef HRESULT(WINAPI *DisasmFn)(const void *, SIZE_T, UINT, const char *, Blob **);
typedef HRESULT(WINAPI *StripFn)(const void *, SIZE_T, UINT, Blob **);
typedef HRESULT(WINAPI *AssembleFn)(const void *, SIZE_T, const char *, const void *, void *, UINT, Blob **, Blob **);

static FILE *in, *out;

static int rd_u32(unsigned *v) { unsigned char b[4]; if (fread(b, 1, 4, in) != 4) return 0; *v = b[0] | b[1] << 8 | b[2] << 16 | (unsigned)b[3] << 24; return 1; }
static char *rd_bytes(unsigned *n) {
    char *p; if (!rd_u32(n)) { fprintf(stderr, "truncated job\n"); exit(3); }
    p = malloc(*n + 1); if (!p) exit(4);
    if (*n && fread(p, 1, *n, in) != *n) { fprintf(stderr, "truncated job\n"); exit(3); }
    p[*n] = 0; return p;
}
static void wr_u32(unsigned v) { unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 }; fwrite(b, 1, 4, out); }
static void wr_bytes(const void *p, unsigned n) { wr_u32(n); if (n) fwrite(p, 1, n, out); }
static void wr_blob(Blob *b) {
    if (!b) { wr_bytes(0, 0); return; }
    wr_bytes(b->v->GetBufferPointer(b), (unsigned)b->v->GetBufferSize(b));
    b->v->Release(b);
}

static DisasmFn disasm;

/* A call that runs longer than this (D3DDisassemble loops forever on some malformed
 * streams) ends the process; the driver sees the missing answer and goes on after it. */
#define WATCHDOG_MS 10000
static volatile LONG busy_since;
static DWORD WINAPI watchdog(void *arg) {
    (void)arg;
    for (;;) {
        LONG t = busy_since;
        Sleep(250);
        if (t && t == busy_since && (LONG)(GetTickCount() - (DWORD)t) > WATCHDOG_MS) TerminateProcess(GetCurrentProcess(), 5);
    }
    return 0;
}
static void busy(int on) { busy_since = on ? (LONG)(GetTickCount() | 1) : 0; }

/* A fault inside the DLL that nothing in it handles (D3DDisassemble reads past some
 * malformed streams) jumps back to the job loop, which answers that call with CRASHED and goes on. */
#define CRASHED 0xDEAD0001u
static void *fault[5];
static volatile int guarded;
static LONG WINAPI on_fault(EXCEPTION_POINTERS *e) {
    (void)e;
    if (guarded) {
        guarded = 0;
        __builtin_longjmp(fault, 1);
    }
    return EXCEPTION_CONTINUE_SEARCH;
}

static void disassemble(const void *p, unsigned n) {
    unsigned nd, i, f; rd_u32(&nd);
    for (i = 0; i < nd; i++) {
        Blob *volatile t = 0; volatile HRESULT hr = E_FAIL; rd_u32(&f);
        if (p) {
            if (__builtin_setjmp(fault) == 0) {
                guarded = 1; busy(1);
                hr = disasm(p, n, f, 0, (Blob **)&t);
                guarded = 0; busy(0);
            } else {
                busy(0); hr = (HRESULT)CRASHED; t = 0;
            }
        }
        wr_u32((unsigned)hr); wr_blob(t);
    }
}

int main(int argc, char **argv) {
    HMODULE m; CompileFn compile; StripFn strip; AssembleFn assemble; int kind;
    if (argc != 3) { fprintf(stderr, "usage: runner JOBS RESULTS\n"); return 2; }
    m = LoadLibraryA("d3dcompiler_47.dll");
    if (!m) { fprintf(stderr, "d3dcompiler_47.dll not found\n"); return 2; }
    compile = (CompileFn)GetProcAddress(m, "D3DCompile");
    disasm = (DisasmFn)GetProcAddress(m, "D3DDisassemble");
    strip = (StripFn)GetProcAddress(m, "D3DStripShader");
    assemble = (AssembleFn)GetProcAddress(m, "D3DAssemble");
    if (!compile || !disasm || !strip || !assemble) { fprintf(stderr, "missing exports\n"); return 2; }
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    SetUnhandledExceptionFilter(on_fault);
    CreateThread(0, 0, watchdog, 0, 0, 0);
    in = fopen(argv[1], "rb"); out = fopen(argv[2], "wb");
    if (!in || !out) { fprintf(stderr, "cannot open files\n"); return 2; }
    while ((kind = fgetc(in)) != EOF) {
        fputc(kind, out);
        if (kind == 'C') {
            unsigned ns, ne, np, f1, f2, st; Blob *code = 0, *err = 0; HRESULT hr;
            char *src = rd_bytes(&ns), *entry = rd_bytes(&ne), *prof = rd_bytes(&np);
            rd_u32(&f1); rd_u32(&f2); rd_u32(&st);
            busy(1);
            hr = compile(src, ns, "gen.hlsl", 0, 0, entry, prof, f1, f2, &code, &err);
            busy(0);
            if (SUCCEEDED(hr) && code && st) {
                Blob *s = 0;
                HRESULT h2 = strip(code->v->GetBufferPointer(code), code->v->GetBufferSize(code), st, &s);
                if (SUCCEEDED(h2) && s) { code->v->Release(code); code = s; } else hr = h2;
            }
            wr_u32((unsigned)hr); wr_blob(err);
            if (SUCCEEDED(hr) && code) {
                void *p = code->v->GetBufferPointer(code); unsigned n = (unsigned)code->v->GetBufferSize(code);
                wr_bytes(p, n); disassemble(p, n); code->v->Release(code);
            } else { if (code) code->v->Release(code); wr_bytes(0, 0); disassemble(0, 0); }
            free(src); free(entry); free(prof); fflush(out);
        } else if (kind == 'A') {
            unsigned ns, nf, fl, inc; Blob *volatile code = 0, *volatile err = 0; volatile HRESULT hr = E_FAIL;
            char *src = rd_bytes(&ns), *file = rd_bytes(&nf);
            rd_u32(&fl); rd_u32(&inc);
            if (__builtin_setjmp(fault) == 0) {
                guarded = 1; busy(1);
                hr = assemble(src, ns, nf ? file : 0, 0, inc ? (void *)1 : 0, fl, (Blob **)&code, (Blob **)&err);
                guarded = 0; busy(0);
            } else {
                busy(0); hr = (HRESULT)CRASHED; code = 0; err = 0;
            }
            wr_u32((unsigned)hr); wr_blob(err);
            if (SUCCEEDED(hr) && code) {
                void *p = code->v->GetBufferPointer(code); unsigned n = (unsigned)code->v->GetBufferSize(code);
                wr_bytes(p, n); disassemble(p, n); code->v->Release(code);
            } else { if (code) code->v->Release(code); wr_bytes(0, 0); disassemble(0, 0); }
            free(src); free(file); fflush(out);
        } else if (kind == 'D') {
            unsigned n; char *p = rd_bytes(&n);
            disassemble(p, n); free(p); fflush(out);
        } else { fprintf(stderr, "unknown job kind %d\n", kind); return 3; }
    }
    fclose(out);
    return 0;
}
