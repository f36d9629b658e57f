#!/usr/bin/env bash
# Download and unpack one LibriSpeech part from openslr.org (resource 12), as Kaldi's script of the same name.
#   local/librispeech/download_and_untar.sh <download-dir> <url-base> <part>
# e.g. local/librispeech/download_and_untar.sh /export/corpora https://www.openslr.org/resources/12 dev-clean
# Leaves <download-dir>/LibriSpeech/<part>/ and a marker <download-dir>/LibriSpeech/<part>/.complete; does nothing
# when the marker exists. Needs network: run.sh calls it only with --download true (never in tests).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "Usage: $0 <download-dir> <url-base> <part>" >&2; exit 1
fi
dir=$1; url=$2; part=$3
case "$part" in
  dev-clean|test-clean|dev-other|test-other|train-clean-100|train-clean-360|train-other-500) ;;
  *) echo "$0: unknown LibriSpeech part '$part'" >&2; exit 1 ;;
esac
mkdir -p "$dir"
if [ -f "$dir/LibriSpeech/$part/.complete" ]; then
  echo "$0: $part already downloaded and unpacked in $dir"; exit 0
fi
tarball="$dir/$part.tar.gz"
if [ ! -s "$tarball" ] || ! gzip -t "$tarball" 2>/dev/null; then
  echo "$0: downloading $url/$part.tar.gz"
  if command -v wget >/dev/null; then
    wget --no-check-certificate -c -O "$tarball.part" "$url/$part.tar.gz"
  else
    curl -fL -C - -o "$tarball.part" "$url/$part.tar.gz"
  fi
  mv "$tarball.part" "$tarball"
fi
tar -C "$dir" -xzf "$tarball"
touch "$dir/LibriSpeech/$part/.complete"
echo "$0: unpacked $part into $dir/LibriSpeech"
