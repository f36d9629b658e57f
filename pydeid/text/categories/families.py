"""One small detector class per category family (seed 004 appendix A.1). Each `detect(tokens, low)` returns
spans over the tokens; `low` is the normalised lower-case form (context.norm), so cased and lower-case input
give the same spans. Registry: FAMILIES (name -> class), in the order that resolves overlaps."""

from __future__ import annotations

import functools
import re
from typing import Sequence

from ..lexicon import DIGIT_WORDS, TEEN_WORDS, TENS_WORDS
from ..spans import Span
from . import lexicons as L
from .context import PERSON_NOUNS, Lexicon, is_statement_before, parse_cardinal, skip_back

_ARTICLES = {"a", "an", "the"}


@functools.lru_cache(maxsize=1)
def _first_names() -> frozenset:
    try:
        from ..gazetteer import person_names
        return person_names()[0]
    except ImportError:      # faker absent: no name check
        return frozenset()


class Family:
    name = ""
    types: tuple = ()

    def detect(self, tokens: Sequence[str], low: Sequence[str]) -> list[Span]:
        raise NotImplementedError

    def span(self, a: int, b: int, typ: str, how: str) -> Span:
        return Span(a, b, typ, {f"categories:{how}"})


class LexiconFamily(Family):
    """Strong phrases fire anywhere (unless the phrase is also a first name, then as weak); weak phrases only in a
    statement about a person or after one of the family's cue phrases. A leading article is not part of a span."""

    strong: frozenset = frozenset()
    weak: frozenset = frozenset()
    cues: frozenset = frozenset()        # phrases that license a weak word right before it (fillers skipped)
    typ = ""

    def __init__(self):
        self._strong = Lexicon(self.strong)
        self._weak = Lexicon(self.weak)
        self._cues = Lexicon(self.cues)

    def licensed(self, tokens, low, a: int, b: int) -> bool:
        if is_statement_before(low, a):
            return True
        k = skip_back(low, a)
        return k >= 0 and self._cues.ends_at(low, k) > 0

    def reject(self, tokens, low, a: int, b: int) -> bool:
        return False

    def extend(self, tokens, low, a: int, b: int) -> tuple[int, int]:
        return a, b

    def detect(self, tokens, low):
        out, i = [], 0
        while i < len(low):
            ns, nw = self._strong.match(low, i), self._weak.match(low, i)
            n = max(ns, nw)
            if not n:
                i += 1
                continue
            a, b = i, i + n
            while a < b - 1 and low[a] in _ARTICLES:
                a += 1
            weak = nw > ns or (n == 1 and low[a] in _first_names() and not tokens[a].islower())
            ok = (not weak or self.licensed(tokens, low, a, b)) and not self.reject(tokens, low, a, b)
            if ok:
                a, b = self.extend(tokens, low, a, b)
                out.append(self.span(a, b, self.typ, self.name))
                i = b
            else:
                i += 1
        return out


# what may follow "a cold" / "a fever" when it is an illness ("I've got a cold so ...", "a fever last night");
# any other word makes it a modifier ("a cold drink", "a cold day")
_ILLNESS_NEXT = {"", "so", "and", "but", "or", "at", "last", "this", "since", "for", "from", "in", "on", "right",
                 "now", "again", "which", "that", "too", "as", "because", "recently", "yesterday", "today", "i",
                 "all", "still", "at", "over", "after", "before", "when", "then", "by", "with", "coming", "going",
                 "actually", "though", "anyway", ",", ".", "?", "!"}


class Health(LexiconFamily):
    name, typ, types = "health", "HEALTH", ("HEALTH",)
    strong = L.HEALTH_STRONG - {"stroke"}
    weak = L.HEALTH_WEAK
    cues = L.HEALTH_CUES - {"am", "'m", "is", "'s", "are", "'re", "was", "were", "been", "be", "become", "became",
                            "with", "on"}

    def reject(self, tokens, low, a, b):
        if low[b - 1] in ("cold", "fever"):
            return (low[b] if b < len(low) else "") not in _ILLNESS_NEXT
        return False


class Belief(LexiconFamily):
    name, typ, types = "belief", "BELIEF", ("BELIEF",)
    strong = L.BELIEF_STRONG
    weak = L.BELIEF_WEAK
    cues = L.BELIEF_VOTE_CUES | {c + " the" for c in L.BELIEF_VOTE_CUES} | {"vote for the", "voted for the"}

    def extend(self, tokens, low, a, b):
        if b < len(low) and low[b] in ("party", "parties") and low[b - 1] not in ("party", "parties"):
            return a, b + 1                         # "the Green Party", "the Socialist Party"
        return a, b




