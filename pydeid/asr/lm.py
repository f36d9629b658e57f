"""Token-level language model for ASR decoding (espnet2.bin.lm_train), trained on an ASR exp dir's transcripts.

The LM shares the ASR model's token list (and sentencepiece model) and reads the ASR exp dir's normalised
training and validation text (<asr-exp>/data/{train,valid}/text), so in the learning-branch experiment a model
trained on the neutral corpus gets an LM of the neutral transcripts only. Decoding adds it with --lm-exp.

Layout of <lm-exp> (ESPnet's): config.yaml, checkpoints, valid.loss.best.pth, plus
  shapes/{train,valid}.shape   token-length files ESPnet's sampler needs
  asr_exp                      the ASR exp dir whose tokens it uses (checked when decoding)
  train_summary.json           epochs, validation loss and perplexity per epoch
"""

from __future__ import annotations

import json
import logging
import math
import time
from pathlib import Path

from pydeid.io import atomic_write_text, read_kaldi_map

from .espnet_run import EpochLog, run_espnet, valid_metric

log = logging.getLogger(__name__)


def _shape_file(text: Path, out: Path) -> None:
    # ESPnet folds batches by length; characters are an upper bound of the token count for char and bpe
    rows = read_kaldi_map(text, require_value=False, check_sorted=False)
    atomic_write_text(out, "".join(f"{u} {max(1, len(t))}\n" for u, t in rows.items()))


def train_lm(asr_exp, lm_exp, config, ngpu: int = 0, seed: int = 0, max_epoch: int | None = None) -> Path:
    """Train an ESPnet LM on the transcripts of asr_exp into lm_exp (resumes an interrupted run)."""
    import yaml
    asr = Path(asr_exp).resolve()
    out = Path(lm_exp).resolve()
    config = Path(config).resolve()
    asr_cfg_file = asr / "config.yaml"
    texts = {s: asr / "data" / s / "text" for s in ("train", "valid")}
    for f in [asr_cfg_file, *texts.values()]:
        if not f.exists():
            raise FileNotFoundError(f"{f}: missing (train the ASR model with steps/train_asr.sh first)")
    asr_cfg = yaml.safe_load(asr_cfg_file.read_text())
    out.mkdir(parents=True, exist_ok=True)
    shapes = out / "shapes"
    shapes.mkdir(exist_ok=True)
    for s, t in texts.items():
        _shape_file(t, shapes / f"{s}.shape")
    atomic_write_text(out / "asr_exp", f"{asr}\n")
    opts = ["--config", config, "--ngpu", ngpu, "--seed", seed, "--use_preprocessor", "true",
            "--token_type", asr_cfg["token_type"], "--token_list", asr / "tokens" / "tokens.txt",
            "--non_linguistic_symbols", "none", "--cleaner", "none", "--g2p", "none",
            "--train_data_path_and_name_and_type", f"{texts['train']},text,text",
            "--valid_data_path_and_name_and_type", f"{texts['valid']},text,text",
            "--train_shape_file", shapes / "train.shape", "--valid_shape_file", shapes / "valid.shape",
            "--fold_length", "150", "--resume", "true", "--output_dir", out]
    if asr_cfg.get("bpemodel"):
        opts += ["--bpemodel", asr_cfg["bpemodel"]]
    if max_epoch is not None:
        opts += ["--max_epoch", max_epoch]
    handler = EpochLog()
    logging.getLogger().addHandler(handler)
    t0 = time.time()
    try:
        run_espnet("lm_train", opts)
    finally:
        logging.getLogger().removeHandler(handler)
    summ_path = out / "train_summary.json"
    old = json.loads(summ_path.read_text())["epochs"] if summ_path.exists() else []
    new = []
    for e in handler.epochs:
        loss = valid_metric(e["results"], "loss")  # mean negative log-likelihood per token (nats)
        if loss is not None:
            new.append({"epoch": e["epoch"], "valid_loss": loss, "valid_ppl": round(math.exp(loss), 3)})
    done = {e["epoch"] for e in new}
    epochs = sorted([e for e in old if e["epoch"] not in done] + new, key=lambda e: e["epoch"])
    summ = {"config": str(config), "asr_exp": str(asr), "epochs": epochs, "num_epochs": len(epochs),
            "best_valid_ppl": min((e["valid_ppl"] for e in epochs), default=None),
            "last_call_wall_seconds": round(time.time() - t0, 1)}
    atomic_write_text(summ_path, json.dumps(summ, indent=1) + "\n")
    return out


def check_lm_matches(asr_exp, lm_exp) -> Path:
    """The LM's best checkpoint; refuses an LM whose token list differs from the ASR model's."""
    asr, lm = Path(asr_exp), Path(lm_exp)
    model = lm / "valid.loss.best.pth"
    for f in (lm / "config.yaml", model):
        if not f.exists():
            raise FileNotFoundError(f"{f}: missing (train the LM with steps/train_lm.sh first)")
    import yaml
    lm_tokens = yaml.safe_load((lm / "config.yaml").read_text())["token_list"]
    asr_tokens = yaml.safe_load((asr / "config.yaml").read_text())["token_list"]
    if list(lm_tokens) != list(asr_tokens):
        raise ValueError(f"{lm}: its token list differs from the one of {asr} (train the LM on that ASR exp dir)")
    return model
