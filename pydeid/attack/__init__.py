"""pydeid.attack: privacy evaluation by speaker-verification attackers.

x-vector / ECAPA-TDNN training and extraction (speechbrain, kaldiio ark/scp), enrollment/trial lists, cosine and
PLDA scoring, EER / minDCF / linkability / closed-set accuracy / pitch correlation, and the attacker
scenarios of seed 004 section 4.1.2 and the VoicePrivacy Challenge (pydeid.attack.scenarios). Never imports pydeid.voice: the
transformed data dirs it attacks are made by steps/transform_voice.sh.
"""

from .metrics import closed_set_accuracy, det_points, eer, linkability, min_dcf
from .trials import check_trials, make_trials, read_trials, write_trials

__all__ = ["eer", "min_dcf", "linkability", "det_points", "closed_set_accuracy", "make_trials", "check_trials",
           "read_trials", "write_trials"]
