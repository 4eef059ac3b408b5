"""Every kind of explanation, in every language: true, plain, and free of noise (R2, R6-R15).

One nine-player hand is played trick by trick and shows every kind a trick
can be explained as: a reserved first trick with the kitty waiting, reserved
tricks in a row, a pair cancelled above the winner, pairs that decided
nothing (Black Marias among them), plain wins, reserved tricks before a
reserved last one, and a hand whose taker of every collected heart missed the
moon by one heart left with nobody. Beside it: the warnings for illegal
leads, a third copy typed, a bad moon choice under a 52-point house rule, a
player's count over the hand. Each page is read in English, Portuguese,
Spanish, Malay and Norwegian.
"""

import html
import re
from functools import cache

from babel.messages.pofile import read_po
from flask_babel import force_locale

from scorekeeper import rules
from scorekeeper.words.explain import describe
from scorekeeper.words.i18n import CATALOGS, LANGUAGES, hearts_count, marias_count

from .tabletop import ELEVEN, create_game, hidden_fields, post_hand
from .test_tricks import enter_kitty, play_trick

NINE = ELEVEN[:9]  # Ana deals hand 1, so Bo (seat 1) leads it
KITTY = "2♥ 3♥ A♦ K♦ Q♦"
# Bo leads every trick and wins every trick won, so Bo collects 25 hearts and both Black Marias, and
# the reserved last trick leaves A♥ with nobody: 51 points and no moon (R13; R15, decision b).
HAND = [
    "10♠ 10♠ A♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦",   # 1: reserved with one pair, the kitty waits (R9, R12 decisions)
    "9♦ 9♦ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥",    # 2: reserved in a row
    "K♣ A♣ A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣",     # 3: the A♣ cancel above K♣; Bo takes 18 reserved cards and the kitty
    "K♠ Q♠ Q♠ J♥ J♥ 2♠ 3♠ 4♠ 5♠",     # 4: two pairs below K♠, which wins (R9 decision); Black Marias cancelled
    "K♦ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥",     # 5: a plain win with eight hearts
    "A♠ 10♥ Q♥ Q♥ K♥ K♥ A♥ 8♠ 9♠",     # 6: heart pairs cancel off the suit led, and keep their points
    "K♣ 2♣ 3♣ 4♣ 3♦ 4♦ 7♦ 8♦ Q♦",     # 7: a plain win, nothing collected
    "Q♣ 8♣ 9♣ 10♣ 10♣ J♣ J♣ 5♦ 6♦",    # 8: two club pairs below Q♣
    "J♦ J♦ 6♠ 6♠ 7♠ 7♠ 2♠ 3♠ 4♠",     # 9: reserved, and nobody will take it
    "2♦ 2♦ J♠ J♠ 5♠ 8♠ 9♠ K♠ A♠",     # 10: reserved right before the last
    "10♦ 10♦ A♥ Q♣ 5♣ 6♣ 7♣ 8♣ 9♣",    # 11: the reserved last trick (R13)
]
OTHER_LANGUAGES = [language for language in LANGUAGES if language != "en"]
CARD = re.compile(r"^(10|[2-9JQKA])[♠♥♦♣]$")
RULE = re.compile(r"^R\d+$")
NAMED = re.compile(rf"(?<!\w)({'|'.join(NINE)})(?!\w)")
WORD = re.compile(r"[^\W\d_]+(?:[’'-][^\W\d_]+)*")


def read(client, url, language):
    """A page's main content in ``language``, as the browser asks for it."""
    return client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)


def posted(client, url, fields, language):
    return client.post(url, data=fields, headers={"Accept-Language": language}).get_data(as_text=True)


def main_of(page):
    """The page's <main>, without the scripts' data: what a reader reads."""
    found = re.search(r"<main\b.*?</main>", page, flags=re.S)
    return found.group(0) if found else page


BLOCK = re.compile(r"<(p|li|h[1-6]|dt|dd|label|legend|span|caption|th|td|button)\b[^>]*>"
                   r"((?:(?!<(?:p|li|h[1-6]|dt|dd|label|legend|span|caption|th|td|button|div|fieldset|ol|ul)\b).)*?)"
                   r"</\1>", flags=re.S)


