"""One to 9: players, a seed and strategies in, legal actions, stars and whole games out (RULES.md section 6).

The board has a field per colour and number (4 x 9). On a turn a player
takes exactly one action: 1. play a card and draw (onto its free field: draw
2; onto a taken field: discard it and take a joker card, or a blind card
when none is left; a +3 card: draw 3); 2. lay a short run (4 / 5 / 6-8 in a
row of one colour: 1 / 2 / 3 small stars); 3. lay a foursome (all four
fields of a number: 1 small star); 4. lay a long run 1..9 (small stars of
one's own may stand in for cards): 1 big star. Actions 2-4 must earn a star
and must add at least one card to what they score. Scored cards leave the
board (joker cards back beside it, the rest onto the discard pile) and two
new cards are drawn onto their fields. While a +3 card tops the discard
pile, small-star winners get one more. Three big stars win at once.

printgen's decisions where the texts are silent: an empty draw pile is
refilled from the discard pile except its top card; star supplies never run
out (borrowed markers are counted); a joker card may also be played in
action 1 onto any free field; a game with no winner after MAX_TURNS turns
ends in a stalemate (the board can lock up when complete rows stand on it
that nobody can extend).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from printgen.rules.strategies import per_player

COLOURS = ("red", "yellow", "green", "blue")
NUMBERS = tuple(range(1, 10))
RUN_STARS = {4: 1, 5: 2, 6: 3, 7: 3, 8: 3}
"""Small stars for a short run of each length."""
FOURSOME_STARS = 1
LONG_RUN_BIG_STARS = 1
PLUS3_BONUS = 1
SMALL_STARS = 39
BIG_STARS = 9
JOKER_CARDS = 5
HAND = 5
BOARD_AT_START = 5
REFILL = 2
WIN = 3
MAX_TURNS = 3000

Field = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Card:
    """A card: kind "number" (colour and number), "number-joker" (number), "joker" or "draw3"."""

    kind: str
    number: int | None = None
    colour: str | None = None

    @property
    def name(self) -> str:
        """A file-friendly name such as "red-5", "number-joker-5", "joker", "draw3"."""
        if self.kind == "number":
            return f"{self.colour}-{self.number}"
        return f"{self.kind}-{self.number}" if self.number is not None else self.kind

    def fits(self, place: Field) -> bool:
        """True when this card may stand on field `place` (jokers fit any field)."""
        colour, number = place
        if self.kind == "number":
            return (self.colour, self.number) == (colour, number)
        if self.kind == "number-joker":
            return self.number == number
        return self.kind == "joker"


def deck() -> list[Card]:
    """All 98 cards: 72 number cards (1..9 in four colours, twice), 5 jokers, 9 number jokers, 12 +3 cards."""
    cards = [Card("number", n, c) for c in COLOURS for n in NUMBERS for _ in range(2)]
    cards += [Card("joker") for _ in range(JOKER_CARDS)]
    cards += [Card("number-joker", n) for n in NUMBERS]
    cards += [Card("draw3") for _ in range(12)]
    return cards


DECK = deck()


class ActionKind(Enum):
    """The actions a player can take; DRAW_TWO only with an empty hand."""

    PLAY = "play a card and draw"
    SHORT_RUN = "short run"
    FOURSOME = "foursome"
    LONG_RUN = "long run"
    DRAW_TWO = "draw two (empty hand)"


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action: which hand cards (by index) go to which fields, and what it scores.

    For PLAY, `placements` holds one (index, field) — field None means the card
    is discarded (for a joker card, or a +3 card to draw three).
    """

    kind: ActionKind
    placements: tuple[tuple[int, Field | None], ...] = ()
    scored: tuple[Field, ...] = ()
    small_stars: int = 0
    big_stars: int = 0
    stars_used: int = 0


@dataclass(slots=True)
class Player:
    """A player's hand, stars and turns taken.

    A joker card taken in action 1 ends that turn, so it is first usable on
    the player's next turn, as the rules say, with no extra bookkeeping.
    """

    hand: list[Card] = field(default_factory=list)
    small: int = 0
    big: int = 0
    turns: int = 0


