"""Longest common subsequences on token lists, bit-parallel on Python integers, in linear memory.

``lcs_length``: the LCS length of rougeL. ``summary_lcs_hits``: the hit count of rouge-score's
summary-level rougeLsum (lines: ``summary_lines``). ``lcs_walk``: the LCS of one pair that the
edits diff keeps. Each costs O(n * m / w) big-integer word operations (w = machine word bits).

Memory is linear in the text length: position masks are kept up to ``MASK_BUDGET_BYTES`` (the
candidate's most used tokens first) and rebuilt for the others; DP columns are kept whole up to
``COLUMN_BUDGET_BYTES``, else every isqrt(m)-th one, each block recomputed from its checkpoint
when the backtracking reaches it. The columns are the same integers either way.

Bit-parallel LCS (Allison and Dix 1986; Hyyro 2004): the reference tokens are bit positions; after
reading j candidate tokens, the zero bits of the state V mark the rows i where the DP value
t[i][j] exceeds t[i-1][j], so t[i][j] is the number of zeros among V's i lowest bits.
"""

import re
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, compress
from math import isqrt

MASK_BUDGET_BYTES = 64 << 20
"""Bytes of position masks kept per table; masks beyond it are rebuilt when used."""

COLUMN_BUDGET_BYTES = 64 << 20
"""Bytes of DP columns kept for one candidate line; beyond it, checkpoints and recomputed blocks."""

_REVERSED_BYTE = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))
_ONE = re.compile("1")
_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")  # "0" and "1" as false and true bytes
_GUARD = object()
_SHIFTS_BYTES = 1 << 12  # below this, summing shifted ones beats filling a buffer
_ACCUMULATE_TOKENS = 1 << 12  # up to this, accumulating masks bit by bit beats gathering positions

MaskLookup = Callable[[Hashable], int | None]


def _reverse_bits(value: int, n_bytes: int) -> int:
    """Mirror ``value`` within ``8 * n_bytes`` bits (bit b goes to 8 * n_bytes - 1 - b)."""
    return int.from_bytes(value.to_bytes(n_bytes, "little").translate(_REVERSED_BYTE), "big")


def _bits(positions: Sequence[int], n_bytes: int, mirror: bool = False) -> int:
    """The integer whose set bits are ``positions`` (each below ``8 * n_bytes``), in O(n_bytes) time.

    With ``mirror``, position p sets bit 8 * n_bytes - 1 - p instead (as ``_reverse_bits``).
    """
    if len(positions) == 1:
        return 1 << (8 * n_bytes - 1 - positions[0] if mirror else positions[0])
    if mirror:
        positions = list(map((8 * n_bytes - 1).__sub__, positions))
    if len(positions) * n_bytes <= _SHIFTS_BYTES:
        return sum(map((1).__lshift__, positions))
    buffer = bytearray(n_bytes)
    for position in positions:
        buffer[position >> 3] |= 1 << (position & 7)
    return int.from_bytes(buffer, "little")


