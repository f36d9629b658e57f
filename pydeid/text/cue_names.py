"""Capitalised multi-word names after a cue word, on cased text: the restaurants, parks, venues, small towns and
businesses that a pretrained NER misses ("a table at Gus Stevens Seafood Restaurant & Buccaneer Lounge", "films at
North American Cinemas", "a brasserie in Rixford").

A run of capitalised words (joined by "&", "of", "the" between two capitalised words) that starts right
after a cue ("at", "in", "near", "from", "to", "book", "reserve", "by", "works for" ...; an article may sit between) is a name when at
least one of its words is not a common English word (gazetteer.is_common: the word lists and the frequency table of
the default pipeline) or it ends in a venue word ("Star Theatres", "City Tavern"). Sentence-initial words, months
and weekdays, honorifics and job titles ("to Chief Executive Officer"), and all-capital acronyms ("in COVID")
never start or join a run. Lower-case (ASR-style) text is left to the truecased NER and the gazetteer. Titles of
works and sentences about works are filtered afterwards by the same context rules as spaCy's names
(gazetteer.context_filter, detectors._work_title).

Person cues (person_cues), on cased and lower-case text: names that are also common words ("ask Will to call
Rose", "Mark said Bill will pay the bill") are taken only in a person context: after "ask / tell / call / text /
email / remind / meet / invite / thank" and their past forms, after an honorific ("Mr", "Mrs", "Dr", "misses"),
after "this is", before "said / says / asked / told", and before "speaking". The word must be a usual first name
(faker en_US's 690, plus common diminutives such as "will", "bill") -- in cased text a capitalised first name of
the gazetteer's lists -- and a following surname joins it. In cased text a lower-case word is never taken ("I will
call you", "pay the bill"), nor a capitalised cue inside the sentence (titles: "This Is Verdi"). Not "called X":
in requests it names a title ("a playlist called Genuine"). Checked on SNIPS train; measured on SNIPS valid and
SLURP devel (bench/person_cues.py).
"""

from __future__ import annotations

import functools
from typing import Sequence

from .detector_registry import Detector
from .spans import Span

CUES = {"at", "in", "near", "from", "to", "into", "around", "outside", "inside", "visit", "visiting", "book",
        "reserve", "towards", "toward", "via", "by"}
_ARTICLES = {"the", "a", "an"}
_GLUE = {"&", "of", "the", "de", "la", "du", "del"}
# honorifics, job titles and business-calendar words: capitalised without being names (also the capitalisation
# detector's, detectors._CAP_TITLE_WORDS)
TITLE_WORDS = {"Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Dr", "Dr.", "Prof", "Prof.", "Sir", "Madam", "Miss", "Chief",
               "Executive", "Officer", "President", "Vice", "Director", "Manager", "Senior", "Junior", "Head",
               "Chairman", "Chair", "Financial", "Operating", "Operations", "Analyst", "Partner", "Founder", "Board",
               "Quarter", "Fiscal"}
# capitalised without being a name after a cue: the titles above, document words, the pronoun I
_NOT_NAME = TITLE_WORDS | {"Year", "Slide", "Page", "Section", "Chapter", "Figure", "Table", "Appendix",
                           "Operator", "Question", "Questions", "Answer", "I", "I'm", "I'll", "I've", "I'd", "OK",
                           "Okay"}
VENUE_WORDS = {"cinema", "cinemas", "cineplex", "theatre", "theatres", "theater", "theaters", "drafthouse",
               "multiplex", "restaurant", "restaurants", "cafe", "café", "bar", "grill", "pub", "inn", "tavern",
               "diner", "house", "lounge", "bistro", "brasserie", "steakhouse", "pizzeria", "trattoria", "deli",
               "kitchen", "bakery", "hotel", "motel", "club", "park", "garden", "gardens", "museum", "gallery",
               "library", "hospital", "clinic", "school", "college", "university", "academy", "church", "stadium",
               "arena", "center", "centre", "mall", "market", "station", "airport", "square", "street", "road",
               "avenue", "lane", "drive", "boulevard", "forest", "lake", "river", "beach", "bay", "island",
               "mountain", "canyon", "valley", "hill", "hills", "reserve", "monument", "memorial", "site", "area",
               "foundation", "company", "group", "inc", "inc.", "corp", "ltd", "bank", "store", "shop", "studio",
               "studios"}
_ORG_CUES = {"at", "book", "reserve", "works for"}
_WORK_VERBS = {"work", "works", "worked", "working"}


