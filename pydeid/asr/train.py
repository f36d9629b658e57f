"""ASR training with ESPnet: data preparation, token list, feature statistics, training (one process).

Layout of <exp-dir> (the ESPnet way, plus pydeid's small additions):
  config.yaml, checkpoint.pth, <N>epoch.pth, <criterion>.best.pth, images/ (use_matplotlib) written by espnet2 asr_train
  textnorm.json          text normalisation used for the targets (re-applied when decoding and scoring)
  decode.yaml            the tier's decoding defaults (beam_size, ctc_weight) from conf/asr/<tier>_decode.yaml
  data/{train,valid}/    ESPnet-ready wav.scp/text (see prep.py), spk for the adversarial model
  tokens/                token list (and sentencepiece model for --token-type bpe)
  stats/                 collect-stats output: feats_stats.npz (global MVN), shape files
  train_summary.json     epochs, wall time per epoch, best validation accuracy
  RESULTS.md             training section, decoding sections appended by steps/score.sh
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import yaml

from pydeid.io import atomic_write_text, read_kaldi_map
from pydeid.report import markdown_table, update_results_section

from .espnet_run import EpochLog, run_espnet, valid_metric
from .prep import prepare_asr_data, write_speaker_ids
from .textnorm import TextNorm

log = logging.getLogger(__name__)

ADV_MODEL = "espnet_spk_adv"


def build_token_list(train_text: Path, outdir: Path, token_type: str, nbpe: int) -> tuple[Path, Path | None]:
    outdir.mkdir(parents=True, exist_ok=True)
    token_list = outdir / "tokens.txt"
    bpemodel = None
    if token_type == "bpe":
        bpemodel = outdir / "bpe.model"
        if not bpemodel.exists():
            plain = outdir / "train.txt"
            lines = [ln.split(" ", 1)[1] if " " in ln else "" for ln in train_text.read_text().splitlines()]
            atomic_write_text(plain, "\n".join(lines) + "\n")
            # what ESPnet recipes run as spm_train (no espnet2.bin entry point in this ESPnet): sentencepiece's own
            # trainer, one thread for identical models run to run; written under a temp prefix, then moved
            import sentencepiece as spm
            spm.SentencePieceTrainer.train(input=str(plain), vocab_size=nbpe, model_type="unigram",
                                           model_prefix=str(outdir / "bpe.tmp"), character_coverage=1.0,
                                           input_sentence_size=100000000, num_threads=1, minloglevel=1)
            os.replace(outdir / "bpe.tmp.vocab", outdir / "bpe.vocab")
            os.replace(outdir / "bpe.tmp.model", bpemodel)
    elif token_type != "char":
        raise ValueError(f"token type must be char or bpe, not {token_type!r}")
    if not token_list.exists():
        tmp = outdir / "tokens.txt.tmp"
        args = ["--token_type", token_type, "--input", train_text, "--output", tmp, "--field", "2-",
                "--cleaner", "none", "--write_vocabulary", "true",
                "--add_symbol", "<blank>:0", "--add_symbol", "<unk>:1", "--add_symbol", "<sos/eos>:-1"]
        if bpemodel:
            args += ["--bpemodel", bpemodel]
        run_espnet("tokenize_text", args)
        os.replace(tmp, token_list)
    return token_list, bpemodel


def train_asr(train_data, valid_data, exp_dir, config, token_type: str = "char", nbpe: int = 100,
              ngpu: int = 0, seed: int = 0, case: str = "lower", strip_punct: bool = True,
              adv_alpha: float | None = None, adv_hidden: int = 256, num_workers: int = 0,
              max_epoch: int | None = None, extra_args: list[str] | None = None) -> Path:
    """Train an ESPnet ASR model into exp_dir (resumes an interrupted run). Returns exp_dir."""
    exp = Path(exp_dir).resolve()
    exp.mkdir(parents=True, exist_ok=True)
    config = Path(config).resolve()
    cfg = yaml.safe_load(config.read_text())
    if "normalize" in cfg:
        raise ValueError(f"{config}: remove the `normalize:` key (global MVN is added after collect-stats)")
    norm = TextNorm(case, strip_punct)
    norm.save(exp / "textnorm.json")
    decode_defaults = config.with_name(config.stem + "_decode.yaml")  # conf/asr/<tier>_decode.yaml
    if decode_defaults.exists():
        atomic_write_text(exp / "decode.yaml", decode_defaults.read_text())

    tr = prepare_asr_data(train_data, exp / "data" / "train", norm)
    va = prepare_asr_data(valid_data, exp / "data" / "valid", norm)
    token_list, bpemodel = build_token_list(tr / "text", exp / "tokens", token_type, nbpe)

    task_module = "asr_train"
    common = ["--use_preprocessor", "true", "--token_type", token_type, "--token_list", token_list,
              "--non_linguistic_symbols", "none", "--cleaner", "none", "--g2p", "none",
              "--ngpu", ngpu, "--num_workers", num_workers, "--seed", seed, "--config", config]
    if bpemodel:
        common += ["--bpemodel", bpemodel]
    data = ["--train_data_path_and_name_and_type", f"{tr}/wav.scp,speech,sound",
            "--train_data_path_and_name_and_type", f"{tr}/text,text,text",
            "--valid_data_path_and_name_and_type", f"{va}/wav.scp,speech,sound",
            "--valid_data_path_and_name_and_type", f"{va}/text,text,text"]

    stats = exp / "stats"
    if not (stats / "train" / "feats_stats.npz").exists():
        tmp = exp / "stats.tmp"
        run_espnet(task_module, common + data + ["--collect_stats", "true", "--train_shape_file", tr / "wav.scp",
                                                 "--valid_shape_file", va / "wav.scp", "--output_dir", tmp])
        if stats.exists():
            import shutil
            shutil.rmtree(stats)
        os.replace(tmp, stats)

    opts = common + data + [
        "--train_shape_file", stats / "train" / "speech_shape", "--train_shape_file", stats / "train" / "text_shape",
        "--valid_shape_file", stats / "valid" / "speech_shape", "--valid_shape_file", stats / "valid" / "text_shape",
        "--fold_length", "80000", "--fold_length", "150",
        "--normalize", "global_mvn", "--normalize_conf", f"stats_file={stats / 'train' / 'feats_stats.npz'}",
        "--resume", "true", "--output_dir", exp]
    if max_epoch is not None:
        opts += ["--max_epoch", max_epoch]
    if adv_alpha is not None:
        # speaker-adversarial branch: integer speaker labels as an extra data input (see adversarial.py)
        speakers = sorted(set(read_kaldi_map(tr / "utt2spk").values()))
        spk2id = {s: i for i, s in enumerate(speakers)}
        atomic_write_text(exp / "spk2id", "".join(f"{s} {i}\n" for s, i in spk2id.items()))
        write_speaker_ids(tr, spk2id)
        write_speaker_ids(va, spk2id)
        task_module = "pydeid.asr.adversarial"
        opts += ["--model", ADV_MODEL, "--model_conf", f"adv_alpha={adv_alpha}",
                 "--model_conf", f"num_speakers={len(speakers)}", "--model_conf", f"adv_hidden={adv_hidden}",
                 "--train_data_path_and_name_and_type", f"{tr}/spk,spk,text_int",
                 "--valid_data_path_and_name_and_type", f"{va}/spk,spk,text_int"]
    opts += list(extra_args or [])

    timer = EpochLog()
    logging.getLogger().addHandler(timer)
    t0 = time.time()
    try:
        if task_module == "asr_train":
            run_espnet("asr_train", opts)
        else:
            from .adversarial import run_adversarial_train
            run_adversarial_train(opts)
    finally:
        logging.getLogger().removeHandler(timer)
    wall = time.time() - t0
    _write_summary(exp, timer.epochs, wall, config, token_type, adv_alpha)
    return exp


def _write_summary(exp: Path, epochs: list[dict], wall: float, config: Path, token_type: str,
                   adv_alpha: float | None) -> None:
    summ_path = exp / "train_summary.json"
    old = json.loads(summ_path.read_text()) if summ_path.exists() else {"epochs": []}
    done = {e["epoch"] for e in epochs}
    allep = [e for e in old["epochs"] if e["epoch"] not in done] + [
        {"epoch": e["epoch"], "seconds": e["seconds"], "valid_acc": valid_metric(e["results"], "acc"),
         "valid_cer_ctc": valid_metric(e["results"], "cer_ctc")} for e in epochs]
    allep.sort(key=lambda e: e["epoch"])
    accs = [e["valid_acc"] for e in allep if e["valid_acc"] is not None]
    cers = [e["valid_cer_ctc"] for e in allep if e.get("valid_cer_ctc") is not None]
    secs = [e["seconds"] for e in allep]
    summ = {"config": str(config), "token_type": token_type, "adv_alpha": adv_alpha, "epochs": allep,
            "num_epochs": len(allep), "mean_seconds_per_epoch": round(sum(secs) / len(secs), 2) if secs else None,
            "best_valid_acc": max(accs) if accs else None, "best_valid_cer_ctc": min(cers) if cers else None,
            "last_call_wall_seconds": round(wall, 1)}
    atomic_write_text(summ_path, json.dumps(summ, indent=1) + "\n")
    rows = [[Path(config).name, token_type, "-" if adv_alpha is None else adv_alpha, summ["num_epochs"],
             summ["mean_seconds_per_epoch"], summ["best_valid_acc"], summ["best_valid_cer_ctc"]]]
    update_results_section(exp / "RESULTS.md", "asr-train", markdown_table(
        ["config", "tokens", "adv alpha", "epochs", "s/epoch", "best valid acc", "best valid CER (CTC)"], rows,
        ".3f"),
        title=f"Training ({exp.name})")
