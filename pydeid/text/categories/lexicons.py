"""Word lists of the sensitive categories (seed 004 appendix A.1; GDPR art. 9 special categories), lower case.

Multi-word entries are space-separated. STRONG lists fire anywhere; WEAK lists (words with an everyday meaning:
"straight", "single", "cold", "liberal") fire only in a statement about a person (see rules.py)."""

from __future__ import annotations


def _set(s: str) -> frozenset:
    return frozenset(x.strip() for x in s.replace("\n", ",").split(",") if x.strip())


# ------------------------------------------------------------------ health: conditions, disabilities, medication
HEALTH_STRONG = _set("""
depression, clinical depression, postnatal depression, anxiety, anxiety disorder, panic attacks, diabetes,
type one diabetes, type two diabetes, type 1 diabetes, type 2 diabetes, cancer, breast cancer, lung cancer,
prostate cancer, skin cancer, bowel cancer, leukaemia, leukemia, lymphoma, melanoma, tumour, tumor, brain tumour,
asthma, copd, bronchitis, bipolar, bipolar disorder, schizophrenia, psychosis, autism, asperger's, aspergers,
adhd, add, ptsd, ocd, hiv, aids, hepatitis, hepatitis c, tuberculosis, epilepsy, seizures, dementia,
alzheimer's, alzheimers, alzheimer's disease, parkinson's, parkinsons, parkinson's disease, multiple sclerosis,
motor neurone disease, als, arthritis, rheumatoid arthritis, osteoporosis, high blood pressure, low blood pressure,
hypertension, heart disease, heart failure, heart attack, heart condition, angina, kidney disease, kidney failure,
liver disease, cirrhosis, migraine, migraines, pneumonia, covid, coronavirus, influenza, flu, celiac disease,
coeliac disease, crohn's disease, crohn's, irritable bowel syndrome, ibs, insomnia, sleep apnoea, sleep apnea,
anorexia, bulimia, an eating disorder, eating disorder, obesity, lupus, fibromyalgia, chronic fatigue syndrome,
me, long covid, cerebral palsy, down syndrome, down's syndrome, dyslexia, dyspraxia, tinnitus, glaucoma,
cataracts, hearing loss, a learning disability, learning disability, learning difficulties, mental illness,
mental health problems, an addiction, addiction, alcoholism, drug addiction, endometriosis, infertility,
sickle cell, sickle cell disease, cystic fibrosis, haemophilia, hemophilia, thyroid problems, an underactive thyroid,
allergies, a peanut allergy, peanut allergy, eczema, psoriasis, chemotherapy, chemo, radiotherapy, dialysis,
insulin, antidepressants, antibiotics, lithium, metformin, methadone, prozac, sertraline, fluoxetine, statins,
warfarin, morphine, painkillers, sleeping pills, steroids, an inhaler, inhaler, antipsychotics, blood thinners,
hiv positive, stroke
""") - {"me", "add", "als", "an inhaler", "inhaler"}
# issue 40: oncology, addiction and recovery, disability aids, sexual and reproductive health, mental health care
HEALTH_STRONG |= _set("""
malignant, malignant tumour, malignant tumor, a malignant tumour, metastatic, metastasised, metastasized,
terminal cancer, stage four cancer, stage 4 cancer, in remission, oncologist, biopsy, mastectomy,
rehab, in rehab, drug rehab, alcohol rehab, rehab clinic, alcoholics anonymous, narcotics anonymous,
aa meetings, methadone clinic, overdose, overdosed, relapsed, withdrawal symptoms, sobriety,
hiv-positive, hiv-negative, hiv+, aids patient, stds, std, sti, chlamydia, herpes, syphilis, gonorrhoea, gonorrhea,
hepatitis b, miscarriage, a miscarriage, stillbirth, ivf, fertility treatment,
wheelchair-bound, wheelchair bound, uses a wheelchair, use a wheelchair, in a wheelchair, paraplegic, quadriplegic,
tetraplegic, amputee, prosthetic leg, prosthetic arm, hearing aid, hearing aids, guide dog, colostomy, pacemaker,
insulin pump, kidney transplant, liver transplant, heart transplant, dialysis,
suicidal, self harm, self-harm, self harming, suicide attempt, nervous breakdown, psychiatric ward, psych ward,
antipsychotic, eating disorder clinic, schizoaffective, borderline personality disorder
""")
# everyday words that are a condition only in a statement about a person ("I am deaf", "I've got a cold")
HEALTH_WEAK = _set("""
deaf, blind, partially sighted, partially deaf, hard of hearing, pregnant, disabled, paralysed, paralyzed,
diabetic, epileptic, autistic, dyslexic, anorexic, asthmatic, depressed, a cold, cold, stroke, a stroke, ms,
an inhaler, inhaler, allergic, the flu, a fever, fever, covid positive, in a wheelchair, a wheelchair user,
wheelchair user, on dialysis, terminally ill, chronically ill, mentally ill, infertile, an alcoholic, alcoholic,
an addict, addict, hiv
""") | _set("wheelchair, crutches, a walking stick, walking stick, therapy, counselling, counseling, a therapist, "
           "therapist, medication, meds, benign, chemo, remission, recovering alcoholic, recovering addict, "
           "detox, sober, custody, separation, kosher, oncology")
