#ifndef TRANSECT_BENCH_PEER_H
#define TRANSECT_BENCH_PEER_H
// make bench: the plain C loop a user would write for bilinear sampling of a Float32 grid,
// the peer of Transect's kernel. Built with the same flags as the rest of the release build.

/// Bilinear at n points (continuous pixel coordinates, cell centres at i + 0.5) of a row-major
/// width x height Float32 grid, into out: NaN cells are no data, a point is a gap when its valid
/// taps carry less than half of the weight, otherwise the valid weights are renormalised.
void transect_peer_bilinear_f32(const float *grid, long width, long height, const double *xs, const double *ys,
                                long n, double *out);

/// The same loop with the two cache lines of the point `ahead` points on prefetched
/// (`__builtin_prefetch`), as Transect's kernel does: what the hardware gives a plain loop.
void transect_peer_bilinear_f32_prefetch(const float *grid, long width, long height, const double *xs,
                                         const double *ys, long n, double *out, long ahead);

/// The memory floor: per point only the two taps' cache lines (one load in each, prefetched
/// `ahead` points on), no interpolation. Returns the sum of the loads so they cannot be dropped.
double transect_peer_taps_only_f32(const float *grid, long width, long height, const double *xs, const double *ys,
                                   long n, long ahead);

#endif
