"""The on-disk lexicon cache: built once, read back by a later call; another builder version builds again."""

from pydeid.text import lexicon_cache


def test_cached_builds_once_then_reads(tmp_path, monkeypatch):
    monkeypatch.setenv("PYDEID_CACHE", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {("the", "hague"): 500000}
    assert lexicon_cache.cached("t", 1, ("pycountry",), build) == {("the", "hague"): 500000}
    assert lexicon_cache.cached("t", 1, ("pycountry",), build) == {("the", "hague"): 500000}
    assert len(calls) == 1 and len(list(tmp_path.glob("t-*.pickle"))) == 1
    lexicon_cache.cached("t", 2, ("pycountry",), build)          # a new builder never reads the old table
    assert len(calls) == 2


def test_an_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    f = tmp_path / "file"
    f.write_text("")
    monkeypatch.setenv("PYDEID_CACHE", str(f / "sub"))             # under a file: cannot be created
    assert lexicon_cache.cached("t", 1, (), lambda: 7) == 7