HEALTH_CUES = _set("""
suffer from, suffers from, suffered from, suffering from, have, has, had, 've got, got, have got, has got,
diagnosed with, been diagnosed with, treated for, treatment for, living with, lives with, recovering from,
recovered from, take, takes, taking, took, on, prescribed, been prescribed, caught, history of, died of,
died from, dying of, dying from, with, am, 'm, is, 's, are, 're, was, were, been, be, become, became
""")

# ------------------------------------------------------------------ beliefs: religion, philosophy, politics
BELIEF_STRONG = _set("""
christian, christians, catholic, catholics, roman catholic, muslim, muslims, moslem, islam, jewish, jew, jews,
judaism, hindu, hindus, hinduism, buddhist, buddhists, buddhism, sikh, sikhs, sikhism, atheist, atheists, agnostic,
agnostics, protestant, protestants, mormon, mormons, quaker, quakers, evangelical, evangelicals, baptist, baptists,
methodist, methodists, anglican, anglicans, lutheran, lutherans, presbyterian, pentecostal, orthodox christian,
orthodox christians, orthodox jew, orthodox jewish, jehovah's witness, jehovah's witnesses, pagan, pagans, wiccan,
taoist, rastafarian, scientologist, zoroastrian, jain, unitarian, nihilist, born again christian,
communist, communists, socialist, socialists, fascist, fascists, anarchist, anarchists, marxist, marxists,
leftist, leftists, libertarian, libertarians, nazi, neo nazi, trotskyist, maoist, stalinist, republican, republicans,
democrat, democrats, tory, tories, labour party, labor party, conservative party, liberal democrats, lib dems,
lib dem, green party, the greens, social democrat, social democrats, christian democrat, ukip, snp, sinn fein,
brexiteer, remainer, trump supporter, feminist, eco warrior, pro-life, pro-choice, anti-abortion, pro life,
pro choice, communist party, socialist party, republican party, democratic party, labour party
""")
# issue 40: places, rites and observances of a faith (practice reveals the belief)
BELIEF_STRONG |= _set("""
synagogue, the synagogue, mosque, the mosque, gurdwara, the gurdwara, bar mitzvah, bat mitzvah, shabbat,
hijab, a hijab, niqab, burqa, kippah, yarmulke, quran, koran, torah, talmud, bible study, sunday school,
friday prayers, my rabbi, our rabbi, my imam, our imam, our pastor, my pastor, our vicar, my priest, our priest,
holy communion, first communion, baptised, baptized, converted to islam, converted to judaism,
converted to christianity, convert to islam, ramadan fast, fasting for ramadan, my faith, our faith, my religion,
the parish, our parish, congregation, the congregation
""")
BELIEF_WEAK = _set("""
liberal, liberals, conservative, conservatives, labour, labor, green, greens, progressive, left wing,
right wing, far left, far right, centrist, moderate, religious, spiritual, devout, orthodox, church, temple,
mass, halal, pray, praying, prayers, rosary, sabbath
""")
BELIEF_VOTE_CUES = _set("vote, votes, voted, voting, vote for, voted for, votes for, support, supports, "
                        "supported, member of, members of, campaign for, campaigned for, joined")

