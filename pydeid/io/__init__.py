"""pydeid.io: Kaldi data dirs, wav.scp audio, CTM, CoNLL, atomic writes, secrets. Imports no other pydeid
subpackage."""

from .atomic import atomic_write, atomic_write_bytes, atomic_write_text
from .audio import AudioError, audio_duration, read_audio, resample, spec_kind, write_audio
from .conll import ENTITY_TYPES, Sentence, bio_to_spans, read_conll, write_conll
from .ctm import CtmEntry, ctm_by_utt, read_ctm, write_ctm
from .datadir import (DataDir, Segment, check_data_audio, parse_segments, validate_data_dir, write_data_dir,
                      write_datadir_atomic)
from .errors import FormatError, UsageError
from .kaldi_map import (kaldi_sort_key, read_kaldi_map, spk2utt_to_utt2spk, utt2spk_to_spk2utt,
                        write_kaldi_map)
from .secrets import SecretPlacementError, check_secret_path, secret_path_for, read_secret_json, write_secret_json, write_secret_text

__all__ = [n for n in dir() if not n.startswith("_")]
