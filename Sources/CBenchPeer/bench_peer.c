// The peer of Transect's bilinear kernel in `make bench`: one point at a time, floor from libm
// (inlined as roundsd where SSE4.1 is available), the four taps read straight from the grid
// when they lie inside it. The arithmetic is Transect's scalar reference, in the same order,
// so the two give the same bits and the bench can check that they do.
#include "bench_peer.h"

#include <math.h>

static inline double tap(const float *grid, long width, long height, long c, long r) {
    return (c < 0 || r < 0 || c >= width || r >= height) ? NAN : (double)grid[r * width + c];
}

/// The two cache lines (upper and lower row of taps) of the point `ahead` points on, prefetched.
static inline void prefetch_taps(const float *grid, long width, long height, const double *xs, const double *ys,
                                 long k, long n, long ahead) {
    if (ahead > 0 && k + ahead < n) {
        double u = xs[k + ahead] - 0.5;
        double v = ys[k + ahead] - 0.5;
        if (u >= 0 && v >= 0 && u < width - 1 && v < height - 1) {
            const float *p = grid + (long)v * width + (long)u;
            __builtin_prefetch(p, 0, 3);
            __builtin_prefetch(p + width, 0, 3);
        }
    }
}

static inline void bilinear(const float *grid, long width, long height, const double *xs, const double *ys,
                            long n, double *out, long ahead) {
    for (long k = 0; k < n; k++) {
        prefetch_taps(grid, width, height, xs, ys, k, n, ahead);
        double u = xs[k] - 0.5;
        double v = ys[k] - 0.5;
        double fu = floor(u);
        double fv = floor(v);
        if (!(fabs(fu) < 1e15 && fabs(fv) < 1e15)) {
            out[k] = NAN;
            continue;
        }
        long c = (long)fu;
        long r = (long)fv;
        double tx = u - fu;
        double ty = v - fv;
        double z00, z10, z01, z11;
        if (c >= 0 && r >= 0 && c + 1 < width && r + 1 < height) {
            const float *p = grid + r * width + c;
            z00 = p[0];
            z10 = p[1];
            z01 = p[width];
            z11 = p[width + 1];
        } else {
            z00 = tap(grid, width, height, c, r);
            z10 = tap(grid, width, height, c + 1, r);
            z01 = tap(grid, width, height, c, r + 1);
            z11 = tap(grid, width, height, c + 1, r + 1);
        }
        double w00 = (1 - tx) * (1 - ty);
        double w10 = tx * (1 - ty);
        double w01 = (1 - tx) * ty;
        double w11 = tx * ty;
        double sum = 0;
        double weights = 0;
        if (!isnan(z00) && w00 > 0) { sum += w00 * z00; weights += w00; }
        if (!isnan(z10) && w10 > 0) { sum += w10 * z10; weights += w10; }
        if (!isnan(z01) && w01 > 0) { sum += w01 * z01; weights += w01; }
        if (!isnan(z11) && w11 > 0) { sum += w11 * z11; weights += w11; }
        double total = w00 + w10 + w01 + w11;
        out[k] = (weights > 0 && !(2 * weights < total)) ? sum / weights : NAN;
    }
}

void transect_peer_bilinear_f32(const float *grid, long width, long height, const double *xs, const double *ys,
                                long n, double *out) {
    bilinear(grid, width, height, xs, ys, n, out, 0);
}

void transect_peer_bilinear_f32_prefetch(const float *grid, long width, long height, const double *xs,
                                         const double *ys, long n, double *out, long ahead) {
    bilinear(grid, width, height, xs, ys, n, out, ahead);
}

double transect_peer_taps_only_f32(const float *grid, long width, long height, const double *xs, const double *ys,
                                   long n, long ahead) {
    double sum = 0;
    for (long k = 0; k < n; k++) {
        prefetch_taps(grid, width, height, xs, ys, k, n, ahead);
        double u = xs[k] - 0.5;
        double v = ys[k] - 0.5;
        if (u >= 0 && v >= 0 && u < width - 1 && v < height - 1) {
            const float *p = grid + (long)v * width + (long)u;
            sum += p[0] + p[width + 1];
        }
    }
    return sum;
}