# ------------------------------------------------------------------ ethnicity, national or ethnic origin
ETHNIC_STRONG = _set("""
hispanic, latino, latina, latinx, caucasian, african american, native american, aboriginal, indigenous, roma,
romani, gypsy, traveller, irish traveller, maori, inuit, sami, cherokee, navajo, sioux, apache, basque, kurdish,
kurd, berber, tamil, punjabi, pashtun, uyghur, uighur, han chinese, zulu, xhosa, yoruba, igbo, hausa, somali,
biracial, mixed race, mixed heritage, afro caribbean, black british, white british, asian british,
british asian, british indian, british pakistani, east asian, south asian, southeast asian, pacific islander,
indo european, turkic, austronesian, creole, mestizo, anglo saxon, slavic, celtic, ashkenazi, sephardic, arab,
arabic, persian
""")
DEMONYMS = _set("""
afghan, albanian, algerian, american, angolan, argentinian, argentine, armenian, australian, austrian, azerbaijani,
bangladeshi, belarusian, belgian, bolivian, bosnian, brazilian, british, bulgarian, burmese, cambodian, cameroonian,
canadian, chilean, chinese, colombian, congolese, croatian, cuban, cypriot, czech, danish, dominican, dutch,
ecuadorian, egyptian, english, eritrean, estonian, ethiopian, fijian, filipino, filipina, finnish, french,
georgian, german, ghanaian, greek, guatemalan, haitian, honduran, hungarian, icelandic, indian, indonesian,
iranian, iraqi, irish, israeli, italian, ivorian, jamaican, japanese, jordanian, kazakh, kenyan, korean,
kosovan, kuwaiti, lao, latvian, lebanese, liberian, libyan, lithuanian, macedonian, malagasy, malaysian, malian,
maltese, mexican, moldovan, mongolian, montenegrin, moroccan, mozambican, namibian, nepali, nepalese,
new zealander, nicaraguan, nigerian, norwegian, pakistani, palestinian, panamanian, paraguayan, peruvian, polish,
portuguese, qatari, romanian, russian, rwandan, saudi, scottish, senegalese, serbian, sierra leonean, singaporean,
slovak, slovenian, south african, spanish, sri lankan, sudanese, swedish, swiss, syrian, taiwanese, tajik,
tanzanian, thai, tibetan, tunisian, turkish, turkmen, ugandan, ukrainian, uruguayan, uzbek, venezuelan,
vietnamese, welsh, yemeni, zambian, zimbabwean, cornish, catalan, asian, african, european, caribbean,
latin american, middle eastern, scandinavian, west indian, north african, west african, east african
""")
ETHNIC_COLOURS = _set("black, white, brown")
ETHNIC_MODIFIERS = _set("half, part, mixed, ethnically, originally, second generation, first generation")
# "a Turkish national": written after reading court judgments (a court rule: detectors.RULE_GROUPS)
ETHNIC_AFTER_COURT = _set("national, nationals, citizen, citizens")
ETHNIC_AFTER = _set("descent, origin, origins, heritage, ancestry, background, roots, extraction, immigrants, "
                    "immigrant, by birth") | ETHNIC_AFTER_COURT

# ------------------------------------------------------------------ sexual life and orientation, gender identity
SEXUAL_STRONG = _set("""
gay, lesbian, lesbians, bisexual, homosexual, heterosexual, asexual, pansexual, demisexual, transgender,
transsexual, transgendered, non binary, non-binary, nonbinary, intersex, genderqueer, gender fluid, genderfluid,
queer, lgbt, lgbtq, travestite, transvestite, cross dresser, hermaphrodite
""")
SEXUAL_WEAK = _set("straight, bi, trans, ace, enby")
# issue 40: coming out and same-sex relationships ("came out" only about a person: families.Sexual)
SEXUAL_STRONG |= _set("came out as gay, came out as lesbian, came out as trans, came out as bisexual, "
                      "coming out as gay, coming out as trans, gay partner, lesbian partner, same sex partner, "
                      "same-sex partner, same sex marriage, gender reassignment, gender transition, pride march")
COMING_OUT = _set("came out, come out, coming out, comes out")

# ------------------------------------------------------------------ marital status
MARITAL_STRONG = _set("married, divorced, widowed, widow, widower, divorcee, remarried, newlywed, newlyweds, "
                      "in a civil partnership, in a relationship, cohabiting")
