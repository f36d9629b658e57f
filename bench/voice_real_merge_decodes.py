"""The trial-set decode of bench/voice_real.sh made of two decodes of the same decoder: the utility subset's
(data/test_wer_<v>) and the other trial utterances' (data/test_trial_<v>_rest). pocketsphinx decodes every utterance
on its own (the 60 subset hypotheses of whole-trial-set decodes were identical to the subset decodes', original and
VTLN S3), so the merge is the whole-set decode at 40 % less CPU. Checks that the two hold every utterance of the trial
set once, then writes <out>/decode_pocketsphinx.json (utterances, audio and CPU seconds summed; merged_from) next to
the merged text bench/voice_real.sh wrote.

    python bench/voice_real_merge_decodes.py <subset-decode> <rest-decode> <trial-data> <out-decode>
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def hyp_utts(text: Path) -> list[str]:
    return [ln.split(maxsplit=1)[0] for ln in text.read_text(encoding="utf-8").splitlines() if ln.strip()]


def main(argv: list[str] | None = None) -> int:
    sub, rest, data, out = (Path(x) for x in (argv if argv is not None else sys.argv[1:]))
    a, b = hyp_utts(sub / "text"), hyp_utts(rest / "text")
    trial = hyp_utts(data / "wav.scp")
    if sorted(a + b) != sorted(trial):
        print(f"voice_real_merge_decodes.py: {sub}/text and {rest}/text do not hold the utterances of {data} once each "
              f"({len(a)} + {len(b)} hypotheses, {len(trial)} utterances)", file=sys.stderr)
        return 1
    ja, jb = (json.loads((d / "decode_pocketsphinx.json").read_text()) for d in (sub, rest))
    m = dict(jb, data=str(data), merged_from=[str(sub), str(rest)])
    for k in ("utterances", "audio_seconds", "decode_cpu_seconds"):
        m[k] = round(ja[k] + jb[k], 3)
    m["rtf"] = round(m["decode_cpu_seconds"] / m["audio_seconds"], 4)
    (out / "decode_pocketsphinx.json").write_text(json.dumps(m, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