# a person who "came out": the subject before it, and what may follow ("came out to my parents", "came out last
# year"); "the film came out", "I came out of the shop" are not about sexuality
_OUT_SUBJECTS = {"i", "he", "she", "they", "we", "you", "finally", "just", "recently", "also", "only", "eventually",
                 "son", "daughter", "brother", "sister", "husband", "wife", "friend", "dad", "mum", "mom", "father",
                 "mother", "cousin", "uncle", "aunt", "partner", "boyfriend", "girlfriend", "teenager", "kid"}
_OUT_NEXT = {"", "to", "as", "last", "when", "at", "publicly", "recently", "years", "ago", "and", "but", "so",
             "because", "in", "after", "before", ",", ".", "!", "?", "officially", "finally", "yesterday", "this"}


class Sexual(LexiconFamily):
    name, typ, types = "sexual", "SEXUAL", ("SEXUAL",)
    strong = L.SEXUAL_STRONG
    weak = L.SEXUAL_WEAK

    def __init__(self):
        super().__init__()
        self._out = Lexicon(L.COMING_OUT)

    def detect(self, tokens, low):
        out = super().detect(tokens, low)
        taken = {i for s in out for i in range(s.start, s.end)}
        for i in range(len(low)):
            n = self._out.match(low, i)
            if not n or i in taken or i == 0 or low[i - 1] not in _OUT_SUBJECTS:
                continue
            nxt = low[i + n] if i + n < len(low) else ""
            if nxt in _OUT_NEXT and not (nxt == "in" and i + n + 1 < len(low) and low[i + n + 1] in ("the", "a")):
                out.append(self.span(i, i + n, self.typ, "coming_out"))
        return sorted(out, key=lambda s: s.start)


class Marital(LexiconFamily):
    name, typ, types = "marital", "MARITAL", ("MARITAL",)
    strong = L.MARITAL_STRONG
    weak = L.MARITAL_WEAK

    def reject(self, tokens, low, a, b):
        nxt = low[b] if b < len(low) else ""
        if low[a] in L.MARITAL_WEAK and b - a == 1:       # "a single mum" is a phrase of its own
            # "engaged in talks", "a single room", "separated the files"; but "I'm engaged the wedding is in June"
            # (no punctuation): after "I'm/we're/are" the word is a state, not a verb taking an object
            k = skip_back(low, a)
            state = k >= 0 and low[k] in ("i'm", "im", "am", "we're", "were", "are", "'re", "they're", "you're")
            return nxt in ("in", "with", "by") or (nxt == "the" and not state) or (a > 0 and low[a - 1] in ("a", "an"))
        return False


_ETHNIC_CONTEXT_ONLY = {"arab", "arabic", "persian", "creole", "celtic", "traveller", "indigenous", "roma",
                        "slavic", "anglo saxon"}


class Ethnicity(LexiconFamily):
    """Ethnic groups; nationality adjectives, which also name languages and cuisines, only in a statement about a
    person ("my mother is Korean", "I'm half German") or next to "descent/origin/heritage"."""

    name, typ, types = "ethnicity", "ETHNICITY", ("ETHNICITY",)
    strong = L.ETHNIC_STRONG - _ETHNIC_CONTEXT_ONLY
    weak = L.DEMONYMS | _ETHNIC_CONTEXT_ONLY | L.ETHNIC_COLOURS
    cues = frozenset({"identify as", "identifies as", "ethnically", "ethnicity is", "background is"})

    def __init__(self, court: bool = True):
        super().__init__()
        self._mods = Lexicon(L.ETHNIC_MODIFIERS)
        self._after = Lexicon(L.ETHNIC_AFTER if court else L.ETHNIC_AFTER - L.ETHNIC_AFTER_COURT)
        self._all = Lexicon(self.strong | self.weak)

    def licensed(self, tokens, low, a, b):
        if low[a] in L.ETHNIC_COLOURS and b == a + 1:
            n = self._all.match(low, b)             # "white British" is licensed as a whole
            return bool(is_statement_before(low, a) or n and self._after.match(low, b + n))
        if self._after.match(low, b) or is_statement_before(low, a, L.ETHNIC_MODIFIERS):
            return True
        k = skip_back(low, a, L.ETHNIC_MODIFIERS)
        return k >= 0 and self._cues.ends_at(low, k) > 0

    def extend(self, tokens, low, a, b):
        n = self._all.match(low, b)                # "white British", "half Japanese"
        if n and low[a] in L.ETHNIC_COLOURS:
            b += n
        k = a - 1
        while k >= 0 and self._mods.ends_at(low, k) and low[k] not in ("originally", "ethnically"):
            k -= self._mods.ends_at(low, k)
        return k + 1, b