MARITAL_WEAK = _set("single, separated, engaged, unmarried")
# issue 40: family situation: a break-up, custody, single parenthood, bereavement of a spouse
MARITAL_STRONG |= _set("""
husband left me, wife left me, partner left me, boyfriend left me, girlfriend left me, fiance left me,
left my husband, left my wife, left my partner, divorce, a divorce, the divorce, getting divorced, got divorced,
divorce proceedings, going through a divorce, my ex-husband, my ex husband, my ex-wife, my ex wife, ex-husband,
ex-wife, custody battle, joint custody, shared custody, sole custody, single mum, single mom,
single mother, single dad, single father, single parent, a single parent, my late husband, my late wife,
lost my husband, lost my wife, cheated on me, an affair, having an affair, estranged, estranged husband,
estranged wife, trial separation, restraining order, domestic violence, foster child, foster parents,
foster care
""")

# ------------------------------------------------------------------ profession and employment status
PROFESSIONS = _set("""
lawyer, solicitor, barrister, attorney, judge, paralegal, doctor, gp, surgeon, physician, nurse, midwife, paramedic,
dentist, pharmacist, physiotherapist, therapist, psychologist, psychiatrist, counsellor, counselor, vet, veterinarian,
optician, carer, caregiver, care worker, social worker, police officer, policeman, policewoman, police, cop,
detective, firefighter, fireman, soldier, sailor, pilot, flight attendant, teacher, lecturer, professor, teaching
assistant, tutor, headteacher, head teacher, headmaster, principal, researcher, scientist, engineer, architect,
accountant, bookkeeper, auditor, banker, cashier, clerk, receptionist, secretary, administrator, manager, director,
consultant, analyst, economist, programmer, developer, software developer, software engineer, web developer,
data scientist, designer, electrician, plumber, carpenter, joiner, builder, bricklayer, plasterer, painter,
decorator, mechanic, welder, technician, labourer, laborer, farmer, gardener, fisherman, chef, cook, baker, butcher,
waiter, waitress, bartender, barista, cleaner, housekeeper, janitor, caretaker, driver, taxi driver, bus driver,
truck driver, lorry driver, delivery driver, courier, postman, postwoman, shop assistant, sales assistant,
salesman, saleswoman, estate agent, real estate agent, hairdresser, barber, beautician, journalist, reporter,
editor, writer, author, translator, interpreter, photographer, artist, musician, actor, actress, dancer, singer,
librarian, priest, vicar, imam, rabbi, minister, civil servant, politician, entrepreneur, shopkeeper,
security guard, bouncer, miner, factory worker, warehouse worker, student, housewife, househusband, stay at home mum,
stay at home dad, nanny, childminder, tailor, jeweller, optometrist, surveyor, pharmacy technician,
dental nurse, lab technician, construction worker, civil engineer, mechanical engineer, it consultant
""")
PROFESSION_MODIFIERS = _set("""
primary, secondary, high, school, nursery, music, maths, math, english, science, art, history, software, web, data,
civil, mechanical, electrical, chemical, structural, senior, junior, head, chief, assistant, trainee, qualified,
registered, staff, agency, bus, taxi, truck, lorry, delivery, van, train, tram, police, social, care, dental,
medical, legal, family, criminal, tax, bank, sales, retail, shop, office, project, account, marketing, hr, it,
construction, factory, farm, hospital, kitchen, hotel, restaurant, research, lab, security, airline, flight,
freelance, self employed, part time, full time, theatre, ward, district, community, mental, health, veterinary,
divorce, property, insurance
""")
EMPLOYMENT = _set("retired, unemployed, self employed, self-employed, jobless, out of work, between jobs, "
                  "on benefits, redundant, laid off, a pensioner, pensioner, semi retired, semi-retired")
PROFESSION_CUES = _set("""
work as, works as, worked as, working as, job as, career as, trained as, training as, qualified as,
retrained as, employed as, my job is, job is, profession is, occupation is, by profession, by trade
""")

# ------------------------------------------------------------------ credentials
CREDENTIAL_CUES = _set("""
password, passwords, pass word, passcode, pass code, passphrase, pin, pin number, pin code, cvv, cvc, cvv2,
security code, access code, access word, secret word, secret code, login, log in, unlock code, door code,
alarm code, safe code, combination
""")
CREDENTIAL_NOT_VALUE = _set("""
not, no, the, a, an, my, your, his, her, their, our, on, in, at, still, also, too, very, case, being, required,
needed, changed, reset, expired, locked, blocked, same, different, written, saved, stored, somewhere, what,
something, wrong, incorrect, invalid, right, weak, strong, easy, hard, long, short, secret, forgotten, lost, new,
old, correct, working, there, here, it, this, that, printed, shown, sent, missing, empty, blank, simple,
complicated, safe, secure, useless, fine, ok, okay, nothing, unknown, asking, needed, mandatory, optional
""")
CREDENTIAL_REJECT_IN = _set("digits, digit, characters, character, letters, letter, numbers, symbols, long, "
                            "minimum, maximum, least, most, ago")
