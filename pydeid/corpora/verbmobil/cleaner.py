"""VerbMobil transliteration markup -> Kaldi text tokens (FORMAT.md section 5.1).

Mapping (markers="keep"; with markers="drop" every <...> token below is removed instead):

    <"ahm> <"ah> <hm> <h"as> <uh> <um> <uhm> <mhm> ...  hesitation / filled pause     -> <hes>
    <A> (breathing), <#...> (<#>, <#Klicken>: noise),
    <Husten> <Schmatzen> <Räuspern> ... <Word>          non-articulatory / non-verbal  -> <noise>
    <Lachen> <laugh>                                    laughter                       -> <laugh>
    <%>  %                                              unintelligible                 -> <unk>
    word=   word=/+   word=/-                           word fragment                  -> <unk>
    <GER> ... </GER> (any non-English stretch)          foreign-language stretch       -> <unk>  (turn flagged)
    <P> (pause), <Z> (lengthening, also attached), <;T> (technical), <!1 variant>, {comment}, [comment],
    +/ /+ -/ /- (repair markers), <: :> (noise over words: inner words kept, inner noise dropped),
    punctuation tokens . , ? ! ; :                      dropped
    *word (neologism)                                   -> word
    $A  $A-$G-$T                                        spelled letters -> a g t  (letters="dotted": A. G. T.)
    "a "o "u "A "O "U "s (LaTeX umlauts)                -> ä ö ü Ä Ö Ü ß  (turn flagged: German-looking)
    ~word                                               -> word (tilde meaning unconfirmed; counted)

Unknown <...> tags are dropped and flagged; a token that is still not word-like becomes <unk> and is flagged.
A turn whose cleaned text has no word left (only markers) is reported as marker-only and dropped by the prep.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

HES, NOISE, LAUGH, UNK = "<hes>", "<noise>", "<laugh>", "<unk>"
MARKERS = (HES, NOISE, LAUGH, UNK)

_HESITATIONS = {"ahm", "ah", "hm", "has", "uh", "um", "uhm", "mhm", "hmm", "mm", "mmm", "uh-huh", "uh-hum",
                "uhhuh", "er", "erm", "eh", "ehm", "äh", "ähm", "öh", "oh", "ohm", "aha", "hes"}
_NOISES = {"a", "atmen", "husten", "räuspern", "schmatzen", "schlucken", "stöhnen", "klicken", "geräusch",
           "niesen", "schnaufen", "seufzen", "pusten", "hüsteln", "noise", "cough", "breath", "breathing",
           "lipsmack", "smack", "click", "sniff", "sigh", "throat", "nib", "spk", "nsn", "sil"}
_LAUGHS = {"lachen", "laugh", "laughter", "lachend"}
_DROP_TAGS = {"p", "z", "pause"}
_LANG_TAGS = ("GER", "DEU", "JAP", "ITA", "FRA", "SPA", "FOR", "ENG")
_UMLAUTS = {'"a': "ä", '"o': "ö", '"u': "ü", '"A': "Ä", '"O': "Ö", '"U': "Ü", '"s': "ß"}

_COMMENT_RE = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
_VARIANT_RE = re.compile(r"<!\d*[^<>]*>")
_LANG_STRETCH_RE = re.compile(r"<(" + "|".join(_LANG_TAGS) + r")>(.*?)</\1>", re.S)
_SIMUL_RE = re.compile(r"<:(.*?):>", re.S)
_TAG_RE = re.compile(r"<[^<>]*>")
_PIECE_RE = re.compile(r"<[^<>]*>|[^\s<>]+|[<>]")
_WORD_RE = re.compile(r"^(?:[A-Za-z0-9äöüÄÖÜß][A-Za-z0-9äöüÄÖÜß'\-\.]*|'[A-Za-z]+)$")


@dataclass
class Cleaned:
    tokens: list[str]
    flags: list[str] = field(default_factory=list)      # reasons to look at this turn (foreign, unknown tags ...)
    counts: Counter = field(default_factory=Counter)     # markup kinds seen, for the prep report

    @property
    def n_words(self) -> int:
        return sum(1 for t in self.tokens if t not in MARKERS)

    @property
    def text(self) -> str:
        return " ".join(self.tokens)


def _deumlaut(s: str) -> str:
    for k, v in _UMLAUTS.items():
        s = s.replace(k, v)
    return s


def _tag_token(inner: str, out: Cleaned) -> str | None:
    """Map the content of one <...> tag; None means drop."""
    raw = inner.strip()
    low = _deumlaut(raw).lower()
    if not raw:
        out.counts["empty-tag"] += 1
        return None
    if raw.startswith('"') or low.replace('"', "") in _HESITATIONS:
        out.counts["hesitation"] += 1
        return HES
    if raw.startswith("#"):
        out.counts["noise"] += 1
        return NOISE
    if low in _LAUGHS:
        out.counts["laugh"] += 1
        return LAUGH
    if low in _NOISES:
        out.counts["noise" if low != "a" else "breathing"] += 1
        return NOISE
    if low in _DROP_TAGS or raw.startswith(";"):
        out.counts["pause/lengthening/technical"] += 1
        return None
    if raw == "%foreign":  # placeholder left by a foreign-language stretch (already counted)
        return UNK
    if raw == "%":
        out.counts["unintelligible"] += 1
        return UNK
    if raw.startswith("!"):
        out.counts["variant"] += 1
        return None
    if re.fullmatch(r'[A-ZÄÖÜ"][a-zäöüß"]+', raw):
        # <Word>: a German noun naming a non-verbal production (FORMAT.md: <Husten> <Lachen> ... <Word>)
        out.counts["nonverbal:" + raw] += 1
        return NOISE
    out.counts["unknown-tag:<" + raw + ">"] += 1
    out.flags.append(f"unknown tag <{raw}> dropped")
    return None


def _letters(piece: str, letters: str) -> list[str]:
    out = []
    for part in piece.split("-"):
        for ch in part.replace("$", ""):
            if ch.isalpha():
                out.append(f"{ch.upper()}." if letters == "dotted" else ch.lower())
    return out


def clean_transliteration(body: str, markers: str = "keep", letters: str = "lower", case: str = "keep") -> Cleaned:
    """Clean one turn body (or a list of ORT labels joined by blanks)."""
    if markers not in ("keep", "drop"):
        raise ValueError("markers must be 'keep' or 'drop'")
    out = Cleaned(tokens=[])
    s = " ".join(body.split())
    s, n = _COMMENT_RE.subn(" ", s)
    if n:
        out.counts["comment"] += n
    s, n = _VARIANT_RE.subn(" ", s)
    if n:
        out.counts["variant"] += n

    def _lang(m: re.Match) -> str:
        if m.group(1) == "ENG":
            return f" {m.group(2)} "
        out.counts["foreign-stretch"] += 1
        out.flags.append(f"foreign stretch <{m.group(1)}> replaced by {UNK}")
        return " <%foreign> "
    s = _LANG_STRETCH_RE.sub(_lang, s)

    def _simul(m: re.Match) -> str:
        out.counts["simultaneous-noise"] += 1
        return " " + _TAG_RE.sub(" ", m.group(1)) + " "
    s = _SIMUL_RE.sub(_simul, s)
    s = re.sub(r"=/[+-]", "=", s)
    s, n = re.subn(r"\+/|/\+|-/|/-|\(@|@\)", " ", s)
    if n:
        out.counts["repair-marker"] += n

    for piece in _PIECE_RE.findall(s):
        if piece.startswith("<") and piece.endswith(">") and len(piece) > 1:
            tok = _tag_token(piece[1:-1], out)
            if tok is not None:
                out.tokens.append(tok)
            continue
        if piece in ("<", ">"):
            out.counts["stray-bracket"] += 1
            out.flags.append(f"stray '{piece}' dropped")
            continue
        if re.fullmatch(r"[.,?!;:/\-]+", piece):
            continue
        if piece == "%":
            out.counts["unintelligible"] += 1
            out.tokens.append(UNK)
            continue
        if piece.startswith("$"):
            out.counts["spelled-letters"] += 1
            out.tokens += _letters(piece.rstrip(".,?!"), letters)
            continue
        if piece.endswith("="):
            out.counts["fragment"] += 1
            out.tokens.append(UNK)
            continue
        word = piece
        if word.startswith("*"):
            out.counts["neologism"] += 1
            word = word.lstrip("*")
        if "~" in word:
            out.counts["tilde"] += 1
            word = word.replace("~", "")
        if '"' in word:
            de = _deumlaut(word)
            if de != word:
                out.counts["latex-umlaut"] += 1
                out.flags.append(f"LaTeX umlaut in {word!r} (German-looking)")
            word = de.replace('"', "")
        word = word.rstrip(",?!;:")
        if word.endswith(".") and not re.fullmatch(r"(?:[A-Za-z]\.)+", word):
            word = word.rstrip(".")
        if not word:
            continue
        if not _WORD_RE.match(word):
            out.counts["unparsed:" + piece] += 1
            out.flags.append(f"unparsed token {piece!r} -> {UNK}")
            out.tokens.append(UNK)
            continue
        if case == "upper":
            word = word.upper()
        elif case == "lower":
            word = word.lower()
        out.tokens.append(word)
    if markers == "drop":
        out.tokens = [t for t in out.tokens if t not in MARKERS]
    return out
