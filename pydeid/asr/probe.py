"""How much speaker identity is left in a representation (seed 004 section 4.1.1, table 1).

For each ASR model (and for the filterbank input), every utterance is summarised by the mean and standard
deviation over frames of a representation:
  filterbank  the model's normalised log-mel features (front end + global MVN of the first model)
  phi_alpha   the encoder output of a model trained with adversarial weight alpha (steps/train_asr.sh
              --adv-alpha; alpha 0 is the plain ASR encoder)
Two attackers then read these summaries:
  ACC  closed-set speaker identification: a multinomial logistic-regression probe is trained on part of the
       utterances of the probe data's speakers and tested on the rest (every 4th utterance of each speaker;
       the seed's test-adv set: held-out utterances of the adversarially-trained speakers. Here, with the
       training data as probe data, the encoder has seen those utterances during ASR training);
  EER  open-set verification on an enroll/trial split (Kaldi trials file): enrolment = mean of the enroll
       utterances' length-normalised, centred summaries; cosine scoring; EER pooled and per enrolment-speaker
       gender (pydeid.attack.metrics.eer).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from pydeid.io import DataDir, kaldi_sort_key

log = logging.getLogger(__name__)


def load_model(exp_dir, model_file: str | None = None):
    from espnet2.tasks.asr import ASRTask

    from . import adversarial  # noqa: F401  registers espnet_spk_adv
    from .checkpoints import resolve_model_file
    exp = Path(exp_dir)
    model_path = resolve_model_file(exp, model_file)
    model, _ = ASRTask.build_model_from_file(exp / "config.yaml", model_path, "cpu")
    model.eval()
    return model


def representation(model, audio: np.ndarray, which: str = "encoder"):
    """(x [1, T, D], lengths [1]) of one utterance: the 'encoder' output phi(X) or the normalised 'filterbank'
    features the encoder reads (call under torch.no_grad())."""
    import torch

    wav = torch.from_numpy(audio).unsqueeze(0)
    lens = torch.tensor([wav.shape[1]])
    if which == "encoder":
        x, xl = model.encode(wav, lens)
        if isinstance(x, tuple):
            x = x[0]
    else:
        x, xl = model._extract_feats(wav, lens)
        if model.normalize is not None:
            x, xl = model.normalize(x, xl)
    return x, xl


def summaries(model, data: DataDir, utts: list[str], which: str = "encoder") -> np.ndarray:
    """(len(utts), 2D) mean+std pooled 'encoder' outputs or normalised 'filterbank' features."""
    import torch

    from .adversarial import stats_pool
    out = []
    with torch.no_grad():
        for u in utts:
            x, xl = representation(model, data.load_audio(u), which)
            out.append(stats_pool(x, xl)[0].numpy())
    return np.stack(out).astype(np.float64)


def split_probe(data: DataDir, every: int = 4) -> tuple[list[str], list[str]]:
    """Per speaker, every `every`-th utterance (sorted ids) goes to the probe test set; speakers with a single
    utterance stay in training only."""
    train, test = [], []
    for spk, utts in data.spk2utt.items():
        utts = sorted(utts, key=kaldi_sort_key)
        for i, u in enumerate(utts):
            (test if len(utts) > 1 and i % every == every - 1 else train).append(u)
    if not test:
        raise ValueError(f"{data.path}: no speaker with two or more utterances for the probe test set")
    return train, test


def probe_accuracy(xtr: np.ndarray, ytr: list[str], xte: np.ndarray, yte: list[str], seed: int = 0,
                   steps: int = 300, weight_decay: float = 1e-3) -> float:
    """Closed-set accuracy (%) of a logistic-regression speaker classifier trained on (xtr, ytr)."""
    import torch
    classes = sorted(set(ytr))
    idx = {c: i for i, c in enumerate(classes)}
    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    g = torch.Generator().manual_seed(seed)
    xt = torch.tensor((xtr - mu) / sd, dtype=torch.float32)
    yt = torch.tensor([idx[c] for c in ytr])
    lin = torch.nn.Linear(xt.shape[1], len(classes))
    with torch.no_grad():
        lin.weight.copy_(torch.randn(lin.weight.shape, generator=g) * 0.01)
        lin.bias.zero_()
    opt = torch.optim.Adam(lin.parameters(), lr=0.01, weight_decay=weight_decay)
    for _ in range(steps):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(lin(xt), yt).backward()
        opt.step()
    with torch.no_grad():
        pred = lin(torch.tensor((xte - mu) / sd, dtype=torch.float32)).argmax(-1).numpy()
    return 100.0 * float(np.mean([classes[p] == y for p, y in zip(pred, yte)]))


def _eer(tar, non) -> float:
    try:
        from pydeid.attack.metrics import eer
        return 100.0 * eer(tar, non)[0]
    except ImportError:  # pragma: no cover - the attack package is part of pydeid
        raise


def verification_eer(center: np.ndarray, enroll: DataDir, xen: dict[str, np.ndarray],
                     trial: DataDir, xtr: dict[str, np.ndarray], trials: list[tuple[str, str, str]]) -> dict:
    """EER (%) pooled and per gender of the enrolment speaker, cosine scoring of centred summaries."""
    def norm(v):
        v = v - center
        return v / (np.linalg.norm(v) + 1e-12)
    models = {}
    for spk, utts in enroll.spk2utt.items():
        m = np.mean([norm(xen[u]) for u in utts], axis=0)
        models[spk] = m / (np.linalg.norm(m) + 1e-12)
    scores = {"pooled": ([], [])}
    for spk, utt, lab in trials:
        s = float(models[spk] @ norm(xtr[utt]))
        g = enroll.spk2gender.get(spk) if enroll.spk2gender else None
        for key in ("pooled", {"m": "male", "f": "female"}.get(g or "", None)):
            if key is None:
                continue
            scores.setdefault(key, ([], []))[0 if lab == "target" else 1].append(s)
    return {k: (_eer(t, n) if t and n else None) for k, (t, n) in scores.items()}


def speaker_info_table(models: list[tuple[str, str]], probe_data, enroll_data, trial_data,
                       trials_file=None, decode_name: str | None = None, every: int = 4) -> tuple[list, list]:
    """Seed 004 table 1: columns Filterbank + one per (label, exp_dir); rows WER, ACC, EER pooled/male/female.
    WER comes from <exp_dir>/<decode_name>/scoring/results.json when decode_name is given and scored."""
    import json

    from pydeid.attack.trials import read_trials
    probe, enroll, trial = DataDir.read(probe_data), DataDir.read(enroll_data), DataDir.read(trial_data)
    trials = read_trials(trials_file or Path(trial_data) / "trials")
    ptr, pte = split_probe(probe)
    en_utts, tr_utts = enroll.utts, sorted({u for _, u, _ in trials}, key=kaldi_sort_key)
    columns, cells = [], []
    for i, (label, exp) in enumerate(models):
        model = load_model(exp)
        kinds = (["filterbank"] if i == 0 else []) + ["encoder"]
        for kind in kinds:
            x_ptr = summaries(model, probe, ptr, kind)
            x_pte = summaries(model, probe, pte, kind)
            x_en = dict(zip(en_utts, summaries(model, enroll, en_utts, kind)))
            x_tr = dict(zip(tr_utts, summaries(model, trial, tr_utts, kind)))
            acc = probe_accuracy(x_ptr, [probe.utt2spk[u] for u in ptr], x_pte, [probe.utt2spk[u] for u in pte])
            eers = verification_eer(x_ptr.mean(0), enroll, x_en, trial, x_tr, trials)
            wer = None
            if kind == "encoder" and decode_name:
                rj = Path(exp) / decode_name / "scoring" / "results.json"
                if rj.exists():
                    wer = json.loads(rj.read_text())["all"]["wer"]
                else:
                    log.warning("%s: not scored, WER left empty", rj.parent.parent)
            columns.append("Filterbank" if kind == "filterbank" else label)
            cells.append([wer, acc, eers.get("pooled"), eers.get("male"), eers.get("female")])
            log.info("%s: WER %s ACC %.1f EER %s", columns[-1], wer, acc, eers)
    rows = [[name] + [c[j] for c in cells] for j, name in
            enumerate(["WER", "ACC", "EER Pooled", "EER Male", "EER Female"])]
    return columns, rows
