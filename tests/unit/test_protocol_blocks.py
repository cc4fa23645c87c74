"""The protocols' bootstrap drawn in blocks equals rouge-score's one-resample-at-a-time loop bit for
bit: the legacy generator's draws (taken as raw words, masked and filtered), each resample's
mean, the generator's state after, and the corpus values of ``"fruit"`` and ``"editeval"``."""

import numpy as np
import pytest

from update_rouge import protocols
from update_rouge.protocols import legacy_randint, published_bootstrap, published_statistics, resample_means

SIZES = [1, 2, 3, 4, 7, 8, 16, 40, 64, 1000, 1024]
SEEDS = [0, 1, 12345, 2**32 - 1]


def loop_means(matrix, n_bootstrap, generator):
    """rouge-score 0.1.2's ``_bootstrap_resample`` loop (restated), on ``generator``."""
    rows = matrix.shape[0]
    means = np.zeros((n_bootstrap, matrix.shape[1]))
    for resample in range(n_bootstrap):
        indices = generator.choice(np.arange(rows), size=rows)
        means[resample, :] = np.mean(matrix[indices, :], axis=0)
    return means


def loop_bootstrap(matrices, n_bootstrap, confidence, seed):
    generator = np.random.RandomState(seed)
    quantiles = 100 * np.array([(1 - confidence) / 2, 0.5, 1 - (1 - confidence) / 2])
    return [np.percentile(loop_means(matrix, n_bootstrap, generator), quantiles, axis=0) for matrix in matrices]


def same_state(first, second):
    a, b = first.get_state(), second.get_state()
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


@pytest.mark.parametrize("rows", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_one_block_of_randint_draws_what_the_sequential_choice_calls_draw(rows, seed):
    sequential, blocked = np.random.RandomState(seed), np.random.RandomState(seed)
    expected = np.stack([sequential.choice(np.arange(rows), size=rows) for _ in range(9)])
    # Blocks of 4, 1 and 4 resamples: the boundaries fall inside the nine resamples.
    drawn = np.concatenate([blocked.randint(0, rows, size=(size, rows)) for size in (4, 1, 4)])
    assert drawn.dtype == expected.dtype and np.array_equal(drawn, expected)
    assert same_state(sequential, blocked)
    assert sequential.randint(0, 2**31) == blocked.randint(0, 2**31)


HIGHS = [1, 2, 3, 5, 40, 63, 64, 65, 1000, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32]


@pytest.mark.parametrize("high", HIGHS)
@pytest.mark.parametrize("words", [1, 7, protocols.WORDS_PER_DRAW])
def test_the_masked_raw_words_are_what_randint_draws_and_no_word_more(high, words, monkeypatch):
    monkeypatch.setattr(protocols, "WORDS_PER_DRAW", words)
    count = 3001
    for seed in (0, 12345, 2**32 - 1):
        sequential, raw = np.random.RandomState(seed), np.random.RandomState(seed)
        expected = sequential.randint(0, high, size=count)
        pieces = list(legacy_randint(raw, high, count))
        drawn = np.concatenate(pieces)
        assert drawn.dtype == np.uint32 and np.array_equal(drawn.astype(np.int64), expected)
        assert all(piece.size <= words for piece in pieces)  # drawn in bulk, not all at once
        assert same_state(sequential, raw)  # the next word is the one randint would take next
        assert sequential.randint(0, 2**31) == raw.randint(0, 2**31)


@pytest.mark.parametrize("rows", [2, 40, 1000])
def test_the_raw_words_continue_the_choice_calls_of_the_aggregator(rows):
    # choice's draws, resample after resample, then what a later choice call draws.
    sequential, raw = np.random.RandomState(7), np.random.RandomState(7)
    expected = np.concatenate([sequential.choice(np.arange(rows), size=rows) for _ in range(50)])
    assert np.array_equal(np.concatenate(list(legacy_randint(raw, rows, 50 * rows))), expected)
    assert np.array_equal(raw.choice(np.arange(rows), size=rows), sequential.choice(np.arange(rows), size=rows))


@pytest.mark.parametrize("rows", SIZES)
@pytest.mark.parametrize("block_indices", [1, 5, 3 * 1024 + 1, protocols.BLOCK_INDICES])
@pytest.mark.parametrize("words", [3, protocols.WORDS_PER_DRAW])
def test_blocked_resample_means_equal_the_loop_and_leave_the_generator_where_it_leaves_it(
    rows, block_indices, words, monkeypatch
):
    monkeypatch.setattr(protocols, "BLOCK_INDICES", block_indices)
    monkeypatch.setattr(protocols, "WORDS_PER_DRAW", words)
    matrix = np.random.RandomState(rows).random_sample((rows, 3))
    matrix[::4] = 1.0  # ties, as the no-additions rule makes
    n_bootstrap = 7 if rows >= 1000 else 101
    for seed in (0, 2**32 - 1):
        reference, blocked = np.random.RandomState(seed), np.random.RandomState(seed)
        expected = loop_means(matrix, n_bootstrap, reference)
        means = resample_means(matrix, n_bootstrap, blocked)
        assert means.shape == (3, n_bootstrap) and np.array_equal(means.T, expected)  # exact, not approximate
        assert same_state(reference, blocked)


@pytest.mark.parametrize("confidence", [None, 0.9])
def test_blocked_corpus_values_equal_the_loop_under_fruit_and_editeval(confidence, monkeypatch):
    monkeypatch.setattr(protocols, "BLOCK_INDICES", 97)  # blocks of 2 resamples at 40 rows
    values = np.random.RandomState(5).random_sample((40, 2, 3))
    values[::3] = 1.0
    columns = {f"update_{t}": values + i / 10 for i, t in enumerate(protocols.PUBLISHED_TYPES)}
    for protocol, slots, scale in (("fruit", 1, 100.0), ("editeval", 2, 1.0)):  # FRUIT reports percent
        sliced = {key: array[:, :slots, :].reshape(40, -1) for key, array in columns.items()}
        matrices = [np.ascontiguousarray(array[:, slot, :]) for slot in range(slots) for array in columns.values()]
        reference = loop_bootstrap(matrices, 301, 0.95 if confidence is None else confidence, 7)
        assert all(np.array_equal(a, b) for a, b in zip(published_bootstrap(matrices, 301, confidence, 7), reference))
        result = published_statistics(sliced, protocol, 40, (confidence, 301, 7))
        for i, key in enumerate(columns):
            expected = sum(float(reference[slot * 3 + i][1, 2] * scale) for slot in range(slots)) / slots
            assert result[key] == expected


def test_a_million_resamples_continue_one_stream_across_blocks_of_the_real_size():
    # 2**16 // 40 = 1638 resamples a block, 2**18 words a draw: the first 7000 resamples cross both.
    matrix = np.random.RandomState(3).random_sample((40, 3))
    many = resample_means(matrix, 1_000_000, np.random.RandomState(11))
    assert many.shape == (3, 1_000_000)
    assert np.array_equal(many[:, :7000].T, loop_means(matrix, 7000, np.random.RandomState(11)))
