"""Capitalised multi-word names after a cue word, on cased text: the restaurants, parks, venues, small towns and
businesses that a pretrained NER misses ("a table at Gus Stevens Seafood Restaurant & Buccaneer Lounge", "films at
North American Cinemas", "a brasserie in Rixford").

A run of capitalised words (joined by "&", "of", "the" between two capitalised words) that starts right
after a cue ("at", "in", "near", "from", "to", "book", "reserve", "by" ...; an article may sit between) is a name when at
least one of its words is not a common English word (gazetteer.is_common: the word lists and the frequency table of
the default pipeline) or it ends in a venue word ("Star Theatres", "City Tavern"). Sentence-initial words, months
and weekdays, honorifics and job titles ("to Chief Executive Officer"), and all-capital acronyms ("in COVID")
never start or join a run. Lower-case (ASR-style) text is left to the truecased NER and the gazetteer. Titles of
works and sentences about works are filtered afterwards by the same context rules as spaCy's names
(gazetteer.context_filter, detectors._work_title).
"""

from __future__ import annotations

from typing import Sequence

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
_ORG_CUES = {"at", "book", "reserve"}


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


class CueNameDetector:
    name = "cues"

    def __init__(self, org_type: str = "ORG", place_type: str = "LOC", person_type: str = "PER"):
        from .gazetteer import _default_truecaser
        self.tc = _default_truecaser()
        self.org_type = org_type
        self.place_type = place_type
        self.person_type = person_type

    def _common(self, w: str) -> bool:
        from .gazetteer import _norm, is_common
        w = _norm(w)
        return not w or is_common(w, self.tc) or not any(c.isalpha() for c in w)

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        if not any(c.isupper() for t in tokens for c in t):
            return []
        from .grammars import categories
        cats = categories(tokens)
        out: list[Span] = []
        i = 0
        n = len(tokens)
        while i < n:
            cue = tokens[i].lower()
            if cue not in CUES:
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
