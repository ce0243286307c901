#ifndef FLYR_LEAF_TABLES_H
#define FLYR_LEAF_TABLES_H

#include <stdint.h>

/// Trees of at most 64 leaves, as QuickScorer lays them out. Tree t's splits are
/// split_feature/split_threshold/split_mask[split_start[t] ..< split_start[t + 1]]; its leaves, left
/// to right, are leaf_value[leaf_start[t] ...] (eight slots when it has eight leaves or fewer). A row's
/// leaf is the lowest bit left of all ones once every split the row goes right at (not feature <=
/// threshold, NaN included) has cleared its left subtree's bits (`&= split_mask`).
typedef struct {
    int32_t tree_count;
    const int32_t *split_start;
    const int32_t *split_feature;
    const double *split_threshold;
    const int64_t *split_mask;
    const int32_t *leaf_start;
    const double *leaf_value;
} flyr_leaf_tables;

/// The widest row the tables read (features per row).
#define FLYR_LEAF_TABLES_MAX_WIDTH 128
/// Rows scored together: one lane each.
#define FLYR_LEAF_TABLES_LANES 8

/// For each of `count` rows (at most FLYR_LEAF_TABLES_LANES) of `width` features at `rows`: `baseline`
/// plus every tree's leaf value, added in tree order, into sums[0 ..< count]. In AVX-512 vectors where
/// the processor has them, else in portable ones: the same sums to the bit either way.
void flyr_leaf_sums(const flyr_leaf_tables *trees, double baseline, const double *rows, int32_t count, int32_t width,
                    double *sums);

/// `flyr_leaf_sums` without AVX-512 (for tests on a processor that has it).
void flyr_leaf_sums_portable(const flyr_leaf_tables *trees, double baseline, const double *rows, int32_t count,
                             int32_t width, double *sums);

#endif
