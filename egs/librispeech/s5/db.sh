# Corpus locations (the ESPnet db.sh convention): edit here or export before running ./run.sh.
# LIBRISPEECH: the folder holding SPEAKERS.TXT and the subset folders (<root>/LibriSpeech/ is also accepted);
# with ./run.sh --download true the parts are downloaded into it from openslr.org (resource 12).
LIBRISPEECH=${LIBRISPEECH:-downloads}
# A 3-speaker real sample used by CI (subset dev-clean-2), read in place:
LIBRISPEECH_MINI=${LIBRISPEECH_MINI:-../../../../shared/data/librispeech_mini}