class Profession(LexiconFamily):
    """Occupations and employment status, only in a statement about a person ("I'm a nurse", "she works as a
    teacher", "my job is bus driver"); "I went to the doctor" is no statement of profession."""

    name, typ, types = "profession", "PROFESSION", ("PROFESSION",)
    weak = L.PROFESSIONS | L.EMPLOYMENT
    cues = L.PROFESSION_CUES

    def __init__(self):
        super().__init__()
        self._mods = Lexicon(L.PROFESSION_MODIFIERS)

    def detect(self, tokens, low):
        out, i = [], 0
        while i < len(low):
            n = self._weak.match(low, i)
            if not n:
                i += 1
                continue
            a, b = i, i + n
            while a > 0 and (low[a - 1] in L.PROFESSION_MODIFIERS or self._weak.ends_at(low, a - 1) == 1) \
                    and low[a - 1] not in ("retired", "unemployed", "student"):
                a -= 1                            # "primary school teacher", "software developer"
            if self.licensed(tokens, low, a, b):
                out.append(self.span(a, b, self.typ, self.name))
                i = b
            else:
                i += 1
        return out


_CUE_CREDENTIAL = Lexicon(L.CREDENTIAL_CUES)


class Credential(Family):
    """The value after "password/PIN/passcode/CVV/security code is": up to 6 tokens, to the end of the clause;
    statements about a credential ("the password is wrong", "my pin is six digits") are not values."""

    name, types = "credential", ("CREDENTIAL",)

    def detect(self, tokens, low):
        out = []
        n = len(low)
        for k in range(n):
            if low[k] not in ("is", ":", "=", "'s", "was") and not low[k].endswith("'s"):
                continue
            c = k - 1 if low[k] in ("is", ":", "=", "'s", "was") else k
            if low[k].endswith("'s") and low[k] != "'s":
                base = low[k][:-2]
                if base not in L.CREDENTIAL_CUES:
                    continue
            elif c < 0 or not _CUE_CREDENTIAL.ends_at(low, c):
                continue
            a = k + 1
            b = a
            while b < n and b - a < 6 and low[b] not in L.CREDENTIAL_STOP and any(ch.isalnum() for ch in low[b]):
                b += 1
            if b == a:
                continue
            vals = low[a:b]
            if vals[0] in L.CREDENTIAL_NOT_VALUE and (b - a == 1 or vals[0] not in ("correct", "right", "new", "old"))\
                    or any(v in L.CREDENTIAL_REJECT_IN for v in vals):
                continue
            out.append(self.span(a, b, "CREDENTIAL", self.name))
        return out


_RE_IP = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")
_RE_IP6 = re.compile(r"^[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}$")
_RE_MAC = re.compile(r"^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$")
_NUMWORDS = set(DIGIT_WORDS) | set(TEEN_WORDS) | set(TENS_WORDS) | {"hundred"}


def _group_value(words: Sequence[str]) -> int | None:
    if all(w in DIGIT_WORDS for w in words):
        return int("".join(str(DIGIT_WORDS[w]) for w in words))
    got = parse_cardinal(words, 0, allow_zero=True)
    return got[1] if got and got[0] == len(words) else None


def _is_ip(w: str) -> bool:
    """Written IPv4 (octets <= 255) or IPv6 (eight groups, or compressed with '::'), never a MAC address."""
    m = _RE_IP.match(w)
    if m:
        return all(int(x) <= 255 for x in m.groups())
    return bool(_RE_IP6.match(w)) and not _RE_MAC.match(w) and (w.count(":") == 7 or "::" in w)


