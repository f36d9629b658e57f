# Corpus locations (the ESPnet db.sh convention): edit here or export before running ./run.sh.
# SPEECHOCEAN: the speechocean762 root (WAVE/, train/, test/), as distributed (.WAV) or the subset of ../shared/data
# (.flac). VCTK_SUBSET: the 13-speaker VCTK sample (the VCTK utility table, --attacker-extra-data vctk).
# Both default to ../shared/data beside the repository, or $PYDEID_SHARED_DATA when set.
SPEECHOCEAN=${SPEECHOCEAN:-${PYDEID_SHARED_DATA:-../../../../shared/data}/speechocean762_adults}
VCTK_SUBSET=${VCTK_SUBSET:-${PYDEID_SHARED_DATA:-../../../../shared/data}/vctk_subset}