def _cap(tokens: Sequence[str], k: int, cats: str) -> bool:
    t = tokens[k]
    if not t[:1].isupper() or t in _NOT_NAME or cats[k] in "Mw":
        return False
    letters = [c for c in t if c.isalpha()]
    if not letters or len(letters) > 2 and all(c.isupper() for c in letters):
        return False
    if len(letters) <= 2 and all(c.isupper() for c in letters) and not (k > 0 and tokens[k - 1] == ","):
        return False     # a two-letter capital word is a state code only after a comma ("Harper , ME")
    return not (k == 0 or tokens[k - 1].endswith((".", "?", "!")) and tokens[k - 1] not in ("Mr.", "Mrs.", "Dr.",
                                                                                            "Ms.", "St."))


PERSON_CUES = True      # the default of CueNameDetector(persons=None); bench/person_cues.py measures both


class CueNameDetector(Detector):
    name, types = "cues", ("ORG", "LOC", "PER")

    def __init__(self, org_type: str = "ORG", place_type: str = "LOC", person_type: str = "PER",
                 persons: bool | None = None):
        from .gazetteer import _default_truecaser
        # the person cues ("ask Will", "Mark said"); False: venues and towns only
        self.persons = PERSON_CUES if persons is None else persons
        self.tc = _default_truecaser()
        self.org_type = org_type
        self.place_type = place_type
        self.person_type = person_type

    def _common(self, w: str) -> bool:
        from .gazetteer import _norm, is_common
        w = _norm(w)
        return not w or is_common(w, self.tc) or not any(c.isalpha() for c in w)

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        people = person_cues(tokens) if self.persons else []
        return sorted(people + [s for s in self._places(tokens)
                                if not any(s.start < p.end and p.start < s.end for p in people)],
                      key=lambda s: (s.start, s.end))

    def _places(self, tokens: Sequence[str]) -> list[Span]:
        if not any(c.isupper() for t in tokens for c in t):
            return []
        from .grammars import categories
        cats = categories(tokens)
        out: list[Span] = []
        i = 0
        n = len(tokens)
        while i < n:
            cue = tokens[i].lower()
            if cue == "for" and i > 0 and tokens[i - 1].lower() in _WORK_VERBS:
                cue = "works for"         # an employer: "Marisol works for Brightwater Nadlow"
            if cue not in CUES and cue != "works for":
                i += 1
                continue
            a = i + 1
            while a < n and tokens[a].lower() in _ARTICLES and a - i <= 1:
                a += 1
            if a >= n or not _cap(tokens, a, cats):
                i += 1
                continue
            b = a + 1
            while b < n:
                if _cap(tokens, b, cats):
                    b += 1
                elif tokens[b].lower() in _GLUE and b + 1 < n and _cap(tokens, b + 1, cats):
                    b += 2
                else:
                    break
            words = tokens[a:b]
            venue = words[-1].lower() in VENUE_WORDS
            if venue or any(not self._common(w) for w in words if w.lower() not in _GLUE):
                typ = self.person_type if cue == "by" and not venue else \
                    self.org_type if cue in _ORG_CUES or venue and words[-1].lower() not in (
                    "park", "lake", "river", "beach", "bay", "island", "mountain", "canyon", "valley", "hill",
                    "hills", "forest", "square", "street", "road", "avenue", "lane", "drive", "boulevard", "site",
                    "area", "monument", "memorial", "reserve", "gardens") else self.place_type
                # "The" written in capitals inside a sentence is part of the name ("book The Fry Bread House")
                start = a - 1 if a > i + 1 and tokens[a - 1] == "The" else a
                out.append(Span(start, b, typ, {f"cues:{cue}"}))
            i = b
        return out


# ------------------------------------------------------------------------------------------------ person cues
PERSON_BEFORE = {"ask", "asks", "asked", "tell", "tells", "told", "call", "calls", "text", "texts",
                 "texted", "email", "emails", "emailed", "e-mail", "remind", "reminds", "reminded", "meet", "meets",
                 "met", "invite", "invites", "invited", "thank", "thanks", "thanked", "message", "messaged"}
HONORIFICS = {"mr", "mr.", "mrs", "mrs.", "ms", "ms.", "dr", "dr.", "mister", "misses", "missus", "miss",
              "doctor", "prof", "prof.", "professor"}