class GameOver(Enum):
    """How a game of One to 9 ended."""

    WON = "3rd big star"
    STALEMATE = "stalemate (turn limit)"


@dataclass(frozen=True, slots=True)
class NineOutcome:
    """A finished game: the winner (None in a stalemate), how it ended, turns, stars and actions used."""

    winner: int | None
    reason: GameOver
    turns: int
    winner_turns: int
    small_stars: tuple[int, ...]
    big_stars: tuple[int, ...]
    actions: dict[ActionKind, int]


class _Hand:
    """A hand sorted for allocation: the indices of its number cards by field, of its number jokers by number
    and of its joker cards, each in hand order (the allocation looks at these up to a hundred times a turn)."""

    __slots__ = ("exact", "jokers", "size", "wild")

    def __init__(self, cards: list[Card]) -> None:
        self.exact: dict[Field, list[int]] = {}
        self.wild: dict[int, list[int]] = {}
        self.jokers: list[int] = []
        self.size = len(cards)
        for index, card in enumerate(cards):
            if card.kind == "number":
                self.exact.setdefault((card.colour, card.number), []).append(index)  # type: ignore[arg-type]
            elif card.kind == "number-joker":
                self.wild.setdefault(card.number, []).append(index)  # type: ignore[arg-type]
            elif card.kind == "joker":
                self.jokers.append(index)

    def allocate(self, missing: list[Field]) -> list[tuple[int, Field]] | None:
        """Hand cards for each missing field: for every field the first card of its own, then for those left
        the first number joker of its number, then the first joker card (each card once); None unless every
        field gets one."""
        if len(missing) > self.size:
            return None
        taken: set[int] = set()
        chosen: list[tuple[int, Field]] = []
        left = []
        for place in missing:
            index = _first_free(self.exact.get(place), taken)
            if index is None:
                left.append(place)
            else:
                chosen.append((index, place))
        waiting = []
        for place in left:
            index = _first_free(self.wild.get(place[1]), taken)
            if index is None:
                waiting.append(place)
            else:
                chosen.append((index, place))
        for place in waiting:
            index = _first_free(self.jokers, taken)
            if index is None:
                return None
            chosen.append((index, place))
        return chosen

    def pick(self, place: Field, used: set[int]) -> int | None:
        """The card for one field, none of `used` (which it then joins): its own card, else a number joker of
        its number, else a joker card; None when there is none."""
        index = _first_free(self.exact.get(place), used)
        if index is None:
            index = _first_free(self.wild.get(place[1]), used)
        if index is None:
            index = _first_free(self.jokers, used)
        return index


def _first_free(indices: list[int] | None, taken: set[int]) -> int | None:
    """The first of `indices` not in `taken`, which it then joins."""
    for index in indices or ():
        if index not in taken:
            taken.add(index)
            return index
    return None


