"""Start-up of a detection process: `pydeid <command>` imports that command's module only, spaCy comes without its
command line tools, Faker's lists come from the on-disk cache; none of it changes what is detected. And the
contraction rule holds through the whole tag-entities path (dialogue context included) on a conversation."""

from __future__ import annotations

import subprocess
import sys


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_one_command_imports_one_command_module():
    from pydeid.cli import _named_command
    assert list(_named_command(["--log-level", "WARNING", "tag-entities", "d", "o"])) == ["tag-entities"]
    assert list(_named_command(["--debug", "validate-data-dir", "d"])) == ["validate-data-dir"]
    # help, a typo, a module whose name is no command: the whole parser answers (and names the choices)
    for argv in ([], ["--help"], ["tag-entitis", "d"], ["_types"], ["-x", "tag-entities"]):
        assert _named_command(argv) is None, argv
    out = _fresh("import sys; from pydeid.cli import build_parser, _named_command; "
                 "build_parser(_named_command(['validate-data-dir', 'd'])); "
                 "print(sorted(m for m in sys.modules if m.startswith('pydeid.cli.') and m != 'pydeid.cli._types'))")
    assert out == "['pydeid.cli.validate_data_dir']"


def test_spacy_is_imported_without_its_command_line_tools_and_they_still_load():
    out = _fresh("import sys; from pydeid.text.spacy_ner import import_spacy; sp = import_spacy(); "
                 "print('spacy.cli' in sys.modules, 'typer' in sys.modules, hasattr(sp, 'cli')); "
                 "import spacy.cli; print(spacy.cli.__file__.endswith('__init__.py'), callable(sp.info))")
    assert out.splitlines() == ["False False False", "True True"]


def test_faker_lists_from_the_cache_equal_faker_s(tmp_path, monkeypatch):
    from pydeid.text import gazetteer
    monkeypatch.setenv("PYDEID_CACHE", str(tmp_path))
    gazetteer._faker_lists.cache_clear()
    try:
        built = gazetteer._faker_lists()                     # builds and writes the cache
        gazetteer._faker_lists.cache_clear()
        assert list(tmp_path.glob("faker-names-*.pickle"))
        assert gazetteer._faker_lists() == built             # read back
    finally:
        gazetteer._faker_lists.cache_clear()
    from faker.providers.person.en_US import Provider as US
    assert set(US.first_names_male) <= set(built["usual"]) and "clarice" in {x.lower() for x in built["first"]}
    assert "smith" in {x.lower() for x in built["last"]} and len(built["lorem"]) > 900


def test_contractions_never_tagged_in_a_conversation_through_tag_entities(tmp_path, default_detection):
    from pydeid.cli import main
    from pydeid.io.conll import read_conll
    d = tmp_path / "conv"
    d.mkdir()
    turns = {"a-d1-t1": "hi it's john smith we're calling about the order you've placed",
             "b-d1-t2": "oh right we can't find it john so we're gonna call boston tomorrow",
             "a-d1-t3": "you've got my number it's four one five two two three nine eight seven six",
             "b-d1-t4": "great john i'm gonna text you we'll be there they've said so"}   # one dialogue, d1
    (d / "text").write_text("".join(f"{u} {turns[u]}\n" for u in sorted(turns)))
    (d / "utt2spk").write_text("".join(f"{u} {u.split('-')[0]}\n" for u in sorted(turns)))
    assert main(["tag-entities", str(d), str(tmp_path / "tags.conll")]) == 0
    tagged = {(s.id, t) for s in read_conll(tmp_path / "tags.conll") for t, g in zip(s.tokens, s.tags) if g != "O"}
    words = {t for _, t in tagged}
    assert not words & {"we're", "you've", "can't", "gonna", "it's", "i'm", "we'll", "they've"}, sorted(tagged)
    # the rule costs no name: john (and his later mentions), boston, the number read out are still tagged
    assert {"john", "smith", "boston", "tomorrow", "four", "six"} <= words, sorted(tagged)
