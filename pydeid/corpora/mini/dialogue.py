"""VerbMobil-style appointment dialogues from templates, with gold BIO tags (PER ORG LOC DATE TIME NUM).

Two speakers negotiate a business meeting (seed 004, figure 3): greeting and names, the fair or company, the
city, dates and times proposed, rejected and accepted, phone and extension numbers, small talk, hesitations and
repairs. A template is a string of words, punctuation tokens ("," "." "?") and `{slot}` references; a slot
expands to entity spans (or plain words) drawn from large seeded pools, so that the same frame is seen with
many fillers and the same filler in many frames. Words that are sometimes an entity and sometimes not ("may",
"second", "morning", "Frank", numbers used as counts) occur in both roles.

A Turn keeps two views of the same words: the spoken one (true-cased words, no punctuation: the Kaldi `text`
and `tags.conll`) and the written one (sentence-initial capital, punctuation tokens tagged O: `written.conll`).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .lexicon import Pools
from .numbers import MONTHS, WEEKDAYS, cardinal, clock, digits, ordinal, short_year, year

ENTITY_TYPES = ("PER", "ORG", "LOC", "DATE", "TIME", "NUM")
PUNCT = {",", ".", "?", "!"}
_SLOT = re.compile(r"^\{(\w+)\}$")


@dataclass
class Turn:
    segs: list[tuple[list[str], str | None]]  # (words, entity label or None); punctuation as its own seg

    def spoken(self) -> tuple[list[str], list[str]]:
        toks, tags = [], []
        for words, lab in self.segs:
            words = [w for w in words if w not in PUNCT]
            for i, w in enumerate(words):
                toks.append(w)
                tags.append("O" if lab is None else ("B-" if i == 0 else "I-") + lab)
        return toks, tags

    def written(self) -> tuple[list[str], list[str]]:
        toks, tags = [], []
        for words, lab in self.segs:
            for i, w in enumerate(words):
                toks.append(w)
                tags.append("O" if lab is None or w in PUNCT else ("B-" if i == 0 else "I-") + lab)
        for i, w in enumerate(toks):  # sentence-initial capitals
            if (i == 0 or toks[i - 1] in (".", "?", "!")) and w[:1].islower():
                toks[i] = w[:1].upper() + w[1:]
        if toks and toks[-1] not in PUNCT:
            toks.append(".")
            tags.append("O")
        return toks, tags

    def espeak_text(self) -> str:
        """What espeak reads: the written words with punctuation attached (pauses, question intonation)."""
        out = ""
        for words, _ in self.segs:
            for w in words:
                out += w if (w in PUNCT or not out) else " " + w
        return out


@dataclass
class Person:
    first: str
    last: str
    gender: str  # "m" | "f"

    def titled(self, rng: random.Random) -> list[str]:
        if self.gender == "m":
            t = rng.choice(["Mister"] * 6 + ["Doctor", "Professor"])
        else:
            t = rng.choice(["Misses"] * 4 + ["Miss"] * 2 + ["Doctor", "Professor"])
        return [t, self.last]


@dataclass
class Context:
    """What the two speakers have established so far (so that turns echo each other coherently)."""
    rng: random.Random
    pools: Pools
    people: dict[str, Person]           # "A"/"B" -> the speaker's persona
    company: dict[str, list[str]]
    fair: str
    city: list[str]
    date: list[str] = field(default_factory=list)   # last proposed date (words)
    date_prep: str | None = None
    time: list[str] = field(default_factory=list)
    phone: list[str] = field(default_factory=list)
    speaker: str = "A"

    @property
    def other(self) -> str:
        return "B" if self.speaker == "A" else "A"


# ---------------------------------------------------------------------------------------------- entity makers
def make_date(rng: random.Random) -> tuple[list[str], str | None]:
    """A date expression and the preposition that introduces it ("on" Tuesday, "in" March, - next week)."""
    m = rng.choice(MONTHS)
    d = rng.randint(1, 31 if m not in ("February", "April", "June", "September", "November") else 28)
    wd = rng.choice(WEEKDAYS[:5] if rng.random() < 0.9 else WEEKDAYS)
    y = rng.randint(1990, 2030)
    forms = [
        lambda: ([wd], "on"),
        lambda: ([wd, "the"] + ordinal(d), "on"),
        lambda: ([wd, "the"] + ordinal(d), "on"),
        lambda: (["the"] + ordinal(d), "on"),
        lambda: (["the"] + ordinal(d) + ["of", m], "on"),
        lambda: ([m, "the"] + ordinal(d), "on"),
        lambda: ([m] + ordinal(d), "on"),
        lambda: ([m], "in"),
        lambda: ([m, "of"] + short_year(rng.randint(1990, 1999)), "in"),
        lambda: ([m] + year(y), "in"),
        lambda: (["next", wd], None),
        lambda: (["next", "week"], None),
        lambda: (["this", wd], None),
        lambda: (["the", "first", "week", "of", m], "in"),
        lambda: (["the", "second", "week", "of", m], "in"),
        lambda: (["the", "end", "of", m], "at"),
        lambda: (["the", "beginning", "of", m], "at"),
        lambda: (["tomorrow"], None),
        lambda: (["the", "day", "after", "tomorrow"], None),
        lambda: ([wd, "the"] + ordinal(d) + ["of", m], "on"),
        lambda: (["the", "weekend"], "at"),
        lambda: (["the", "middle", "of", m], "in"),
        lambda: (["the", "week", "after", "next"], None),
        lambda: ([wd, "morning"], "on"),
        lambda: ([wd, "afternoon"], "on"),
        lambda: (["the", "next", "day"], None),
        lambda: (["one", "weekend", "in", m], None),
    ]
    return rng.choice(forms)()


def make_past_date(rng: random.Random) -> list[str]:
    m = rng.choice(MONTHS)
    return rng.choice([["last", "week"], ["last", "year"], ["last", m], ["yesterday"], ["last", "month"],
                       ["two", "weeks", "ago"], ["last", rng.choice(WEEKDAYS)], [m] + year(rng.randint(1990, 2025)),
                       ["the", "year", "before", "last"], ["a", "few", "days", "ago"]])


def make_time(rng: random.Random) -> list[str]:
    h = rng.choice([8, 9, 9, 10, 10, 11, 11, 12, 13, 14, 14, 15, 15, 16, 16, 17, 18, 19])
    m = rng.choice([0, 0, 0, 15, 30, 30, 45, 10, 20, 40, 50, 5])
    style = rng.choice(["past", "past", "pm", "daypart", "plain", "plain", "sharp"])
    if rng.random() < 0.06:
        return rng.choice([["noon"], ["midday"], ["lunch", "time"], ["the", "afternoon"], ["the", "morning"],
                           ["the", "evening"]])
    return clock(h, m, style)


def make_phone(rng: random.Random) -> list[str]:
    n = rng.choice([6, 7, 7, 8, 9, 10, 11])
    ds = "".join(str(rng.randint(0, 9)) for _ in range(n))
    words = digits(ds, zero=rng.choice(["zero", "oh"]))
    # "double five" now and then, as people say it
    if rng.random() < 0.3:
        for i in range(len(words) - 1):
            if words[i] == words[i + 1] and words[i] not in ("double",):
                words = words[:i] + ["double", words[i]] + words[i + 2:]
                break
    return words


def make_ext(rng: random.Random) -> list[str]:
    if rng.random() < 0.3:
        return cardinal(rng.randint(10, 999))
    return digits("".join(str(rng.randint(0, 9)) for _ in range(rng.randint(2, 4))))


# Names that are also common words, months, days or places: the tagger has to read the context.
AMBIG_FIRST = {"m": ["Frank", "Will", "Mark", "Bill", "Jack", "Austin", "Lincoln", "Jordan", "Chester", "Sonny"],
               "f": ["May", "April", "June", "Rose", "Grace", "Hope", "Joy", "Florence", "Sydney", "Victoria",
                     "Summer", "Dawn", "Georgia", "Paris"]}
AMBIG_LAST = ["Long", "White", "Young", "Green", "Brown", "King", "Rich", "Short", "Baker", "Bird", "Fox", "Hall",
              "Little", "March", "May", "Friday", "Day", "Sunday", "London", "Berlin", "Winter", "Summers",
              "Church", "Best", "Price", "Mills", "Banks", "Frank"]


def make_person(rng: random.Random, pools: Pools, gender: str | None = None) -> Person:
    g = gender or rng.choice("mf")
    first = rng.choice(pools.first_m if g == "m" else pools.first_f)
    last = rng.choice(pools.last)
    if rng.random() < 0.08:
        first = rng.choice(AMBIG_FIRST[g])
    if rng.random() < 0.08:
        last = rng.choice(AMBIG_LAST)
    return Person(first, last, g)


# ---------------------------------------------------------------------------------------------- slots
HES = ["uh", "um", "er", "hmm", "uh", "um"]
FILLER = ["well", "so", "okay", "now", "right", "yes", "oh", "alright"]


def _slot(name: str, ctx: Context) -> list[tuple[list[str], str | None]]:
    rng, pools = ctx.rng, ctx.pools
    me, you = ctx.people[ctx.speaker], ctx.people[ctx.other]
    E = lambda words, lab: [(words, lab)]  # noqa: E731
    if name == "me_full":
        return E([me.first, me.last], "PER")
    if name == "me_last":
        return E([me.last], "PER")
    if name == "hotel":         # hotels named after people or places: an ORG
        return E([rng.choice(pools.last + [c[0] for c in pools.cities[:50]])], "ORG")
    if name == "me_first":
        return E([me.first], "PER")
    if name == "me_title":
        return E(me.titled(rng), "PER")
    if name == "you_title":
        return E(you.titled(rng), "PER")
    if name == "you_first":
        return E([you.first], "PER")
    if name == "you_any":
        r = rng.random()
        return E(you.titled(rng) if r < 0.6 else ([you.first] if r < 0.8 else [you.first, you.last]), "PER")
    if name == "third":
        p = make_person(rng, pools)
        r = rng.random()
        return E(p.titled(rng) if r < 0.5 else ([p.first, p.last] if r < 0.8 else [p.first]), "PER")
    if name == "my_company":
        return E(ctx.company[ctx.speaker], "ORG")
    if name == "your_company":
        return E(ctx.company[ctx.other], "ORG")
    if name == "company":
        if rng.random() < 0.1:  # a company named after a place: the city word is part of the ORG
            return E(rng.choice(pools.cities)[:1] + [rng.choice(["Consulting", "Trading", "Airlines", "Bank",
                                                                   "Insurance", "Logistics"])], "ORG")
        return E(rng.choice(pools.companies), "ORG")
    if name == "fair":
        return E([ctx.fair], "ORG")
    if name == "any_fair":
        return E([rng.choice(pools.fairs)], "ORG")
    if name == "city":
        return E(ctx.city, "LOC")
    if name == "any_city":
        return E(rng.choice(pools.cities), "LOC")
    if name == "country":
        return E([rng.choice(pools.countries)], "LOC")
    if name in ("date", "on_date"):              # a new proposal
        ctx.date, ctx.date_prep = make_date(rng)
        return _with_prep(ctx.date, ctx.date_prep if name == "on_date" else None, "DATE")
    if name in ("date_echo", "on_date_echo"):    # the partner's last proposal (or a new one)
        if not ctx.date:
            ctx.date, ctx.date_prep = make_date(rng)
        return _with_prep(ctx.date, ctx.date_prep if name == "on_date_echo" else None, "DATE")
    if name in ("date_other", "on_date_other"):  # a date that is not the proposal (a clash)
        words, prep = make_date(rng)
        return _with_prep(words, prep if name == "on_date_other" else None, "DATE")
    if name == "past_date":
        return E(make_past_date(rng), "DATE")
    if name == "that_day":                       # anaphoric dates are dates too (seed 004, figure 3)
        return E(rng.choice([["that", "day"], ["that", "week"], ["the", "same", "day"], ["that", "morning"]]),
                 "DATE")
    if name == "daypart":                        # a part of the day as the time of the meeting
        return E(["the", rng.choice(["morning", "afternoon", "evening", "morning", "afternoon"])], "TIME")
    if name == "weekday":
        return E([rng.choice(WEEKDAYS[:5])], "DATE")
    if name == "month":
        return E([rng.choice(MONTHS)], "DATE")
    if name == "time":
        ctx.time = make_time(rng)
        return E(ctx.time, "TIME")
    if name == "time_echo":
        if not ctx.time:
            ctx.time = make_time(rng)
        return E(ctx.time, "TIME")
    if name == "time_other":
        return E(make_time(rng), "TIME")
    if name == "phone":
        ctx.phone = make_phone(rng)
        return E(ctx.phone, "NUM")
    if name == "phone_echo":
        if not ctx.phone:
            ctx.phone = make_phone(rng)
        return E(ctx.phone, "NUM")
    if name == "ext":
        return E(make_ext(rng), "NUM")
    if name == "room":
        return E(cardinal(rng.randint(1, 999)) if rng.random() < 0.6 else digits(str(rng.randint(100, 999))), "NUM")
    if name == "count":       # a count or duration: a number that is NOT an entity
        return E(rng.choice([["two"], ["three"], ["four"], ["five"], ["ten"], ["twenty"], ["one", "or", "two"],
                             ["two", "or", "three"], ["a", "couple", "of"], ["several"], ["a", "few"]]), None)
    if name == "hes":         # an optional hesitation
        return E([rng.choice(HES)], None) if rng.random() < 0.45 else []
    if name == "hes_c":       # an optional hesitation with a comma after it
        return [([rng.choice(HES)], None), ([","], None)] if rng.random() < 0.35 else []
    if name == "fill":        # an optional discourse marker at turn start
        return [([rng.choice(FILLER)], None), ([","], None)] if rng.random() < 0.4 else []
    if name == "date_repair":  # "on Monday uh, on Tuesday": a restart with a hesitation
        first, p1 = make_date(rng)
        ctx.date, ctx.date_prep = make_date(rng)
        return (_with_prep(first, p1, "DATE") + [([rng.choice(HES + ["no", "sorry"])], None), ([","], None)]
                + _with_prep(ctx.date, ctx.date_prep, "DATE"))
    if name == "time_repair":
        first = make_time(rng)
        ctx.time = make_time(rng)
        return [(["at"], None), (first, "TIME"), ([rng.choice(["uh", "no", "sorry", "um"])], None),
                ([",", "at"], None), (ctx.time, "TIME")]
    raise KeyError(f"unknown slot {{{name}}}")


def _with_prep(words: list[str], prep: str | None, label: str) -> list[tuple[list[str], str | None]]:
    return ([([prep], None)] if prep else []) + [(list(words), label)]


def render(template: str, ctx: Context) -> Turn:
    segs: list[tuple[list[str], str | None]] = []
    for tok in template.split():
        m = _SLOT.match(tok)
        if m:
            segs.extend(_slot(m.group(1), ctx))
        else:
            segs.append(([tok], None))
    # merge consecutive O words for compactness; drop a leading comma left by an empty optional slot
    out: list[tuple[list[str], str | None]] = []
    for words, lab in segs:
        if not words:
            continue
        if not out and words[0] == ",":
            words = words[1:]
            if not words:
                continue
        if out and lab is None and out[-1][1] is None:
            out[-1] = (out[-1][0] + words, None)
        else:
            out.append((list(words), lab))
    # no doubled punctuation ("speaking , ." -> "speaking .")
    cleaned: list[tuple[list[str], str | None]] = []
    for words, lab in out:
        if lab is None:
            w2: list[str] = []
            prev_p = cleaned and cleaned[-1][1] is None and cleaned[-1][0] and cleaned[-1][0][-1] in PUNCT
            for w in words:
                if w in PUNCT and ((w2 and w2[-1] in PUNCT) or (not w2 and prev_p)):
                    if w2 and w2[-1] in PUNCT and w != ",":
                        w2[-1] = w
                    continue
                w2.append(w)
            words = w2
            if not words:
                continue
        cleaned.append((words, lab))
    return Turn(cleaned)


# ---------------------------------------------------------------------------------------------- templates
# Each stage lists alternative frames. {date} is a bare date ("how about {date}"), {on_date} brings its own
# preposition ("on Tuesday", "in March", "next week"). Stages run in dialogue order; some are skipped at random.
OPENING_A = [
    "{fill} good morning , {me_title} speaking . I would like to make an appointment for the {fair} fair in {city} .",
    "good morning , this is {me_full} from {my_company} . {hes_c} I am calling about the {fair} fair in {city} .",
    "hello , {me_title} here , from {my_company} in {any_city} . we should meet before the {fair} fair .",
    "hello {you_title} , this is {me_first} . {hes} we still have to arrange our meeting in {city} .",
    "good afternoon , my name is {me_full} . {hes_c} I am phoning to make a date for the {fair} fair in {city} .",
    "{me_title} speaking , good morning . I think we have to talk about the trip to {city} .",
    "hi {you_first} , it is {me_first} from {my_company} . {hes_c} when can we meet about the {fair} fair ?",
    "good morning {you_title} , {me_last} from {my_company} . do you have a minute for the {fair} planning ?",
    "hello , {me_full} speaking . {hes_c} my colleague {third} asked me to call you about {city} .",
    "yes hello , this is {me_title} of {my_company} . we are going to the {fair} fair in {city} as well , I think .",
    "good morning , {me_title} speaking . I am calling because of the meeting in {city} .",
    "hello {you_title} , {me_title} here . how are you ? we wanted to set up a date for {city} .",
    "good morning . this is {me_full} , {my_company} . {hes_c} is this {you_title} ?",
    "{me_title} from {my_company} . good morning . we met at the {any_fair} fair {past_date} .",
    "hello , it is {me_title} again . {hes_c} about our trip to {city} , have you had a look at your calendar ?",
    "good evening {you_title} , sorry to call so late . it is about the {fair} fair .",
]
OPENING_B = [
    "good morning {you_title} . yes , {hes} I was expecting your call .",
    "hello {you_title} , {me_title} here . nice to hear from you .",
    "{fill} yes , good morning . {hes_c} this is {me_full} from {my_company} .",
    "oh , hello {you_first} . yes , {city} , that is right .",
    "good morning . {me_last} speaking . {hes_c} the {fair} fair , yes , of course .",
    "hello , nice to hear from you , {you_title} . how is everything at {your_company} ?",
    "yes , hello {you_title} . {hes_c} my boss {third} told me you would call .",
    "hi , {me_first} here . sure , let us find a date for {city} .",
    "good afternoon {you_title} . {hes} yes , we should really meet before the fair .",
    "{me_title} speaking . oh yes , {you_title} from {your_company} , hello .",
    "yes , speaking . {hes_c} good morning , {you_title} .",
    "ah , {you_title} , good to hear from you . {hes} I was just talking to {third} about you .",
    "hello , yes , {hes} the {fair} . I may have some time , let me get my calendar .",
]
PROPOSE = [
    "{fill} how about {date} ?",
    "would {date} suit you ?",
    "{hes_c} what about {date} , at {time} ?",
    "I would say {date} , or we can say {date_other} ?",
    "can we meet {date_repair} ?",
    "I could come to {city} {on_date} .",
    "let us make a date , {hes} {on_date} perhaps ?",
    "{fill} I think {date} would be best for me .",
    "may I suggest {date} ?",
    "do you have any time {on_date} ?",
    "is {date} possible for you ?",
    "we could meet in {city} {on_date} .",
    "{hes} I am free {on_date} , in {daypart} .",
    "what about meeting in {any_city} instead , say {date} ?",
    "shall we say {date} at {time} ?",
    "how does {date} look for you ?",
    "I have some time {on_date} and {on_date_other} .",
    "one day in {month} , maybe ?",
    "the best would be {date} , if that is okay .",
    "I am back from {country} {on_date_other} , so any day after that .",
    "{fill} we could fly to {city} {on_date} and come back {on_date_other} .",
    "my calendar is quite full , but {on_date} I could meet you .",
    "what do you think about {date} ? or is that too late ?",
    "I would propose {date} , in {daypart} .",
    "{hes_c} we need {count} days , so let us say {on_date} ?",
    "is there any chance to meet {on_date} ?",
]
REJECT = [
    "I am sorry , {on_date_echo} I do not have any time for it . I have another date .",
    "{hes_c} {date_echo} is not good , I would say {date} ?",
    "oh , that is difficult , I am in {any_city} {on_date_echo} .",
    "no , {on_date_echo} I have a meeting with {third} from {company} .",
    "I think it is not good , I would say {date} , or {date_other} ?",
    "{fill} I am afraid I am at the {any_fair} fair {that_day} .",
    "that may be a problem , we have a workshop {on_date_echo} .",
    "hmm , {date_echo} is bad , but what about {date} ?",
    "unfortunately I am on holiday in {country} until {date_other} .",
    "{date_echo} , let me see , {hes} no , I am busy the whole day .",
    "I cannot make it {on_date_echo} , sorry . maybe {on_date} ?",
    "just a second , I have to check my calendar . {hes} no , {date_echo} is already booked .",
    "not {on_date_echo} , I have to fly to {any_city} .",
    "{hes} {that_day} our director {third} visits us from {any_city} .",
    "oh no , that is the day of our board meeting at {my_company} .",
    "I would rather not , {date_echo} is a holiday in {country} .",
    "sorry , {on_date_echo} I am at a congress in {any_city} , and I get back {on_date_other} .",
]
ACCEPT_DATE = [
    "{fill} yes , {date_echo} is okay . let us make a date for {that_day} .",
    "{date_echo} suits me fine .",
    "I think {date_echo} is okay .",
    "okay , {date_echo} . {hes_c} at what time ?",
    "yes , that is fine with me . {date_echo} then .",
    "good , {date_echo} it is . shall we say {time} ?",
    "perfect . I will put {date_echo} in my calendar .",
    "yes , I have nothing {on_date_echo} , so that works .",
    "{hes} {date_echo} , yes , that could work . in {daypart} ?",
    "alright , so we meet {on_date_echo} in {city} .",
    "{date_echo} ? {hes} yes , why not . I will tell {third} .",
    "that is good for me too . let me write it down , {date_echo} .",
    "yes , {date_echo} is great , the hotels in {city} are not so full then .",
]
PROPOSE_TIME = [
    "{fill} shall we say {time} ?",
    "how about {time} ?",
    "I would prefer {time} , if that is possible .",
    "can we meet {time_repair} ?",
    "is {time} too early for you ?",
    "my train arrives at {time} , so we could meet at {time_other} .",
    "{hes} let us say {time} at the station .",
    "I could be there by {time} .",
    "would {time} be convenient ?",
    "what about {time} in the lobby of the hotel ?",
    "we could have lunch together , at {time} maybe .",
    "the fair opens at {time_other} , so let us meet at {time} .",
    "I am free from {time} until {time_other} .",
    "any time after {time} is fine for me .",
    "{fill} is {time} too late for you ?",
    "let us start at {time} , it will take {count} hours .",
]
ACCEPT_TIME = [
    "{time_echo} is fine .",
    "{fill} yes , {time_echo} , good .",
    "{time_echo} , okay , that is perfect .",
    "that is a bit early , {hes} can we make it {time} ?",
    "I have another appointment until {time_other} , so {time} would be better .",
    "okay , {time_echo} {on_date_echo} .",
    "fine , I will be there at {time_echo} .",
    "yes , {time_echo} suits me . {hes_c} and we need {count} hours , I think .",
    "{time_echo} ? yes , why not .",
    "{time_echo} is a little late for me , my flight back is at {time_other} .",
    "good , I will mark it in my calendar , {time_echo} .",
]
PLACE = [
    "where shall we meet ? in your office in {city} ?",
    "we could meet at the hotel near the station in {city} .",
    "my office is in {any_city} , but I can come to {city} .",
    "{hes_c} let us meet at the {fair} fair , at the stand of {my_company} .",
    "I will book a room at the {hotel} hotel in {city} .",
    "we can use the meeting room of {my_company} , room {room} .",
    "shall we go by train or by plane ? {city} is far from {any_city} .",
    "I will fly from {any_city} to {city} {on_date_other} .",
    "the meeting could be in the new building of {my_company} in {city} .",
    "{fill} I know a nice restaurant in {city} , we could talk there .",
    "I will bring {third} from our sales department .",
    "we will be {count} people from {my_company} .",
    "there is a congress in {any_city} , and I would think we get there by plane , {date_other} ?",
    "our stand is in hall {room} , near the main entrance .",
    "I will pick you up at the airport in {city} , if you like .",
    "the train from {any_city} takes {count} hours , so I will come the evening before .",
    "{third} from {company} will join us , I hope that is alright .",
]
SMALLTALK = [
    "how was your trip to {any_city} , by the way ?",
    "{fill} is it still so cold in {city} ?",
    "I was in {country} {past_date} , it was wonderful .",
    "did you see {third} at the {any_fair} fair {past_date} ?",
    "the weather was terrible in {any_city} {past_date} .",
    "oh , and say hello to {third} from me .",
    "how is business at {your_company} ?",
    "I hear {company} is opening an office in {any_city} .",
    "I may be a little late , the trains are always full in {month} .",
    "my daughter lives in {any_city} now , so I go there quite often .",
    "{hes} the last fair was very good for us , we met {count} new customers .",
    "we had {count} visitors from {country} {past_date} .",
    "I spent two weeks in {any_city} in {month} , but it rained a lot .",
    "to be honest , I prefer the fair in {any_city} .",
    "{third} has left {company} , did you know ?",
    "we moved our office to {any_city} {past_date} .",
    "my wife is from {any_city} , so I know the city a little .",
    "have you ever been to {country} ? the food is excellent .",
    "I met {third} in {any_city} , she says hello .",
    "{fill} we are very busy this year , {count} new projects .",
]
CONTACT = [
    "my number is {phone} , extension {ext} .",
    "{fill} you can reach me at {phone} .",
    "if anything changes , call me on {phone} .",
    "my direct line is {phone} .",
    "let me give you my number , it is {phone} .",
    "please call my secretary , {third} , on extension {ext} .",
    "you can also send a fax to {phone} .",
    "the number of the hotel is {phone} , room {room} .",
    "my mobile is {phone} , {hes} I am always on the road .",
    "call the office of {my_company} , {phone} , and ask for {me_title} .",
    "do you have my new number ? it is {phone} .",
    "our office in {any_city} has a new number , {phone} .",
    "{hes_c} I am at extension {ext} until {time_other} .",
    "the booking number is {phone} , just in case .",
]
CONTACT_REPLY = [
    "{phone_echo} , okay , I wrote it down .",
    "sorry , could you repeat that ? {phone_echo} ?",
    "{fill} so that is {phone_echo} . and my number is {phone} .",
    "thank you , I have it . extension {ext} , is that right ?",
    "okay , and you can reach me at {phone} .",
    "one moment , {hes} {phone_echo} , right ?",
    "fine , I have your number .",
    "just a second , I need a pen . yes , {phone_echo} .",
    "thanks . my secretary is {third} , on extension {ext} , if I am not in .",
]
FILLER_TURNS = [
    "yes .",
    "{hes} , let me see .",
    "okay .",
    "just a second , please .",
    "hmm , yes .",
    "sorry , I did not catch that .",
    "one moment , I have to look in my calendar .",
    "right , right .",
    "yes , yes , of course .",
]
CLOSING_A = [
    "so we meet {on_date_echo} at {time_echo} in {city} .",
    "good , then I will see you {on_date_echo} , {you_title} .",
    "{fill} thank you very much , {you_title} . goodbye .",
    "perfect , I will send you a confirmation from {my_company} .",
    "so that is {date_echo} at {time_echo} . I will tell {third} .",
    "thank you , and see you in {city} . bye .",
    "okay , then {date_echo} in {city} . have a nice day .",
    "I will send you the details by email . goodbye {you_first} .",
    "so , to sum up , {date_echo} , {time_echo} , at the {fair} fair in {city} .",
]
CLOSING_B = [
    "yes , okay .",
    "okay , see you then . goodbye {you_title} .",
    "fine , thank you for calling . bye bye .",
    "yes , {date_echo} at {time_echo} , I have written it down . goodbye .",
    "good , see you in {city} , {you_first} .",
    "thank you , and greetings to everybody at {your_company} .",
    "yes , goodbye , and have a good trip .",
    "thank you , {you_title} . I look forward to it .",
]

# (stage name, templates for speaker A, templates for speaker B, probability that the stage happens)
FLOW = [
    ("open", OPENING_A, OPENING_B, 1.0),
    ("propose", PROPOSE, PROPOSE, 1.0),
    ("reject", REJECT, REJECT, 0.75),
    ("filler", FILLER_TURNS, FILLER_TURNS, 0.15),
    ("accept", ACCEPT_DATE, ACCEPT_DATE, 1.0),
    ("time", PROPOSE_TIME, PROPOSE_TIME, 0.85),
    ("time_ok", ACCEPT_TIME, ACCEPT_TIME, 0.85),
    ("place", PLACE, PLACE, 0.7),
    ("small", SMALLTALK, SMALLTALK, 0.5),
    ("contact", CONTACT, CONTACT, 0.8),
    ("contact_reply", CONTACT_REPLY, CONTACT_REPLY, 0.7),
    ("close", CLOSING_A, CLOSING_B, 1.0),
]


def new_context(rng: random.Random, pools: Pools, gender_a: str, gender_b: str) -> Context:
    people = {"A": make_person(rng, pools, gender_a), "B": make_person(rng, pools, gender_b)}
    company = {"A": rng.choice(pools.companies), "B": rng.choice(pools.companies)}
    return Context(rng, pools, people, company, rng.choice(pools.fairs), rng.choice(pools.cities))


def dialogue_templates(rng: random.Random, max_turns: int) -> list[tuple[str, str]]:
    """(role, template) per turn; roles alternate A, B, A, ... starting with A (the caller); at most max_turns
    turns (a cut dialogue loses its end, as a recording that stops)."""
    out: list[tuple[str, str]] = []
    role = "A"
    for name, ta, tb, p in FLOW:
        if name not in ("open", "close") and rng.random() > p:
            continue
        if name == "close":  # whoever speaks next sums up or says goodbye, the other one answers
            stage = [CLOSING_A, CLOSING_B]
        else:
            stage = [ta if role == "A" else tb] * (2 if name in ("propose", "reject", "small", "place")
                                                  and rng.random() < 0.25 else 1)
        for templates in stage:
            out.append((role, rng.choice(templates)))
            role = "B" if role == "A" else "A"
    return out[:max(1, max_turns)]


REPEATABLE = {"I", "we", "the", "so", "can", "it", "that", "is", "and", "my", "we", "you", "how", "what"}


def generate_turn(template: str, role: str, ctx: Context) -> Turn:
    ctx.speaker = role
    turn = render(template, ctx)
    # spontaneous-speech repetitions ("I I think", "we we could") now and then
    if ctx.rng.random() < 0.04:
        for i, (words, lab) in enumerate(turn.segs):
            if lab is None:
                j = next((k for k, w in enumerate(words) if w in REPEATABLE), None)
                if j is not None:
                    turn.segs[i] = (words[:j + 1] + words[j:], None)
                break
    return turn
