# Corpus locations (the ESPnet db.sh convention): edit here or export before running ./run.sh.
# SNIPS: ../shared/data/text_snips (snips_train.conll, snips_valid.conll); SLURP: ../shared/data/text_slurp
# (slurp_devel.conll). PYDEID_SHARED_DATA (the shared data folder) overrides the default location of both.
SHARED=${PYDEID_SHARED_DATA:-../../../../shared/data}
SNIPS=${SNIPS:-$SHARED/text_snips}
SLURP=${SLURP:-$SHARED/text_slurp}