PERSON_AFTER = {"said", "says", "asked", "told"}
_SPEAKING = {"speaking"}
_CLAUSE_START = {",", "and", "but", "so", "then", "because", "that", "when", "if", "while", "as", "since"}
DIMINUTIVES = {"will", "bill", "bob", "rob", "tom", "jim", "jack", "ben", "dan", "sam", "alex", "max", "pat",
               "nick", "matt", "mike", "joe", "sue", "kate", "liz", "meg", "jen", "tim", "ted", "ed", "al", "ray",
               "art", "rick", "chris", "steve", "dave", "tony", "andy", "pete", "fred", "harry", "jake", "josh",
               "zach", "nate", "greg", "jeff", "phil", "ron", "don", "ken", "len", "vic", "val", "bea", "di",
               "jo", "lou", "deb", "kim", "gail", "peg", "abby", "becky", "cathy", "jenny", "lizzie", "maggie"}
# pronouns, assistant names and words that follow "call", "tell", "meet" ... without being names
_NOT_A_NAME = {"me", "him", "her", "them", "us", "you", "it", "someone", "somebody", "everyone", "anyone", "back",
               "again", "up", "out", "home", "now", "later", "mom", "mum", "dad", "alexa", "siri", "olly", "google",
               "cortana", "the", "a", "an", "my", "your", "his", "their", "our", "this", "that", "about", "all"}


@functools.lru_cache(maxsize=1)
def _usual_names() -> frozenset:
    from .gazetteer import usual_first_names
    return frozenset(usual_first_names() | DIMINUTIVES) - _NOT_A_NAME


def _lists():
    from .gazetteer import person_names
    return person_names()


def person_cues(tokens: Sequence[str]) -> list[Span]:
    """PER spans of the person contexts above (see the module doc)."""
    from .gazetteer import is_common
    from .wordforms import text_case
    cased = text_case(tokens) != "lower"
    first, last = _lists()
    low = [t.lower() for t in tokens]
    n = len(tokens)

    def name_at(k: int) -> bool:
        if k < 0 or k >= n or low[k] in _NOT_A_NAME or not tokens[k].isalpha():
            return False
        if cased:
            if not tokens[k][:1].isupper() or tokens[k] in _NOT_NAME:
                return False
            return low[k] in first or low[k] in _usual_names()
        return low[k] in _usual_names()

    def surname_at(k: int) -> bool:
        if k >= n or not tokens[k].isalpha() or low[k] in _NOT_A_NAME:
            return False
        if cased:
            return tokens[k][:1].isupper() and tokens[k] not in _NOT_NAME
        from .gazetteer import is_common
        return not is_common(low[k]) and low[k] not in PERSON_AFTER | _SPEAKING and (low[k] in last or len(low[k]) > 3)

    out: list[Span] = []
    taken: set[int] = set()

    def add(k: int, cue: str):
        if k in taken:
            return
        b = k + 1
        if surname_at(b):
            b += 1
        out.append(Span(k, b, "PER", {f"cues:{cue}"}))
        taken.update(range(k, b))

    for i in range(n):
        cue = low[i]
        if cased and tokens[i][:1].isupper() and i > 0 and cue not in HONORIFICS:
            continue           # a capitalised cue inside a cased sentence is a title ("This Is Verdi" playlist)
        if (cue in PERSON_BEFORE or cased and cue == "said") and name_at(i + 1):
            add(i + 1, cue)           # "ask Will", "Mark said Bill will pay" (cased: "said" + a capitalised name)
        if cue in HONORIFICS and i + 1 < n and tokens[i + 1].isalpha() and low[i + 1] not in _NOT_A_NAME \
                and (name_at(i + 1) or low[i + 1] in last or low[i + 1] in first or cased and
                     tokens[i + 1][:1].isupper() and not is_common(low[i + 1])):
            add(i + 1, cue)
        elif cue == "is" and i > 0 and low[i - 1] == "this" and name_at(i + 1):
            add(i + 1, "this is")
        elif cue in PERSON_AFTER | _SPEAKING and i > 0:
            k = i - 1                 # the name before the cue, or the surname of a first name before it

            def clause(j):
                return j == 0 or low[j - 1] in _CLAUSE_START or cue in _SPEAKING and low[j - 1] == "is"
            if k > 0 and name_at(k - 1) and surname_at(k) and clause(k - 1):
                add(k - 1, cue)
            elif name_at(k) and clause(k):
                add(k, cue)
    return sorted(out, key=lambda s: (s.start, s.end))