class Computer(Family):
    """IP addresses (written IPv4/IPv6; spoken "one nine two dot one six eight dot zero dot one") and MAC
    addresses (written 00:1A:2B:3C:4D:5E; spoken "zero zero colon one a colon ...")."""

    name, types = "computer", ("IP", "MAC")

    def _spoken_groups(self, low, i, seps, is_tok, ngroups, maxlen):
        groups, j = [], i
        while True:
            g = j
            while j < len(low) and j - g < maxlen and is_tok(low[j]):
                j += 1
            if j == g:
                return None
            groups.append(low[g:j])
            if len(groups) == ngroups:
                return j, groups
            if j < len(low) and low[j] in seps:
                j += 1
            else:
                return None

    def detect(self, tokens, low):
        out, i = [], 0
        while i < len(low):
            w = low[i]
            if _is_ip(w):
                out.append(self.span(i, i + 1, "IP", "ip"))
                i += 1
                continue
            if _RE_MAC.match(w):
                out.append(self.span(i, i + 1, "MAC", "mac"))
                i += 1
                continue
            got = self._spoken_groups(low, i, {"dot", "point", "."}, lambda t: t in _NUMWORDS or t.isdigit(), 4, 4)
            if got:
                j, groups = got
                vals = [_group_value(g) if not g[0].isdigit() else (int(g[0]) if len(g) == 1 else None)
                        for g in groups]
                if all(v is not None and v <= 255 for v in vals):
                    out.append(self.span(i, j, "IP", "ip"))
                    i = j
                    continue
            got = self._spoken_groups(low, i, {"colon", "dash", "hyphen", ":", "-"},
                                      lambda t: t in DIGIT_WORDS or re.fullmatch(r"[0-9a-f]{1,2}", t) is not None,
                                      6, 2)
            if got:
                j, groups = got
                if sum(len("".join(g)) >= 1 for g in groups) == 6:
                    out.append(self.span(i, j, "MAC", "mac"))
                    i = j
                    continue
            i += 1
        return out


_RE_HOUSE = re.compile(r"^\d{1,5}[a-z]?$")
_NAME_STOP = {"the", "a", "an", "to", "at", "in", "on", "of", "and", "my", "is", "was", "it", "i", "for", "from",
              "by", "with", "or", "but", "this", "that", "your", "our", "his", "her", "their", "number", "no"}
_CUE_ADDRESS = Lexicon(L.ADDRESS_CUES)


class Address(LexiconFamily):
    """Street addresses: a house number (spoken or written: "twelve", "one hundred and two", "221b") + 1-3 name
    words + a street suffix ("Baker Street", "Elm Close"); or an address cue ("I live on") + name + suffix."""

    name, types = "address", ("ADDRESS",)

    def __init__(self):
        pass

    def _street(self, low, j):
        """End of 'name words + suffix' starting at j (greedy, the last suffix within 4 words), or None."""
        best = None
        for k in range(j + 1, min(len(low), j + 4)):
            if low[k] in L.STREET_SUFFIXES and all(
                    w.isalpha() or w.endswith("'s") or re.fullmatch(r"\d+(st|nd|rd|th)", w) for w in low[j:k]) \
                    and not any(w in _NAME_STOP or w in _NUMWORDS for w in low[j:k]):
                best = k + 1
        return best

    def detect(self, tokens, low):
        out, i = [], 0
        while i < len(low):
            num = (i + 1, 0) if _RE_HOUSE.match(low[i]) else parse_cardinal(low, i)
            if num:
                end = self._street(low, num[0])
                if end:
                    out.append(self.span(i, end, "ADDRESS", self.name))
                    i = end
                    continue
            if i > 0 and _CUE_ADDRESS.ends_at(low, i - 1):
                end = self._street(low, i)
                if end:
                    out.append(self.span(i, end, "ADDRESS", self.name))
                    i = end
                    continue
            i += 1
        return out


_CUE_TRANSACTION = Lexicon(L.TRANSACTION_CUES)
_RE_MONEY = re.compile(r"^[$€£]\d[\d,]*(\.\d+)?[km]?$|^\d[\d,]*(\.\d+)?[$€£]$")


class Transaction(Family):
    """An amount of money (spoken or written) within 5 words after a transaction cue: "I paid fifty euros",
    "they charged me £30", "my balance is three hundred pounds", "I bought it for 1500 euros"."""

    name, types = "transaction", ("TRANSACTION",)

    def _amount(self, low, i):
        if _RE_MONEY.match(low[i]):
            return i + 1
        if low[i] in ("$", "€", "£") and i + 1 < len(low) and parse_cardinal(low, i + 1):
            return parse_cardinal(low, i + 1)[0]
        got = parse_cardinal(low, i)
        if got and got[0] < len(low) and low[got[0]] in L.CURRENCY_WORDS:
            end = got[0] + 1
            if low[got[0]] in ("pound", "pounds") and end < len(low) and low[end] == "of":
                return None                     # a weight: "ten pounds of potatoes"
            return end
        return None

    def detect(self, tokens, low):
        out, i = [], 0
        while i < len(low):
            end = self._amount(low, i)
            if end and any(_CUE_TRANSACTION.ends_at(low, k) for k in range(max(0, i - 5), i)):
                out.append(self.span(i, end, "TRANSACTION", self.name))
                i = end
                continue
            i += 1
        return out


