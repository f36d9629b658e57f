"""Word lists for spoken numbers, dates and times (English), shared by the grammars and the digit replacer."""

from __future__ import annotations

DIGIT_WORDS = {"zero": 0, "oh": 0, "o": 0, "nought": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
               "six": 6, "seven": 7, "eight": 8, "nine": 9}
TEEN_WORDS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
              "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS_WORDS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
              "ninety": 90}
REPEAT_WORDS = {"double": 2, "triple": 3}
SCALE_WORDS = {"hundred": 100, "thousand": 1000, "million": 10 ** 6, "billion": 10 ** 9}
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
MONTH_ABBR = {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RELATIVE_DAYS = {"today", "tomorrow", "yesterday", "tonight"}
DATE_UNITS = {"week", "month", "year", "weekend", "morning", "afternoon", "evening"}
RELATIVE_MODIFIERS = {"next", "last", "this", "coming"}
# the words around the unit of a relative date or duration ("the ENTIRE week", "a week FROM now"): kept by its
# surrogate, they name nothing (strategies.shapes.is_relative; generate.closed_words)
RELATIVE_GLUE = frozenset({
    "from", "now", "ago", "later", "same", "rest", "whole", "entire", "half", "every", "each", "other", "within",
    "over", "during", "upcoming", "following", "previous", "past", "current", "after", "before", "in", "for", "of",
    "the", "that", "this", "a", "an", "and", "couple", "few", "several", "next", "last", "coming", "early", "late",
    "end", "beginning", "middle", "start", "until", "till"})
DAYPARTS = {"morning", "afternoon", "evening", "night"}
CLOCK_WORDS = {"noon", "midnight", "midday"}
AMPM = {"am", "pm", "a.m.", "p.m.", "a.m", "p.m"}
CURRENCY_WORDS = {"dollar", "dollars", "euro", "euros", "pound", "pounds", "cent", "cents", "pence", "bucks",
                  "mark", "marks", "yen", "francs", "franc"}
NUMBER_CONTEXT = {"number", "numbers", "phone", "telephone", "fax", "pin", "id", "account", "card", "extension",
                  "ext", "room", "flight", "code", "zip", "postcode", "member", "reference", "ticket", "booking",
                  "order", "passport", "licence", "license", "social", "security", "mobile", "cell"}
TLDS = {"com", "org", "net", "de", "fr", "uk", "edu", "gov", "io", "co", "eu", "info", "biz", "us"}


def ordinal_words() -> set[str]:
    words = set(ORDINALS)
    for tens in ("twenty", "thirty"):
        for o in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"):
            words.add(f"{tens}-{o}")
    return words


ORDINAL_WORDS = ordinal_words()

# Classes used when a number word is replaced by a random member of its own class (same length of digits).
DIGIT_CLASS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEEN_CLASS = list(TEEN_WORDS)
TENS_CLASS = list(TENS_WORDS)

# Words of an entity that do not identify anyone (function words, clock and number structure, honorifics): a leak
# check does not count them, and a surrogate may share them with its original ("half past ten" -> "half past two")
NON_IDENTIFYING = frozenset({
    "the", "of", "a", "an", "and", "in", "on", "at", "to", "past", "half", "quarter", "o'clock", "am", "pm", "area",
    "code", "double", "triple", "point", "hundred", "thousand", "dollars", "dollar", "euros", "euro", "cents",
    "mister", "misses", "miss", "mr", "mrs", "ms", "doctor", "dr", "professor", "prof", "sir", "madam", "next",
    "this", "that", "last", "after", "before", "day", "week", "month", "year", "morning", "afternoon", "evening",
    "night", "lunch", "time", "extension", "ext", "number", "dot", "weekend", "fortnight", "ago", "sharp",
    "days", "weeks", "months", "years", "hours", "minutes", "www"}) | frozenset(TLDS)   # the shape of an address


# generic heads of an organisation's name: its structure, kept by a surrogate ("City Tavern" -> "Moran Tavern")
ORG_HEADS = frozenset({
    "restaurant", "house", "tavern", "inn", "store", "shop", "cafe", "café", "coffee", "bar", "grill", "pub", "hotel",
    "bank", "court", "tribunal", "council", "company", "ltd", "inc", "llc", "plc", "group", "university",
    "college", "school", "hospital", "church", "club", "bakery", "pizza", "pizzeria", "kitchen", "diner", "lounge",
    "market", "pharmacy", "library", "museum", "theatre", "theater", "cinema", "services", "service", "solutions",
    "systems", "bistro", "steakhouse", "brewery", "brewing", "bar-b-q", "bbq", "barbecue", "deli", "seafood",
    "steak", "burger", "burgers", "sushi", "noodle", "noodles", "taqueria", "cantina", "trattoria", "brasserie",
    "saloon", "creamery", "doughnuts", "donuts", "bagels", "chophouse", "crown", "appeal", "department",
    "ministry", "agency", "office", "authority", "police", "borough", "association", "society", "foundation",
    "institute", "centre", "center", "partners", "associates", "solicitors", "limited", "corporation", "corp",
    "international", "industries", "holdings", "and", "&", "of", "the", "at", "on", "theatres", "theaters",
    "cinemas", "cineplex"})     # a line of business ("Travel", "Energy") narrows a company down: redrawn


# generic heads of a place's name ("Sandy Point National Wildlife Refuge" -> "Moran National Wildlife Refuge")
LOC_HEADS = frozenset({"national", "park", "island", "islands", "wildlife", "refuge", "marine", "forest", "lake",
                       "river", "beach", "bay", "county", "mountain", "mountains", "valley", "reserve", "monument",
                       "canyon", "falls", "springs", "state", "nature", "historic", "site", "reservation", "sanctuary",
                       "preserve", "recreation", "wilderness", "seashore", "conservation", "of", "the", "and"})


def structure_words(typ: str | None) -> frozenset:
    """Words a generated value of type `typ` keeps as its structure, identifying no one within that type: street
    suffixes of an ADDRESS ("twelve Baker Street" -> "forty Oak Street"), "years old" of an AGE, the currency of a
    TRANSACTION, the generic head of an ORG ("Tavern", "Crown Court"). Only within the type: "Green" of a PER is a name."""
    if typ == "ADDRESS":
        from .categories.lexicons import STREET_SUFFIXES
        return frozenset(STREET_SUFFIXES)
    if typ == "AGE":
        return frozenset({"years", "year", "old", "aged", "age"})
    if typ in ("TRANSACTION", "AMOUNT"):
        return frozenset(CURRENCY_WORDS)
    if typ == "ORG":
        return ORG_HEADS
    if typ in ("LOC", "GPE", "FAC"):
        return LOC_HEADS
    return frozenset()


def identifying(tokens, typ: str | None = None) -> set[str]:
    """The lower-cased tokens that identify: a letter or digit, not in NON_IDENTIFYING nor a structure word of the
    type `typ`."""
    out = set()
    skip = structure_words(typ)
    for t in tokens:
        low = t.lower()
        if any(c.isalnum() for c in low) and low not in NON_IDENTIFYING and low not in skip:
            out.add(low)
    return out