def _positions(tokens: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    """Map each token to the ascending list of its indices in ``tokens``."""
    positions: dict[Hashable, list[int]] = {}
    for index, token in enumerate(tokens):
        positions.setdefault(token, []).append(index)
    return positions


def _mask_lookup(
    positions: dict[Hashable, list[int]],
    tokens: Collection[Hashable],
    uses: Counter,
    n_bytes: int,
    mirror: bool = False,
) -> MaskLookup:
    """``token -> _bits(positions[token], n_bytes, mirror)`` for ``tokens``, None for others, like
    ``dict.get``: the masks most used (``uses``) are built once, up to ``MASK_BUDGET_BYTES``, the
    others at each use."""
    keep = MASK_BUDGET_BYTES // max(n_bytes, 1)
    if len(tokens) <= keep:
        return {token: _bits(positions[token], n_bytes, mirror) for token in tokens}.get
    kept = sorted(tokens, key=uses.__getitem__, reverse=True)[:keep]
    cache = {token: _bits(positions[token], n_bytes, mirror) for token in kept}

    def lookup(token: Hashable) -> int | None:
        mask = cache.get(token)
        if mask is None and token in tokens:
            return _bits(positions[token], n_bytes, mirror)
        return mask

    return lookup


def _mask_lookups(
    sequence: Sequence[Hashable], uses: Counter, n_bytes: int, mirror: bool = False
) -> tuple[AbstractSet[Hashable], MaskLookup, MaskLookup | None]:
    """The tokens of ``uses`` that ``sequence`` holds, the lookup of their position masks in
    ``sequence`` (``n_bytes`` wide, None for the other tokens) and, with ``mirror``, that of the
    mirrored masks (else None); within ``MASK_BUDGET_BYTES``."""
    if len(sequence) > _ACCUMULATE_TOKENS or len(sequence) * n_bytes > MASK_BUDGET_BYTES:
        positions = _positions(sequence)
        shared = uses.keys() & positions.keys()
        mirrored = _mask_lookup(positions, shared, uses, n_bytes, mirror=True) if mirror else None
        return shared, _mask_lookup(positions, shared, uses, n_bytes), mirrored
    masks = _accumulated_masks(sequence)
    shared = uses.keys() & masks.keys()
    mirrored = {token: _reverse_bits(masks[token], n_bytes) for token in shared}.get if mirror else None
    return shared, masks.get, mirrored


def _accumulated_masks(sequence: Sequence[Hashable]) -> dict[Hashable, int]:
    """Each token of ``sequence`` -> the integer with bit p set for each position p holding it,
    accumulated bit by bit in one pass."""
    masks: dict[Hashable, int] = {}
    get = masks.get
    bit = 1
    for token in sequence:
        masks[token] = get(token, 0) | bit
        bit <<= 1
    return masks


def _advance(state: int, tokens: Sequence[Hashable], masks: MaskLookup, width: int) -> list[int]:
    """The bit-parallel DP columns after each of ``tokens``, starting from ``state``; ``width`` has a
    bit set at each DP row. A column without a match is its left neighbour's object."""
    columns = []
    for token in tokens:
        match = masks(token)
        if match:
            kept = state & match
            state = ((state + kept) | (state - kept)) & width
        columns.append(state)
    return columns


def _columns_backwards(
    start: int, line: Sequence[Hashable], masks: MaskLookup, width: int, n_bytes: int
) -> Iterator[int]:
    """The DP column after each token of ``line`` (non-empty), from the last to the first: all kept
    within ``COLUMN_BUDGET_BYTES``, else recomputed from checkpoints (``_column_blocks``)."""
    if len(line) * n_bytes <= COLUMN_BUDGET_BYTES:
        return reversed(_advance(start, line, masks, width))
    return chain.from_iterable(_column_blocks(start, line, masks, width, n_bytes))


def _column_blocks(
    start: int, line: Sequence[Hashable], masks: MaskLookup, width: int, n_bytes: int
) -> Iterator[list[int]]:
    """``_columns_backwards`` in lists of consecutive columns: one list within ``COLUMN_BUDGET_BYTES``,
    else lists of isqrt(len(line)) columns, each recomputed from its checkpoint when reached."""
    block = max(len(line) if len(line) * n_bytes <= COLUMN_BUDGET_BYTES else isqrt(len(line)), 1)
    starts = range(0, len(line), block)
    checkpoints = [start]
    for first in starts[1:]:
        checkpoints.append(_advance(checkpoints[-1], line[first - block : first], masks, width)[-1])
    for first, checkpoint in zip(reversed(starts), reversed(checkpoints)):
        columns = _advance(checkpoint, line[first : first + block], masks, width)
        columns.reverse()
        yield columns
        del columns


def common_ends(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[int, int]:
    """The length of the common prefix of ``a`` and ``b``, and that of the common suffix of what
    follows it (the two never overlap)."""
    common, shorter = 0, min(len(a), len(b))
    while common < shorter and a[common] == b[common]:
        common += 1
    end = 0
    while end < shorter - common and a[-1 - end] == b[-1 - end]:
        end += 1
    return common, end


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of a longest common subsequence of ``a`` and ``b``."""
    common, end = common_ends(a, b)
    a, b = a[common : len(a) - end], b[common : len(b) - end]
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return common + end
    _, masks, _ = _mask_lookups(a, Counter(b), (len(a) + 7) // 8)
    full = (1 << len(a)) - 1
    state = full
    for token in b:
        match = masks(token)
        if match:
            kept = state & match
            state = ((state + kept) | (state - kept)) & full
    return common + end + len(a) - state.bit_count()


def source_masks(source: Sequence[Hashable]) -> MaskLookup:
    """``lcs_walk``'s lookup for ``source``: token -> the integer with bit len(source) - 1 - j set
    for each position j that holds it (None for other tokens), within ``MASK_BUDGET_BYTES``."""
    n_bytes = (len(source) + 7) // 8
    if len(source) > _ACCUMULATE_TOKENS or len(source) * n_bytes > MASK_BUDGET_BYTES:
        positions = _positions(source[::-1])
        return _mask_lookup(positions, positions.keys(), Counter(source), n_bytes)
    return _accumulated_masks(source[::-1]).get


def lcs_walk(
    text: Sequence[Hashable],
    source: Sequence[Hashable],
    masks: MaskLookup,
    start: int = 0,
    end: int | None = None,
    offset: int = 0,
) -> tuple[list[int], int]:
    """The walk from the start through the LCS table of the suffixes of ``text`` and
    ``source[start:end]`` (``masks``: ``source_masks(source)``): the ascending positions of the
    text tokens it keeps, and the text position where it stops (``len(text)`` once it has read
    the text; below, it has read the source first), each plus ``offset``.

    With L(i, j) the LCS length of text[i:] and source[j:end], the walk at (i, j) keeps text[i]
    and goes to (i + 1, j + 1) when text[i] == source[j]; otherwise it goes to (i, j + 1) when
    L(i, j + 1) > L(i + 1, j), strictly, else to (i + 1, j).

    Source position j is bit len(source) - 1 - j. One bit-parallel pass over the text from its end
    gives each text suffix's state; where adding the matches of text[i] to the state of text[i + 1:]
    carries, L(i, .) exceeds L(i + 1, .), so the walk's next stop in row i is one ``bit_length``.
    """
    end = len(source) if end is None else end
    if not text or start >= end:
        return [], offset
    m = len(source)
    low = 1 << (m - end)  # the lowest bit of the source before ``end``
    width = (1 << (m - start)) - low
    # Lists of the states of text[i + 1:] for i = 0, 1, ... in turn.
    blocks = chain(_column_blocks(width, text[:0:-1], masks, width, (m + 7) // 8), [[width]])
    kept: list[int] = []
    j = start
    rows_j, top, rows = -1, 0, 0  # 1 << (m - j) and the bits of source[j:end], for j == rows_j
    first = 0  # the index in ``text`` of the block's first state
    for befores in blocks:
        shift = offset + first  # i below is the text index plus ``offset``
        for i, token in enumerate(text[first : first + len(befores)], shift):
            if token != source[j]:
                match = masks(token)
                if match is None:
                    continue
                if rows_j != j:
                    rows_j, top = j, 1 << (m - j)
                    rows = top - low
                ahead = match & rows
                if not ahead:
                    continue  # no match in source[j:end]: L(i, j) == L(i + 1, j)
                before = befores[i - shift]
                if (before & rows) + (before & ahead) < top:
                    continue  # the carry stops below bit m - j: L(i, j) == L(i + 1, j)
                j = m - ahead.bit_length()
            kept.append(i)
            j += 1
            if j == end:
                return kept, i + 1
        first += len(befores)
    return kept, offset + len(text)


def summary_lines(text: str) -> list[str]:
    """rouge-score's rougeLsum sentences: the non-empty lines of ``text`` (split at "\\n" only)."""
    return [line for line in text.split("\n") if line]


def summary_lcs_hits(
    reference_lines: list[list[Hashable]],
    candidate_lines: list[list[Hashable]],
    clip_counts: tuple[Counter, Counter] | None = None,
) -> int:
    """Hits of rouge-score's summary-level LCS (``_summary_level_lcs``), chosen exactly as it does:
    per token, min(occurrences in the reference lines' union LCSs, candidate count).

    ``clip_counts`` (reference, candidate token counts) replaces the lines' own counts for the
    clipping: ROUGE-1.5.5 under a byte limit clips by texts that differ from the lines.
    """
    candidate_counts = Counter(chain.from_iterable(candidate_lines))
    candidate_set = set(map(tuple, candidate_lines))
    rest = [line for line in reference_lines if tuple(line) not in candidate_set]
    flat, _, union = _union_lcs_bits(rest, candidate_lines, candidate_counts)
    union_counts = Counter(compress(flat, union.encode().translate(_BINARY_DIGITS)))
    if len(rest) < len(reference_lines):
        union_counts.update(chain.from_iterable(line for line in reference_lines if tuple(line) in candidate_set))
    counts = union_counts.values()
    if clip_counts is None:
        return sum(map(min, counts, map(candidate_counts.__getitem__, union_counts)))
    reference_counts, clipping_counts = clip_counts
    return sum(
        map(
            min, counts, map(clipping_counts.__getitem__, union_counts), map(reference_counts.__getitem__, union_counts)
        )
    )


# rougeLsum's hot loop, kept in one frame for speed: C901 waived.
def _union_lcs_bits(  # noqa: C901
    reference_lines: list[list[Hashable]], candidate_lines: list[list[Hashable]], candidate_counts: Counter
) -> tuple[list[Hashable], list[int], str]:
    """For each reference line r, the positions of rouge-score's ``_union_lcs(r, candidate_lines)``
    (its ``lcs_ind`` backtracking: diagonal on equal tokens, otherwise up unless the cell to the
    left is strictly larger), as (flat, guard positions, union): ``flat`` holds each non-empty
    reference line preceded by a guard, ``guard positions`` the guards' indices, ``union`` a string
    of "0" and "1" whose "1"s are the flat indices of the union positions.

    All reference lines are packed into one integer, each behind a zero guard bit that stops
    carries, so one pass over a candidate line computes its DP columns against every reference line,
    and the backtracking finds every line's next stop (mirrored: its lowest candidate bit at or
    above its walk) with one subtraction.
    """
    # Forward layout: for each non-empty reference line, a guard bit then one bit per token.
    flat: list[Hashable] = []
    guard_positions = []
    for line in reference_lines:
        if line:
            guard_positions.append(len(flat))
            flat.append(_GUARD)
            flat.extend(line)
    if not flat:
        return flat, [], ""
    position = len(flat)
    n_bytes = (position + 7) // 8
    guards = _bits(guard_positions, n_bytes)
    bottoms = _bits([index - 1 for index in guard_positions[1:]] + [position - 1], n_bytes)
    token_bits = ((1 << position) - 1) ^ guards
    shared, forward_masks, mirrored_masks = _mask_lookups(flat, candidate_counts, n_bytes, mirror=True)
    assert mirrored_masks is not None, "asked for with mirror=True"
    guards_m = _reverse_bits(guards, n_bytes)
    bottoms_m = _reverse_bits(bottoms, n_bytes)  # each line's last token: its lowest bit once mirrored
    full = token_bits | guards
    to_bytes, from_bytes = int.to_bytes, int.from_bytes
    union_m = 0

    for line in candidate_lines:
        if shared.isdisjoint(line):
            continue
        at = bottoms_m  # each reference line's walk: the bit of its row, mirrored (its guard once over)
        next_matched = True  # whether the column read before this one (the next one in the line) had a match
        columns = _columns_backwards(token_bits, line, forward_masks, token_bits, n_bytes)
        for token, state in zip(reversed(line), columns):
            match_m = mirrored_masks(token)
            if match_m is None and not next_matched:
                continue  # the same column as the one before, and every walk already stands on a stop
            if next_matched:  # else the column is the one read before: it had no match
                # The increases of this column, and the guards, mirrored: with the matches, the stops.
                stops = from_bytes(to_bytes(full ^ state, n_bytes, "little").translate(_REVERSED_BYTE), "big")
            candidates = stops if match_m is None else stops | match_m
            # Each line's lowest candidate at or above its walk (the borrow of the subtraction stops there).
            lowest = candidates & (candidates ^ (candidates - at))
            if lowest == guards_m:
                break  # every walk is over
            if match_m is None:
                at, next_matched = lowest, False
                continue
            taken = lowest & match_m
            union_m |= taken
            at, next_matched = lowest + taken, True  # a taken match continues strictly above it

    return flat, guard_positions, format(_reverse_bits(union_m, n_bytes), "b")[::-1]
