"""The speaker-adversarial branch: gradient reversal, speaker loss, alpha = 0 leaves the encoder untouched."""

import pytest

torch = pytest.importorskip("torch")


def _build(tmp_path, alpha, ctc_only=False):
    from pydeid.asr.adversarial import SpeakerAdversarialASRTask
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("<blank>\n<unk>\na\nb\n<space>\n<sos/eos>\n")
    args = SpeakerAdversarialASRTask.get_parser().parse_args([
        "--token_list", str(tokens), "--model", "espnet_spk_adv", "--input_size", "8",
        "--model_conf", "num_speakers=3", "--model_conf", f"adv_alpha={alpha}", "--model_conf", "adv_hidden=8",
        "--encoder", "transformer", "--encoder_conf", "output_size=16", "--encoder_conf", "num_blocks=1",
        "--encoder_conf", "linear_units=16", "--encoder_conf", "input_layer=linear",
        "--encoder_conf", "dropout_rate=0.0", "--encoder_conf", "positional_dropout_rate=0.0",
        "--encoder_conf", "attention_dropout_rate=0.0",
        "--decoder", "transformer", "--decoder_conf", "num_blocks=1", "--decoder_conf", "linear_units=16",
        "--decoder_conf", "dropout_rate=0.0", "--decoder_conf", "positional_dropout_rate=0.0",
        "--decoder_conf", "self_attention_dropout_rate=0.0", "--decoder_conf", "src_attention_dropout_rate=0.0",
        "--normalize", "none", "--specaug", "none", *(["--model_conf", "ctc_weight=1.0"] if ctc_only else [])])
    torch.manual_seed(0)
    return SpeakerAdversarialASRTask.build_model(args)


def _batch():
    g = torch.Generator().manual_seed(1)
    return dict(speech=torch.randn(3, 20, 8, generator=g), speech_lengths=torch.tensor([20, 17, 12]),
                text=torch.tensor([[2, 3, 4], [3, 2, -1], [2, -1, -1]]), text_lengths=torch.tensor([3, 2, 1]))


def _encoder_grads(model, **batch):
    model.zero_grad()
    loss, stats, _ = model(**batch)
    loss.backward()
    return [p.grad.clone() for p in model.encoder.parameters()], stats


def test_grad_reverse_scales_and_flips():
    from pydeid.asr.adversarial import grad_reverse
    x = torch.ones(3, requires_grad=True)
    grad_reverse(x, 2.0).sum().backward()
    assert torch.equal(x.grad, torch.full((3,), -2.0))


def test_alpha_zero_keeps_baseline_encoder_gradients(tmp_path):
    model = _build(tmp_path, 0.0)
    base, stats0 = _encoder_grads(model, **_batch())
    assert "loss_spk" not in stats0
    spk = torch.tensor([[0], [2], [-1]])
    adv, stats = _encoder_grads(model, **_batch(), spk=spk, spk_lengths=torch.ones(3, dtype=torch.long))
    assert float(stats["loss_spk"]) > 0 and 0.0 <= float(stats["acc_spk"]) <= 1.0
    assert all(torch.allclose(a, b) for a, b in zip(base, adv))
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in model.speaker_branch.parameters())


def test_positive_alpha_pushes_encoder_against_the_speaker_classifier(tmp_path):
    spk = torch.tensor([[0], [2], [1]])
    lens = torch.ones(3, dtype=torch.long)
    m0, m2 = _build(tmp_path, 0.0), _build(tmp_path, 2.0)
    m2.load_state_dict(m0.state_dict())
    g0, _ = _encoder_grads(m0, **_batch(), spk=spk, spk_lengths=lens)
    g2, _ = _encoder_grads(m2, **_batch(), spk=spk, spk_lengths=lens)
    # the difference is exactly -2 x the speaker loss gradient w.r.t. the encoder
    m0.zero_grad()
    from pydeid.asr.adversarial import stats_pool
    enc, elen = m0.encode(_batch()["speech"], _batch()["speech_lengths"])
    torch.nn.functional.cross_entropy(m0.speaker_branch(stats_pool(enc, elen)), spk[:, 0]).backward()
    gs = [p.grad for p in m0.encoder.parameters()]
    assert any(d.abs().sum() > 0 for d in gs)
    assert all(torch.allclose(b - a, -2.0 * s, atol=1e-5) for a, b, s in zip(g0, g2, gs))


def test_ctc_only_model_has_the_speaker_branch(tmp_path):
    """The small tier is CTC-only (no attention decoder): the adversarial branch works the same there."""
    model = _build(tmp_path, 0.5, ctc_only=True)
    assert model.decoder is None
    spk = torch.tensor([[0], [2], [1]])
    grads, stats = _encoder_grads(model, **_batch(), spk=spk, spk_lengths=torch.ones(3, dtype=torch.long))
    assert float(stats["loss_spk"]) > 0 and stats.get("loss_att") is None
    assert any(g.abs().sum() > 0 for g in grads)
