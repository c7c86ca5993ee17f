RWStructuredBuffer<double> buf : register(u0);
cbuffer C { double a; float f; int n; }
static const float tbl[4] = {0.1, 3.14159265, -2.5, 1e-7};
[numthreads(4,2,1)]
void main(uint3 id : SV_DispatchThreadID) {
  double s = a * 1.1 + 3.0;
  for (int i = 0; i < n; i++) {
    if (i > 2) { if (f > 0.3) s += tbl[i & 3]; else s -= 2.0; }
    else { switch (i) { case 0: s *= 0.7; break; default: s += f; break; } }
  }
  buf[id.x] = s + (double)(f * 3.14159265);
}