def blocks(page):
    """The texts of the paragraphs, list items, labels, headings… of a page's main content, innermost first,
    each without the blocks inside it: one thing said each (a player's name beside their field is one block,
    the error next to it another)."""
    rest, texts = main_of(page), []

    def take(match):
        texts.append(re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", match.group(2)))).strip())
        return " "

    while True:
        rest, found = BLOCK.subn(take, rest)
        if not found:
            return [text for text in texts if text]


def page_text(page):
    return " ".join(blocks(page))


def played_pages(client):
    """Every page of the explanations to check, as {name: {language: html}}: built once for the module's
    tests (the pages are the same whatever app serves them)."""
    if not _PAGES:
        _PAGES.update(_played_pages(client))
    return _PAGES


_PAGES = {}


def _played_pages(client):
    pages = {}

    def keep(name, fetch):
        pages[name] = {language: fetch(language) for language in LANGUAGES}

    def refused(url, fields):
        """``fields`` posted to ``url`` in each language, with the page's hidden fields, refused."""
        fields = {**hidden_fields(client, url), **fields}
        keep(name, lambda language: posted(client, url, fields, language))

    game_id = create_game(client, NINE)
    play = f"/games/{game_id}/play"
    # Before the first trick: a first lead of the Black Maria (R6), and a third copy typed (R2).
    for name, cards in [("lead Q♠ first", "Q♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠"), ("third copy", "K♣ K♣ K♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣")]:
        refused(play, {"number": "1", **{f"cards-{position}": card for position, card in enumerate(cards.split())}})
    for number, cards in enumerate(HAND, start=1):
        assert play_trick(client, game_id, cards, number).status_code == 302, number
        if number <= 3:
            keep(f"after trick {number}", lambda language: read(client, play, language))
        if number == 3:
            assert enter_kitty(client, game_id, KITTY).status_code == 302
    keep("hand over", lambda language: read(client, play, language))
    name = "hand form with 27 hearts"
    refused(f"/games/{game_id}/hands/new", {"number": "1", **{f"takings-{seat}-hearts": "27" if seat == 0 else "0"
                                                              for seat in range(len(NINE))}})
    post = post_hand(client, game_id, [(0, 0), (25, 2)] + [(0, 0)] * 7, reserved=True)
    assert post.status_code == 302, post.get_data(as_text=True)
    keep("trick log", lambda language: read(client, f"/games/{game_id}/hands/1/tricks", language))
    keep("hand correction", lambda language: read(client, f"/games/{game_id}/hands/1", language))

    # Settled on their own, away from a game: R9's reading of two pairs, both ways (R9, decisions).
    for cards in ("10♠ 10♠ 9♥ 9♥ K♠", "10♠ 10♠ 3♦"):
        keep(f"settle {cards}", lambda language: read(client, f"/settle?cards={cards}", language))

    # A heart led before hearts are broken (R8).
    unbroken = create_game(client, NINE)
    assert play_trick(client, unbroken, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1).status_code == 302
    assert enter_kitty(client, unbroken, KITTY).status_code == 302
    name = "lead a heart unbroken"
    refused(f"/games/{unbroken}/play", {"number": "2", **{f"cards-{position}": card for position, card
                                                         in enumerate("K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣".split())}})

    # A 52-point moon that only subtracts: a moon choice it cannot read (R15).
    moon_game = create_game(client, NINE, house_rules={"moon_points": "52", "moon_choice": "subtract"})
    name = "moon choice refused"
    refused(f"/games/{moon_game}/hands/new", {"number": "1", "moon": "sideways", "takings-0-hearts": "26",
                                              "takings-0-marias": "2",
                                              **{f"takings-{seat}-hearts": "0" for seat in range(1, len(NINE))}})
    return pages


@cache
def catalog_words(language):
    """Every word of ``language``'s translations: a word they use is no stray English word there."""
    with open(f"{CATALOGS}/{language}/LC_MESSAGES/messages.po", "rb") as po_file:
        catalog = read_po(po_file, locale=language)
    words = set()
    for message in catalog:
        for text in message.string if isinstance(message.string, (list, tuple)) else [message.string]:
            words.update(word.lower() for word in WORD.findall(re.sub(r"%\(\w+\)\w", " ", text or "")))
    return frozenset(words)


def words_of(text):
    """The words of a text that are language: no name, card, rule number or figure."""
    names = {name.lower() for name in NINE}
    return {word.lower() for word in WORD.findall(text) if word.lower() not in names
            and not CARD.match(word) and not RULE.match(word)}


def zero_counts(app, language):
    """The zero counts of hearts and Black Marias as ``language`` writes them ("0 hearts", "0 copas")."""
    with app.test_request_context(), force_locale(language):
        return {hearts_count(0), marias_count(0)}


def test_each_explanation_names_each_player_once_counts_only_what_there_is_and_gives_the_games_moon(app, client):
    pages = played_pages(client)

    for name, by_language in pages.items():
        for language, page in by_language.items():
            where = f"{name} ({language})"
            text = page_text(page)
            for zero in zero_counts(app, language):
                assert not re.search(rf"(?<![\d.,]){re.escape(zero)}", text), where
            for block in blocks(page):
                named = NAMED.findall(block)
                assert len(named) == len(set(named)), (where, block)
            if name == "moon choice refused":  # this game's moon is worth 52: no 26 in what is said about it
                moon = [block for block in blocks(page) if "52" in block]
                assert moon and not any(re.search(r"(?<!\d)26(?!\d)", block) for block in moon), where


def test_the_explanations_say_what_happened_and_which_decision_settles_it(client):
    pages = {name: page_text(by_language["en"]) for name, by_language in played_pages(client).items()}

    assert "Trick 1 would hold three K♣, but the two decks hold only two of each card (R2)." in pages["third copy"]
    assert "already been played" not in pages["third copy"]
    assert ("The lead is right (the leader held nothing but hearts and Black Marias): enter the trick anyway "
            "(R6, our decision)") in pages["lead Q♠ first"]
    assert ("The lead is right (the leader held nothing but hearts): enter the trick anyway (R8, our decision)"
            in pages["lead a heart unbroken"])
    first = pages["after trick 1"]
    assert ("Only one pair cancelled, yet nobody wins: what counts is that no card of the suit led is left, "
            "not how many pairs there are (R9, our decision).") in first
    assert "The kitty waits with them, for the same player (R12, our decision)." in first
    assert "Bo led this trick and leads the next one too (R10, our decision)." in first
    assert ("The kitty (5 cards face down) waits with 9 reserved cards, no hearts or Black Marias among them face "
            "up (R12, our decision).") in first
    assert "Trick 1 entered: what it decided is above." in first
    assert "Nobody wins: the trick is reserved (R9). Nobody wins" not in first
    assert "9 reserved cards, 0" not in first
    assert "18 reserved cards, 7 hearts among them" in pages["after trick 2"]
    assert ("Bo collects 7 hearts with it, 18 reserved cards included (R11), and takes the kitty, which waited "
            "with them; its cards are not known until it is turned over (R12, our decision).") in pages["after trick 3"]
    assert ("The two A♣ cancel; K♣ is the highest card of the suit led that is left, so it wins (R9)."
            in pages["after trick 3"])
    log = pages["trick log"]
    assert log.count("Read R9 and what follows") == 1
    assert ("Bo collects 9 hearts with it, the kitty and 18 reserved cards included (R11). The kitty waited with "
            "the reserved cards (R12, our decision).") in log
    assert "These cards waited on the table: Bo took them with trick 3 (R11)." in log
    assert "K♠ is the highest card of the suit led, so it wins (R9)." in log
    assert "The two Q♠ and the two J♥ cancel too, but could not have won it anyway (R9)." in log
    assert ("More than one pair cancelled, yet a card of the suit led is left, so it wins: what counts is whether "
            "one is left, not how many pairs there are (R9, our decision).") in log
    assert ("Cancelled cards keep their points: the two Q♠ and the two J♥ score for whoever takes the trick "
            "(R9, our decision).") in log
    assert "Bo collects 2 hearts and 2 Black Marias with it." in log
    assert ("Nobody collects these cards: every trick after this one was reserved, the last one too "
            "(R13, our decision).") in log
    assert "the next player to win a trick takes them too" not in log
    assert ("The last trick was reserved: nobody collects it (R13), nor the cards waiting with it "
            "(R13, our decision).") in log
    assert ("Bo took every heart and Black Maria collected, but 1 heart went to nobody: that is no moon, so they "
            "score 51 as usual (R15, our decision).") in log
    assert "Nobody collected 1 heart (R13)." in pages["hand over"]
    assert ("Bo took every heart and Black Maria collected, but 1 heart went to nobody: that is no moon, so they "
            "score 51 as usual (R15, our decision).") in pages["hand correction"]
    assert ("Ana cannot have taken 27 hearts: a hand holds 26 (R14)." in pages["hand form with 27 hearts"]
            and "Ana: Ana" not in pages["hand form with 27 hearts"])
    assert ("More than one pair cancelled, yet a card of the suit led is left, so it wins: what counts is whether "
            "one is left, not how many pairs there are (R9, our decision).") in pages["settle 10♠ 10♠ 9♥ 9♥ K♠"]
    assert ("Only one pair cancelled, yet nobody wins: what counts is that no card of the suit led is left, "
            "not how many pairs there are (R9, our decision).") in pages["settle 10♠ 10♠ 3♦"]
    moon = pages["moon choice refused"]
    assert "Choose how the moon scores: in this game the shooter subtracts 52 (R15)." in moon
    assert "add 26" not in moon and "subtract 26" not in moon


def test_no_english_word_strays_into_another_languages_explanations(client):
    pages = played_pages(client)

    strays = {}
    for name, by_language in pages.items():
        english = words_of(page_text(by_language["en"]))
        for language in OTHER_LANGUAGES:
            for block in blocks(by_language[language]):
                stray = (words_of(block) & english) - catalog_words(language)
                if stray:
                    strays.setdefault((language, block), (name, sorted(stray)))
    assert not strays, "\n".join(f"{language}, {name}: {block!r} {words}"
                                 for (language, block), (name, words) in strays.items())


# --- Seats and passing ----------------------------------------------------------------


def test_a_seat_change_for_a_later_hand_names_the_next_hand(app):
    with app.test_request_context():
        try:
            rules.seatings(6, [rules.Join(4, 6, 0, 0)], hands=1, target=150)
        except rules.SeatingRefused as refusal:
            message = describe(refusal)

    assert message == "Players can join or leave only before the next hand, hand 2."


def test_the_join_form_offers_each_chair_once_at_a_round_table(client):
    game_id = create_game(client, NINE[:6])

    page = client.get(f"/games/{game_id}/seating").get_data(as_text=True)

    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', re.search(
        r'<select id="join-at".*?</select>', page, flags=re.S).group(0))
    assert [label for _value, label in options] == [f"before {name}" for name in NINE[:6]]
    assert len({value for value, _label in options}) == 6


def test_a_held_hand_says_no_passing_without_a_number_of_cards_to_pass(client):
    game_id = create_game(client, NINE[:7], house_rules={"passing": "hold"})

    text = page_text(client.get(f"/games/{game_id}").get_data(as_text=True))

    assert "No passing this hand is held" in text
    assert "Pass 3 cards" not in text


def test_a_player_leaving_is_named_once_in_what_it_changes(client):
    game_id = create_game(client, NINE[:7])
    post_hand(client, game_id, [(13, 0), (13, 2)] + [(0, 0)] * 5)

    page = client.get(f"/games/{game_id}/seating/leave", query_string={"player": "1"}).get_data(as_text=True)

    assert ("Bo keeps their 39 points and is shown as “left after hand 1”. From hand 2 on, they no longer deal, "
            "pass, end the game or win (R1, R16).") in page_text(page)