_AGE_AFTER = {"", "and", "but", "so", "now", "next", "last", "this", "in", "on", "when", "yesterday", "today",
              "soon", "already", "too", "tomorrow", "since", "then", "actually", "though", "i", "we", "he", "she",
              "they", "years", "year", "myself", "himself", "herself", "or", "if", "because", "anyway", "by",
              "at", "as", "with", "going", "you", "right", "ok", "okay", "yeah", ",", ".", "?", "!",
              # a status that often follows an age in one breath ("I'm forty five divorced and ...")
              "married", "divorced", "single", "widowed", "separated", "engaged", "retired", "unemployed"}
_NOT_PERSON_SUBJ = {"it", "it's", "its", "this", "that", "that's", "which"}
_DETERMINERS = {"the", "this", "that", "our", "my", "his", "her", "their", "your", "a", "an"}


def _thing_subject(low, i) -> bool:
    """The words before an age say it is the age of a thing: "the car is three years old", "it's ten years old",
    "my house is a hundred years old" (a determiner + a noun that names no person, then a copula)."""
    k = skip_back(low, i)
    if k < 0:
        return False
    if low[k] in ("it's", "that's"):
        return True
    if low[k] not in ("is", "'s", "was", "are", "were"):
        return low[k].endswith("'s") and low[k][:-2] in _DETERMINERS | _NOT_PERSON_SUBJ
    j = skip_back(low, k)
    if j < 0:
        return False
    if low[j] in _NOT_PERSON_SUBJ:
        return True
    noun = low[j].rstrip("s")
    return j > 0 and low[j - 1] in _DETERMINERS and low[j] not in PERSON_NOUNS and noun not in PERSON_NOUNS
_AGE_UNITS = {"years", "year", "yrs", "months", "month", "weeks", "week"}


class Age(Family):
    """Ages: "forty five years old", "a three year old", "aged thirty", "my age is forty", and a number (1-120)
    in a statement about a person when nothing follows it that makes it a count ("I'm 38", "my son is ten",
    but not "I'm ten minutes away")."""

    name, types = "age", ("AGE",)

    def detect(self, tokens, low):
        out, i, n = [], 0, len(low)
        while i < n:
            got = parse_cardinal(low, i)
            if not got or not 1 <= got[1] <= 120 or (low[i].isdigit() and (len(low[i]) > 3 or low[i][0] == "0")):
                i += 1
                continue
            j = got[0]
            nxt = low[j] if j < n else ""
            # "forty five years old", "a five year old", "six months old", "30-year-old"
            if nxt in _AGE_UNITS and j + 1 < n and low[j + 1] == "old":
                if _thing_subject(low, i):
                    i = j + 2
                    continue
                out.append(Span(i, j + 2, "AGE", {"categories:age"}))
                i = j + 2
                continue
            if nxt in _AGE_UNITS and j + 2 < n and low[j + 1] == "of" and low[j + 2] == "age":
                out.append(Span(i, j + 3, "AGE", {"categories:age"}))
                i = j + 3
                continue
            if nxt.endswith(("-year-old", "-years-old")):
                out.append(Span(i, j + 1, "AGE", {"categories:age"}))
                i = j + 1
                continue
            prev = low[i - 1] if i else ""
            cue = prev in ("aged", "age") or (i > 1 and low[i - 2:i] == ["age", "of"]) or \
                prev in ("turned", "turning", "turns", "turn")
            if cue or (nxt in _AGE_AFTER and is_statement_before(low, i)):
                out.append(Span(i, j, "AGE", {"categories:age"}))
                i = j
                continue
            i += 1
        return out


# registry, in the order that resolves overlaps (an earlier family wins a token)
FAMILIES = {c.name: c for c in (Credential, Computer, Address, Transaction, Age, Health, Belief, Ethnicity,
                                Sexual, Marital, Profession)}
