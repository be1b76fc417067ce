"""Secret's short notation for ``cardmind advise``: a plugin game brings its own, as the built-in
games do (``Game.shorthand()``).

Forms: ``S asks T CARD yes|no`` and ``S guesses CARD right|wrong``.
"""

from __future__ import annotations

from cardmind.shorthand import Form, Shorthand, ShorthandError, cards_of, seat_of, tokens

from .state import deck


class SecretShorthand(Shorthand):
    """One line per ask or guess."""

    forms = (
        Form("S asks T CARD yes|no", "seat S asked seat T whether it holds CARD; the answer", "0 asks 1 3S no"),
        Form("S guesses CARD right|wrong", "seat S guessed that the secret is CARD; whether it was", "1 guesses 4S wrong"),
    )

    def parse(self, line, state):
        w = tokens(line)
        n = state.num_seats
        if len(w) == 5 and w[1] == "asks":
            answer = {"yes": True, "no": False}.get(w[4])
            if answer is None:
                raise ShorthandError(f"expected yes or no at the end, not {w[4]!r}, for example '0 asks 1 3S no'")
            return [{"type": "ask", "asker": seat_of(w[0], n, "the asker"), "target": seat_of(w[2], n, "the seat asked"),
                     "card": cards_of([w[3]], "the ask")[0], "has": answer}]
        if len(w) == 4 and w[1] == "guesses":
            right = {"right": True, "wrong": False}.get(w[3])
            if right is None:
                raise ShorthandError(f"expected right or wrong at the end, not {w[3]!r}, for example '1 guesses 4S wrong'")
            return [{"type": "guess", "player": seat_of(w[0], n, "the guesser"), "card": cards_of([w[2]], "the guess")[0],
                     "correct": right}]
        raise ShorthandError("expected 'S asks T CARD yes|no' or 'S guesses CARD right|wrong', for example "
                             "'0 asks 1 3S no'")

    def line_for(self, events, state):
        ev = events[0]
        if ev["type"] == "ask":
            return f"{ev['asker']} asks {ev['target']} {ev['card']} {'yes' if ev['has'] else 'no'}", 1
        return f"{ev['player']} guesses {ev['card']} {'right' if ev['correct'] else 'wrong'}", 1

    def prompt(self, state):
        t = state.to_move()
        who = "your turn" if t == state_observer(state) else f"seat {t}'s turn"
        return f"{who}: ask or guess"

    def words(self, state):
        return ["asks", "guesses", "yes", "no", "right", "wrong"] + [str(s) for s in range(state.num_seats)] \
            + list(deck(state.options))


def state_observer(state) -> int | None:
    """The seat whose view ``state`` is (the one hand it knows)."""
    known = [s for s, h in enumerate(state.hands) if h is not None]
    return known[0] if len(known) == 1 else None
