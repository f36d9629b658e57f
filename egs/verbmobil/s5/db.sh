# Corpus locations (the ESPnet db.sh convention): edit here or export before running ./run.sh.
# VERBMOBIL: one or more folders (space-separated) holding the BAS-edition volumes of the English dialogues:
# VerbMobil I CDs 6, 8, 13 and VerbMobil II CDs 23, 28, 31, 32, 42, 43, 47, 50, 51, 52, 55, 56 (e.g. VM6.1/ ...,
# or the CLARIN layout <dialogue>/<turn>.{par,wav}). The corpus is licensed by BAS; it is never downloaded here.
VERBMOBIL=${VERBMOBIL:-}