class OneToNine:
    """A game of One to 9 for `players` (2..6) players, reproducible from `seed`."""

    def __init__(self, players: int = 3, seed: int = 0,
                 strategies: str | NineStrategy | Sequence[str | NineStrategy] = "greedy") -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"players must be 2..6, not {players}")
        self.strategies = per_player(strategies, players, NINE_STRATEGIES, NineStrategy)
        self.rng = random.Random(seed)
        self.board: dict[Field, Card] = {}
        self.jokers: list[Card] = [Card("joker") for _ in range(JOKER_CARDS)]
        cards = [c for c in deck() if c.kind != "joker"]
        self.rng.shuffle(cards)
        self.pile = cards
        self.discard: list[Card] = []
        self.small_supply, self.big_supply = SMALL_STARS, BIG_STARS
        self.borrowed_small = self.borrowed_big = 0
        self.refill_board(BOARD_AT_START)
        self.players = [Player() for _ in range(players)]
        for player in self.players:
            player.hand = [card for card in (self.draw() for _ in range(HAND)) if card is not None]
        self.active = 0
        self.turns = 0
        self.actions: Counter[ActionKind] = Counter()
        self.outcome: NineOutcome | None = None

    # -- bookkeeping ---------------------------------------------------------

    def cards_everywhere(self) -> list[Card]:
        """Every card: pile, discard, board, joker supply and hands (always the whole deck)."""
        return [*self.pile, *self.discard, *self.board.values(), *self.jokers,
                *(c for p in self.players for c in p.hand)]

    def stars(self) -> tuple[int, int]:
        """Small and big stars in supplies and with players, less borrowed markers (always 39 and 9)."""
        small = self.small_supply + sum(p.small for p in self.players) - self.borrowed_small
        big = self.big_supply + sum(p.big for p in self.players) - self.borrowed_big
        return small, big

    def plus3_on_top(self) -> bool:
        """True while a +3 card tops the discard pile (its star shows: the small-star bonus applies)."""
        return bool(self.discard) and self.discard[-1].kind == "draw3"

    def draw(self) -> Card | None:
        """The top card of the draw pile, refilling it from the discard pile (except its top) when empty."""
        if not self.pile and len(self.discard) > 1:
            self.pile = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.rng.shuffle(self.pile)
        return self.pile.pop() if self.pile else None

    def refill_board(self, count: int) -> None:
        """Draw cards onto their free fields until `count` are placed; others go to the discard pile.

        Stops, with fewer placed, once every card of the piles has been drawn once without finding a free
        field (all that is left are duplicates, jokers and +3 cards): drawing on would go round for ever.
        """
        placed = 0
        left = len(self.pile) + len(self.discard)
        while placed < count and left > 0:
            card = self.draw()
            left -= 1
            if card is None:
                return
            place = (card.colour, card.number)
            if card.kind == "number" and place not in self.board:
                self.board[place] = card  # type: ignore[index]
                placed += 1
            else:
                self.discard.append(card)

    # -- legal actions -------------------------------------------------------

    def legal_actions(self, player_index: int | None = None) -> list[Action]:
        """Every action the player (default: the active one) may take now."""
        player = self.players[self.active if player_index is None else player_index]
        if not player.hand:
            return [Action(ActionKind.DRAW_TWO)]
        usable = list(range(len(player.hand)))
        hand = _Hand(player.hand)
        actions = self._plays(player, usable)
        actions += self._short_runs(hand)
        actions += self._foursomes(hand)
        actions += self._long_runs(player, hand)
        return actions

    def _plays(self, player: Player, usable: list[int]) -> list[Action]:
        actions = []
        free = [(c, n) for c in COLOURS for n in NUMBERS if (c, n) not in self.board]
        seen: set[tuple[Card, Field | None]] = set()
        for index in usable:
            card = player.hand[index]
            if card.kind == "draw3":
                targets: list[Field | None] = [None]
            elif card.kind == "number":
                targets = [(card.colour, card.number) if (card.colour, card.number) in free else None]  # type: ignore[list-item]
            elif card.kind == "number-joker":
                spots: list[Field | None] = [f for f in free if f[1] == card.number]
                targets = spots or [None]
            else:
                targets = list(free)
            for target in targets:
                if (card, target) not in seen:
                    seen.add((card, target))
                    actions.append(Action(ActionKind.PLAY, ((index, target),)))
        return actions

    def _short_runs(self, hand: _Hand) -> list[Action]:
        actions = []
        board = self.board
        bonus = PLUS3_BONUS if self.plus3_on_top() else 0
        jokers = len(hand.jokers)
        for colour in COLOURS:
            # fields of this colour that only a joker card could fill (no card of their own, no number joker)
            lacking = [0]  # lacking[n]: how many of this colour's fields 1..n only a joker card could fill
            for n in NUMBERS:
                lacking.append(lacking[-1] + ((colour, n) not in board and (colour, n) not in hand.exact
                                              and n not in hand.wild))
            for low in NUMBERS:
                if (colour, low - 1) in board:
                    continue  # not the whole unbroken run
                for high in range(low + 3, min(low + 8, 10)):
                    if lacking[high] - lacking[low - 1] > jokers:
                        break  # this run cannot be laid, nor any longer one from `low`
                    if high - low + 1 == 9 or (colour, high + 1) in board:
                        continue
                    span = [(colour, n) for n in range(low, high + 1)]
                    missing = [f for f in span if f not in board]
                    if not missing:
                        continue
                    placements = hand.allocate(missing)
                    if placements is None:  # (cannot happen: a run's fields are of different numbers, so
                        break               # each is filled by its own card, a number joker or a joker card)
                    stars = RUN_STARS[len(span)] + bonus
                    actions.append(Action(ActionKind.SHORT_RUN, tuple(placements), tuple(span), stars))
                    actions += self._foursome_instead(placements)
        return actions

    def _foursome_instead(self, placements: list[tuple[int, Field]]) -> list[Action]:
        """Placements that complete a run and a foursome at once may score the foursome instead."""
        taken = set(self.board) | {place for _, place in placements}
        found = []
        for number in sorted({place[1] for _, place in placements}):
            quad = tuple((c, number) for c in COLOURS)
            if all(f in taken for f in quad):
                stars = FOURSOME_STARS + (PLUS3_BONUS if self.plus3_on_top() else 0)
                found.append(Action(ActionKind.FOURSOME, tuple(placements), quad, stars))
        return found

    def _foursomes(self, hand: _Hand) -> list[Action]:
        actions = []
        for number in NUMBERS:
            quad = [(c, number) for c in COLOURS]
            missing = [f for f in quad if f not in self.board]
            if not missing:
                continue
            others = sum(f not in hand.exact for f in missing)  # fields a number joker or joker card must fill
            if others > len(hand.wild.get(number, ())) + len(hand.jokers):
                continue
            placements = hand.allocate(missing)
            if placements is not None:
                stars = FOURSOME_STARS + (PLUS3_BONUS if self.plus3_on_top() else 0)
                actions.append(Action(ActionKind.FOURSOME, tuple(placements), tuple(quad), stars))
        return actions

    def _long_runs(self, player: Player, hand: _Hand) -> list[Action]:
        actions = []
        for colour in COLOURS:
            line = [(colour, n) for n in NUMBERS]
            missing = [f for f in line if f not in self.board]
            if not missing:
                continue
            if len(missing) - hand.size > player.small:
                continue  # even the whole hand leaves more fields than the player has small stars
            placements: list[tuple[int, Field]] = []
            used: set[int] = set()
            for place in missing:  # each field in turn takes the best card left for it
                index = hand.pick(place, used)
                if index is not None:
                    placements.append((index, place))
            stars_needed = len(missing) - len(placements)
            if placements and stars_needed <= player.small:  # at least one card from the hand (seed 004)
                actions.append(Action(ActionKind.LONG_RUN, tuple(placements), tuple(line), big_stars=1,
                                      stars_used=stars_needed))
        return actions

    # -- playing -------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out `action` for the active player (it must come from legal_actions)."""
        player = self.players[self.active]
        self.actions[action.kind] += 1
        if action.kind is ActionKind.DRAW_TWO:
            player.hand += [c for c in (self.draw(), self.draw()) if c is not None]
            return
        cards = {index: player.hand[index] for index, _ in action.placements}
        for index in sorted(cards, reverse=True):
            del player.hand[index]
        if action.kind is ActionKind.PLAY:
            self._play_one(player, cards, action)
            return
        for index, place in action.placements:
            assert place is not None
            self.board[place] = cards[index]
        self._score(player, action)

    def _play_one(self, player: Player, cards: dict[int, Card], action: Action) -> None:
        ((index, place),) = action.placements
        card = cards[index]
        if card.kind == "draw3":
            self.discard.append(card)
            player.hand += [c for c in (self.draw() for _ in range(3)) if c is not None]
        elif place is not None:
            self.board[place] = card
            player.hand += [c for c in (self.draw() for _ in range(2)) if c is not None]
        else:
            self.discard.append(card)
            if self.jokers:
                player.hand.append(self.jokers.pop())
            else:
                blind = self.draw()
                if blind is not None:
                    player.hand.append(blind)

    def _score(self, player: Player, action: Action) -> None:
        for _ in range(action.small_stars):
            player.small += 1
            if self.small_supply:
                self.small_supply -= 1
            else:
                self.borrowed_small += 1
        if action.big_stars:
            player.big += action.big_stars
            if self.big_supply >= action.big_stars:
                self.big_supply -= action.big_stars
            else:
                self.borrowed_big += action.big_stars - self.big_supply
                self.big_supply = 0
        player.small -= action.stars_used
        self.small_supply += action.stars_used
        for place in action.scored:
            card = self.board.pop(place, None)
            if card is None:
                continue  # a field a small star stood in for
            (self.jokers if card.kind == "joker" else self.discard).append(card)
        self.refill_board(REFILL)

    def play_turn(self) -> None:
        """The active player takes one action; the game ends at a third big star or the turn limit."""
        if self.outcome is not None:
            raise RuntimeError("the game is over")
        self.turns += 1
        player = self.players[self.active]
        player.turns += 1
        actions = self.legal_actions()
        if actions:
            self.apply(self.strategies[self.active].choose(self, actions, self.rng))
        if len(self.cards_everywhere()) != len(DECK) or self.stars() != (SMALL_STARS, BIG_STARS):
            raise RuntimeError(f"cards or stars were lost: {len(self.cards_everywhere())} cards, stars {self.stars()}")
        if player.big >= WIN:
            self._finish(self.active, GameOver.WON)
        elif self.turns >= MAX_TURNS:
            self._finish(None, GameOver.STALEMATE)
        else:
            self.active = (self.active + 1) % len(self.players)

    def play(self) -> NineOutcome:
        """Play to the end."""
        while self.outcome is None:
            self.play_turn()
        return self.outcome

    def _finish(self, winner: int | None, reason: GameOver) -> None:
        self.outcome = NineOutcome(
            winner, reason, self.turns, self.players[winner].turns if winner is not None else 0,
            tuple(p.small for p in self.players), tuple(p.big for p in self.players), dict(self.actions))