CREDENTIAL_STOP = _set("and, but, so, okay, ok, please, thanks, thank, right, alright, if, because, for, which, "
                       "then, now, yes, yeah, sorry, or, don't, dont, do, never, remember")

# ------------------------------------------------------------------ street addresses
STREET_SUFFIXES = _set("""
street, st, road, rd, avenue, ave, lane, ln, drive, close, way, boulevard, blvd, place, court, crescent,
terrace, walk, grove, gardens, square, row, parade, mews, rise, circle, highway, parkway, hill, green, vale,
view, wharf, quay, yard, end, park
""")
ADDRESS_CUES = _set("live at, lives at, living at, live on, lives on, living on, address is, moved to, "
                    "staying at, stay at, send it to, deliver to, deliver it to, post it to")

# ------------------------------------------------------------------ transactions
TRANSACTION_CUES = _set("""
paid, pay, pays, paying, received, receive, receives, got paid, charged, charge, charges, bought, buy, sold, sell,
transferred, transfer, sent, send, owe, owes, owed, spent, spend, spends, cost me, costs me, balance, loan,
mortgage, salary, earn, earns, earned, earning, wage, wages, income, withdrew, withdraw, withdrawn, deposited,
deposit, refunded, refund, lent, lend, borrowed, borrow, wired, debt, overdraft, rent is, fined, won, inherited,
invoice, invoiced, bill was, donated, tip, tipped
""")
CURRENCY_WORDS = _set("euro, euros, dollar, dollars, pound, pounds, quid, bucks, buck, cent, cents, pence, p, "
                      "yen, franc, francs, rupees, rupee, pesos, peso, grand, sterling, usd, eur, gbp")

# ------------------------------------------------------------------ person statements
# words that may stand between a copula and the category word ("I am a practising Christian", "I'm happily married")
FILLERS = _set("""
a, an, very, really, quite, still, now, currently, also, just, only, fully, newly, recently, happily, unhappily,
proudly, openly, lifelong, staunch, practising, practicing, devout, committed, proud, strict, nearly, almost, about,
over, under, legally, officially, actually, definitely, always, never, both, all, probably, basically, kind of,
sort of, partly, part, former, qualified, trained, registered, self, semi, full, time, freelance, long, time
""")
# who a statement is about: pronoun subjects, and possessive noun phrases ("my wife is", "his father was")
COPULAS = _set("am, 'm, is, 's, are, 're, was, were, been, be, being, become, became, becomes, turned, turning, "
               "got, get, gets, getting, stay, stays")
SUBJECTS = _set("i, he, she, we, they, you, who, i'm, he's, she's, we're, they're, you're, im, hes, shes, "
                "were, theyre, youre, i've, i'd, i'll, we've, they've, you've, it's")
POSSESSIVES = _set("my, his, her, our, their, your")
SELF_VERBS = _set("""
consider myself, considers himself, considers herself, identify as, identifies as, identified as, came out as,
come out as, coming out as, raised, brought up, born, describe myself as, describes herself as,
describes himself as, registered as, see myself as
""")

# sub-classes a surrogate stays within (a medication is replaced by a medication, a party by a party)
HEALTH_TREATMENTS = _set("""
chemotherapy, chemo, radiotherapy, dialysis, insulin, antidepressants, antibiotics, lithium, metformin, methadone,
prozac, sertraline, fluoxetine, statins, warfarin, morphine, painkillers, sleeping pills, steroids, antipsychotics,
blood thinners
""")
POLITICS = _set("""
communist, communists, socialist, socialists, fascist, fascists, anarchist, anarchists, marxist, marxists,
leftist, leftists, libertarian, libertarians, nazi, neo nazi, trotskyist, maoist, stalinist, republican, republicans,
democrat, democrats, tory, tories, labour party, labor party, conservative party, liberal democrats, lib dems,
lib dem, green party, the greens, social democrat, social democrats, christian democrat, ukip, snp, sinn fein,
brexiteer, remainer, trump supporter, feminist, eco warrior, liberal, liberals, conservative, conservatives, labour,
labor, green, greens, progressive, left wing, right wing, far left, far right, centrist, moderate
""")
