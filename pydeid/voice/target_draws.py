"""The seeded target draws of seed 004's strategies 1/2/3 (one target for everybody or per gender, per speaker, per
utterance), single or averaged over several pool voices: shared by the conversion driver (pydeid.voice.convert) and
the target-selection modes (pydeid.voice.target_selection), in a module of their own so neither imports the other."""

from __future__ import annotations

from .common import rng_for


def _target_candidates(strategy: int, pool: list[str], spk: str, utt: str, gender: str | None,
                       pool_genders: dict[str, str] | None) -> tuple[list[str], list[str], tuple]:
    """(the gender's pool, the candidates, the key of the draw) of assign_target/assign_targets."""
    if gender is not None and pool_genders:
        pool = [t for t in pool if pool_genders.get(t) == gender] or pool
    if strategy == 1:
        return pool, pool, (("strategy1",) if gender is None else ("strategy1", gender))
    if strategy == 2:
        return pool, [t for t in pool if t != spk] or pool, ("strategy2", spk)
    if strategy == 3:
        return pool, [t for t in pool if t != spk] or pool, ("strategy3", utt)
    raise ValueError(f"strategy must be 1, 2 or 3, got {strategy}")


def assign_target(strategy: int, pool: list[str], seed: int, spk: str, utt: str, gender: str | None = None,
                  pool_genders: dict[str, str] | None = None) -> str:
    """Strategy 1: one target for everybody (one per gender when `gender` is given); 2: one per source speaker;
    3: one per utterance.

    With `gender` and `pool_genders`, targets are drawn among the pool speakers of that gender (as the
    VoicePrivacy baselines pick same-gender pseudo-speakers), or the whole pool when it has none of them.
    A source speaker who is also in the pool is never mapped to himself (unless he is the whole pool).
    """
    pool, cand, key = _target_candidates(strategy, pool, spk, utt, gender, pool_genders)
    t = cand[int(rng_for(seed, *key).integers(len(cand)))]
    if strategy == 1 and t == spk and len(pool) > 1:   # the fixed target is the speaker himself: take the next one
        t = pool[(pool.index(t) + 1) % len(pool)]
    return t


def assign_targets(n: int, strategy: int, pool: list[str], seed: int, spk: str, utt: str, gender: str | None = None,
                   pool_genders: dict[str, str] | None = None, first: str | None = None) -> list[str]:
    """The speakers of an averaged pseudo-target: `first` (default assign_target's) and n - 1 others drawn without
    replacement among the same candidates (same gender, never the source speaker), once per key of the strategy
    (everybody / speaker / utterance); fewer when the candidates run out."""
    first = first if first is not None else assign_target(strategy, pool, seed, spk, utt, gender, pool_genders)
    _, cand, key = _target_candidates(strategy, pool, spk, utt, gender, pool_genders)
    rest = [t for t in cand if t not in (first, spk)]
    k = min(n - 1, len(rest))
    idx = rng_for(seed, "average", *key).choice(len(rest), k, replace=False) if k > 0 else []
    return [first] + [rest[int(i)] for i in idx]


__all__ = ["assign_target", "assign_targets"]