class NineStrategy:
    """How a One to 9 player picks among legal actions."""

    name = "strategy"

    def choose(self, game: OneToNine, actions: list[Action], rng: random.Random) -> Action:
        raise NotImplementedError


class RandomNine(NineStrategy):
    """Any legal action, uniformly."""

    name = "random"

    def choose(self, game: OneToNine, actions: list[Action], rng: random.Random) -> Action:
        return rng.choice(actions)


class GreedyNine(NineStrategy):
    """Big stars first, then the most small stars, else the card that best builds towards runs."""

    name = "greedy"

    def choose(self, game: OneToNine, actions: list[Action], rng: random.Random) -> Action:
        def value(action: Action) -> float:
            if action.kind is ActionKind.LONG_RUN:
                return 1000 - action.stars_used
            if action.small_stars:
                return 100 * action.small_stars - len(action.placements)
            if action.kind is ActionKind.DRAW_TWO:
                return 0
            ((index, place),) = action.placements
            card = game.players[game.active].hand[index]
            if place is None:
                return 2.0 if card.kind == "draw3" else 1.0
            colour, number = place
            neighbours = sum((colour, n) in game.board for n in (number - 2, number - 1, number + 1, number + 2))
            same = sum((c, number) in game.board for c in COLOURS)
            joker_cost = 3.0 if card.kind == "joker" else (1.0 if card.kind == "number-joker" else 0.0)
            return 3.0 + neighbours + 0.5 * same - joker_cost

        values = [value(a) for a in actions]
        best = max(values)
        return rng.choice([a for a, v in zip(actions, values) if v == best])


NINE_STRATEGIES: dict[str, type[NineStrategy]] = {"random": RandomNine, "greedy": GreedyNine}
