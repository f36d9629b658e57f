# Corpus locations (the ESPnet db.sh convention): edit here or export before running ./run.sh.
# SPEECHOCEAN: the speechocean762 root (WAVE/, train/, test/), as distributed (.WAV) or the subset of ../shared/data
# (.flac). VCTK_SUBSET: the 13-speaker VCTK sample (pocketsphinx validation, bench/).
SPEECHOCEAN=${SPEECHOCEAN:-../../../../shared/data/speechocean762_adults}
VCTK_SUBSET=${VCTK_SUBSET:-../../../../shared/data/vctk_subset}
