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
