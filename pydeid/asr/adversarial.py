"""Speaker-adversarial CTC/attention ASR (seed 004 section 3.2.1, Srivastava et al. 2019) as an ESPnet extension.

A speaker branch reads the pooled encoder output phi(X) (mean and standard deviation over frames) through a
gradient reversal layer and classifies the training speakers. The branch minimises L_spk; the reversal layer
multiplies the gradient reaching the encoder by -alpha, so the encoder minimises L_asr - alpha * L_spk.
alpha = 0 trains the branch as a passive probe and leaves the encoder exactly as the baseline's.

Speaker labels are an extra ESPnet data input named `spk` (a `text_int` file: `<utt> <speaker-index>`, -1 for
speakers outside the training set, which the loss ignores). `SpeakerAdversarialASRTask` is ASRTask plus that
data name; importing this module registers the model class under `--model espnet_spk_adv`, so configs written
by training load in any pydeid process (pydeid.asr.decode imports this module before ESPnet builds a model).

Run directly like espnet2.bin.asr_train:  python -m pydeid.asr.adversarial --model espnet_spk_adv ...
"""

from __future__ import annotations

import torch
from espnet2.asr.espnet_model import ESPnetASRModel
from espnet2.tasks.asr import ASRTask, model_choices

MODEL_NAME = "espnet_spk_adv"


class _GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


def grad_reverse(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return _GradReverse.apply(x, alpha)


def stats_pool(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """(B, T, D) padded frames -> (B, 2D) mean and standard deviation over the valid frames."""
    mask = (torch.arange(x.size(1), device=x.device)[None, :] < lengths[:, None]).unsqueeze(-1).to(x.dtype)
    n = mask.sum(1).clamp(min=1.0)
    mean = (x * mask).sum(1) / n
    var = (((x - mean.unsqueeze(1)) ** 2) * mask).sum(1) / n
    return torch.cat([mean, var.clamp(min=1e-8).sqrt()], dim=-1)


class SpeakerAdversarialASRModel(ESPnetASRModel):
    def __init__(self, *args, num_speakers: int = 1, adv_alpha: float = 0.0, adv_hidden: int = 256, **kwargs):
        super().__init__(*args, **kwargs)
        self.adv_alpha = float(adv_alpha)
        d = self.encoder.output_size() if self.encoder is not None else 0
        self.speaker_branch = torch.nn.Sequential(
            torch.nn.Linear(2 * d, adv_hidden), torch.nn.ReLU(), torch.nn.Linear(adv_hidden, num_speakers))
        self._capture = False  # encode() keeps its output only inside forward()
        self._enc = None

    def encode(self, speech, speech_lengths):
        out, lens = super().encode(speech, speech_lengths)
        if self._capture:
            self._enc = (out[0] if isinstance(out, tuple) else out, lens)
        return out, lens

    def forward(self, speech, speech_lengths, text, text_lengths, **kwargs):
        spk = kwargs.pop("spk", None)
        kwargs.pop("spk_lengths", None)
        self._capture, self._enc = True, None
        try:
            loss, stats, weight = super().forward(speech, speech_lengths, text, text_lengths, **kwargs)
        finally:
            self._capture = False
        enc, lens = self._enc
        self._enc = None
        if spk is None:
            return loss, stats, weight
        labels = spk.view(spk.size(0), -1)[:, 0].long()
        logits = self.speaker_branch(grad_reverse(stats_pool(enc, lens), self.adv_alpha))
        known = labels >= 0
        if known.any():
            loss_spk = torch.nn.functional.cross_entropy(logits[known], labels[known])
            acc_spk = (logits[known].argmax(-1) == labels[known]).float().mean()
            loss = loss + loss_spk
            stats["loss_spk"] = loss_spk.detach()
            stats["acc_spk"] = acc_spk.detach()
            stats["loss"] = loss.detach()
        else:  # validation speakers are unseen: nothing to classify
            stats["loss_spk"] = None
            stats["acc_spk"] = None
        return loss, stats, weight


model_choices.classes[MODEL_NAME] = SpeakerAdversarialASRModel


class SpeakerAdversarialASRTask(ASRTask):
    @classmethod
    def optional_data_names(cls, train: bool = True, inference: bool = False):
        return tuple(super().optional_data_names(train, inference)) + ("spk",)


def run_adversarial_train(argv: list[str]) -> None:
    import logging
    import shlex
    argv = [str(a) for a in argv]
    logging.getLogger(__name__).info("running: python -m pydeid.asr.adversarial %s", shlex.join(argv))
    SpeakerAdversarialASRTask.main(cmd=argv)


if __name__ == "__main__":
    SpeakerAdversarialASRTask.main()
