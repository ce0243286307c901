#include "leaf_tables.h"

#include <immintrin.h>
#include <string.h>

#define LANES FLYR_LEAF_TABLES_LANES

typedef double lanes_f64 __attribute__((ext_vector_type(LANES)));
typedef int64_t lanes_i64 __attribute__((ext_vector_type(LANES)));

/// The rows as columns, one vector a feature (lanes past `count` zero), written a cell at a time.
static inline void transpose(const double *rows, int32_t count, int32_t width, double *cells) {
    for (int32_t k = 0; k < count; k++)
        for (int32_t f = 0; f < width; f++) cells[f * LANES + k] = rows[k * width + f];
    for (int32_t k = count; k < LANES; k++)
        for (int32_t f = 0; f < width; f++) cells[f * LANES + k] = 0;
}

// Only compares, bit operations and additions in tree order (nothing to fuse or reorder): every
// kernel gives the node walk's sums to the bit.
__attribute__((target("avx512f,avx512cd")))
static void sums_avx512(const flyr_leaf_tables *trees, double baseline, const double *rows, int32_t count, int32_t width,
                        double *sums) {
    _Alignas(64) double cells[FLYR_LEAF_TABLES_MAX_WIDTH * LANES];
    transpose(rows, count, width, cells);
    __m512d total = _mm512_set1_pd(baseline);
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi64(63);
    for (int32_t t = 0; t < trees->tree_count; t++) {
        __m512i leaves = _mm512_set1_epi64(-1);
        for (int32_t j = trees->split_start[t]; j < trees->split_start[t + 1]; j++) {
            const __m512d column = _mm512_load_pd(cells + trees->split_feature[j] * LANES);
            const __mmask8 right = _mm512_cmp_pd_mask(column, _mm512_set1_pd(trees->split_threshold[j]), _CMP_NLE_UQ);
            leaves = _mm512_mask_and_epi64(leaves, right, leaves, _mm512_set1_epi64(trees->split_mask[j]));
        }
        // The lowest bit's index (63 − leading zeros of that bit alone) picks the leaf: from a register
        // when the tree has eight slots, else by a gather.
        const __m512i lowest = _mm512_and_si512(leaves, _mm512_sub_epi64(zero, leaves));
        const __m512i leaf = _mm512_sub_epi64(top, _mm512_lzcnt_epi64(lowest));
        const double *values = trees->leaf_value + trees->leaf_start[t];
        total = _mm512_add_pd(total, trees->leaf_start[t + 1] - trees->leaf_start[t] == 8
                                         ? _mm512_permutexvar_pd(leaf, _mm512_loadu_pd(values))
                                         : _mm512_i64gather_pd(leaf, values, 8));
    }
    _Alignas(64) double lanes[LANES];
    _mm512_store_pd(lanes, total);
    for (int32_t k = 0; k < count; k++) sums[k] = lanes[k];
}

__attribute__((target_clones("avx2", "default")))
void flyr_leaf_sums_portable(const flyr_leaf_tables *trees, double baseline, const double *rows, int32_t count,
                             int32_t width, double *sums) {
    _Alignas(64) double cells[FLYR_LEAF_TABLES_MAX_WIDTH * LANES];
    transpose(rows, count, width, cells);
    const lanes_f64 *columns = (const lanes_f64 *)cells;
    double total[LANES];
    for (int k = 0; k < LANES; k++) total[k] = baseline;
    for (int32_t t = 0; t < trees->tree_count; t++) {
        lanes_i64 leaves = -1;
        for (int32_t j = trees->split_start[t]; j < trees->split_start[t + 1]; j++) {
            const lanes_i64 left = columns[trees->split_feature[j]] <= (lanes_f64)trees->split_threshold[j];
            leaves &= (lanes_i64)trees->split_mask[j] | left;
        }
        int64_t bits[LANES];
        memcpy(bits, &leaves, sizeof bits);
        const double *values = trees->leaf_value + trees->leaf_start[t];
        for (int k = 0; k < LANES; k++) total[k] += values[__builtin_ctzll((uint64_t)bits[k])];
    }
    for (int32_t k = 0; k < count; k++) sums[k] = total[k];
}

void flyr_leaf_sums(const flyr_leaf_tables *trees, double baseline, const double *rows, int32_t count, int32_t width,
                    double *sums) {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd")) {
        sums_avx512(trees, baseline, rows, count, width, sums);
    } else {
        flyr_leaf_sums_portable(trees, baseline, rows, count, width, sums);
    }
}
