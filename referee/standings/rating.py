"""A rating per game kind from the finishing orders (``referee standings --rating``):
openskill's Plackett-Luce model, from the ``rating`` extra (``pip install
'referee[rating]'``), imported only when a rating is asked for. A guide, not a truth: a
few games say little, and the order the games are read in counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class RatingMissing(Exception):
    """openskill is not installed."""


def rate(finishes: Mapping[str, Sequence[Mapping[str, int]]]) -> dict[str, dict[str, dict[str, float]]]:
    """Each game kind's players rated over its games, in the order read: ``finishes``
    gives, per kind, each game's rank by player (1 first; ties share a rank). Each rating
    is openskill's mu and sigma, and its ordinal (mu - 3 sigma: what a leaderboard sorts by)."""
    try:
        from openskill.models import PlackettLuce, PlackettLuceRating
    except ImportError:
        raise RatingMissing from None
    model = PlackettLuce()
    rated: dict[str, dict[str, dict[str, float]]] = {}
    for kind, games in sorted(finishes.items()):
        ratings: dict[str, PlackettLuceRating] = {}
        for ranks in games:
            players = sorted(ranks)
            if len(players) < 2:
                continue
            teams = [[ratings.get(p) or model.rating(name=p)] for p in players]
            for (new,), player in zip(model.rate(teams, ranks=[float(ranks[p]) for p in players]), players):
                ratings[player] = new
        rated[kind] = {p: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
                       for p, r in sorted(ratings.items())}
    return rated
