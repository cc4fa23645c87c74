"""Longest common subsequences on token lists, bit-parallel on Python integers.

``lcs_length`` gives the LCS length used by rougeL. ``summary_lcs_hits`` gives the hit count of
rouge-score's summary-level rougeLsum: for each reference line, the union over candidate lines
of the LCS positions that rouge-score's backtracking picks, clipped by token counts. Both cost
O(n * m / w) big-integer word operations (w = machine word bits) instead of O(n * m) Python
steps, and memory O(m) integers of n bits per candidate line.

Bit-parallel LCS (Allison and Dix 1986; Hyyro 2004): the reference tokens are bit positions; after
reading j candidate tokens, the zero bits of the state V mark the rows i where the DP value
t[i][j] exceeds t[i-1][j], so t[i][j] is the number of zeros among V's i lowest bits.
"""

from collections import Counter
from typing import Dict, Hashable, List, Optional, Sequence, Tuple

_REVERSED_BYTE = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def _reverse_bits(value: int, n_bytes: int) -> int:
    """Mirror ``value`` within ``8 * n_bytes`` bits (bit b goes to 8 * n_bytes - 1 - b)."""
    return int.from_bytes(value.to_bytes(n_bytes, "little").translate(_REVERSED_BYTE), "big")


def _position_masks(tokens: Sequence[Hashable]) -> Dict[Hashable, int]:
    """Map each token to the integer whose set bits are the token's positions."""
    positions: Dict[Hashable, List[int]] = {}
    for index, token in enumerate(tokens):
        positions.setdefault(token, []).append(index)
    return {token: sum(1 << i for i in indices) for token, indices in positions.items()}


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of a longest common subsequence of ``a`` and ``b``."""
    if len(a) < len(b):
        a, b = b, a
    masks = _position_masks(a)
    full = (1 << len(a)) - 1
    state = full
    for token in b:
        match = masks.get(token)
        if match:
            kept = state & match
            state = ((state + kept) | (state - kept)) & full
    return len(a) - state.bit_count()


def summary_lcs_hits(
    reference_lines: List[List[Hashable]],
    candidate_lines: List[List[Hashable]],
    clip_counts: Optional[Tuple[Counter, Counter]] = None,
) -> int:
    """Hits of rouge-score's summary-level LCS (``_summary_level_lcs``), chosen exactly as it does.

    ``clip_counts`` (reference, candidate token counts) replaces the lines' own counts for the
    clipping: ROUGE-1.5.5 under a byte limit clips by texts that differ from the lines.

    rouge-score takes, for every reference line r and candidate line c, the LCS positions of r
    found by backtracking its DP table from the end (diagonal on equal tokens, otherwise up
    unless the cell to the left is strictly larger), unions them over c, and counts a hit for
    each union token while both the reference and candidate count of that token last. The hit
    count is therefore sum over tokens of min(union occurrences, candidate count).

    All reference lines are packed into one integer, each line's bits preceded by a zero guard
    bit that stops carries, so one pass over a candidate line computes its DP columns against
    every reference line at once. The backtracking walks the columns from the last, for all
    reference lines at once: in a column, the walk moves up over rows that neither match nor
    increase the DP value, so its next stop is the highest such row below its position. In
    bit-mirrored coordinates that is each line's lowest set bit above a position, which one
    subtraction isolates for all lines together.
    """
    # Forward layout: for each non-empty reference line, a guard bit then one bit per token.
    forward_positions: Dict[Hashable, List[int]] = {}
    guards = bottoms = 0
    position = 0
    for line in reference_lines:
        if not line:
            continue
        guards |= 1 << position
        position += 1
        for token in line:
            forward_positions.setdefault(token, []).append(position)
            position += 1
        bottoms |= 1 << (position - 1)  # the line's last token: lowest bit once mirrored
    if not position:
        return 0
    n_bytes = (position + 7) // 8
    token_bits = ((1 << position) - 1) ^ guards
    forward_masks = {token: sum(1 << i for i in indices) for token, indices in forward_positions.items()}
    shared = {token for line in candidate_lines for token in line if token in forward_masks}
    mirrored_masks = {token: _reverse_bits(forward_masks[token], n_bytes) for token in shared}
    guards_m = _reverse_bits(guards, n_bytes)
    bottoms_m = _reverse_bits(bottoms, n_bytes)
    start_m = _reverse_bits(token_bits, n_bytes)
    union_m = 0

    for line in candidate_lines:
        if shared.isdisjoint(line):
            continue
        columns = []
        state = token_bits
        for token in line:
            match = forward_masks.get(token)
            if match:
                kept = state & match
                state = ((state + kept) | (state - kept)) & token_bits
            columns.append(state)
        allowed = start_m  # rows each reference line's walk may still visit, mirrored
        last_state, increase_m = None, 0
        for j in range(len(line) - 1, -1, -1):
            match_m = mirrored_masks.get(line[j], 0)
            if columns[j] is not last_state:  # a column equals its left neighbour after a non-match
                last_state = columns[j]
                increase_m = _reverse_bits(token_bits ^ last_state, n_bytes)
            candidates = ((match_m | increase_m) & allowed) | guards_m
            lowest = candidates & ~(candidates - bottoms_m)
            stops = lowest & ~guards_m
            if not stops:
                break
            taken = stops & match_m
            union_m |= taken
            # A taken match continues above it (strictly); a step left continues from its row.
            allowed = (guards_m & ~lowest) - ((taken << 1) | (stops ^ taken))

    if clip_counts is None:
        candidate_counts = Counter(token for line in candidate_lines for token in line)
        return sum(min((union_m & mirrored_masks[token]).bit_count(), candidate_counts[token]) for token in shared)
    reference_counts, candidate_counts = clip_counts
    return sum(
        min((union_m & mirrored_masks[token]).bit_count(), candidate_counts[token], reference_counts[token])
        for token in shared
    )
