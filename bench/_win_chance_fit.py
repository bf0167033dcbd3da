"""Fitting the win-chance models from self-play data (bench/win_chance_training.py ``fit``): logistic
regressions by Newton's method with numpy, written to ``game/games/<game>/winchance.json``."""
import importlib
import json
import os

import numpy as np

# Ridge penalty per position: keeps weights finite where a feature alone separates the outcomes.
# Chosen per game on the training data's reliability table (Miracle's: ``halves`` below, between
# 1e-2, 1e-3 and 1e-4 on 550 matches): Miracle's features are on small scales (a creature is 1/8 of
# "units"), and a stronger penalty left its chances too timid.
RIDGE = {"aquawar": 1e-3, "miracle": 1e-3}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fit_logistic(rows, outcomes, ridge, iterations=30):
    """``{"features", "weights", "bias"}`` of the logistic regression of ``outcomes`` (0/1) on ``rows``
    (dicts of feature -> value)."""
    names = sorted({name for row in rows for name in row})
    x = np.array([[row.get(name, 0.0) for name in names] + [1.0] for row in rows])
    y = np.array(outcomes, dtype=float)
    penalty = ridge * len(rows) * np.eye(len(names) + 1)
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    w = np.zeros(len(names) + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return {"features": names, "weights": [round(float(v), 6) for v in w[:-1]], "bias": round(float(w[-1]), 6)}


def _other_seat(seat):
    return None if seat is None else 1 - seat


def _aquawar_mirrored(view):
    """The spectator's view of the same position with the seats swapped."""
    turned = dict(view, teams=view["teams"][::-1], score=view["score"][::-1], to_move=_other_seat(view["to_move"]),
                  first_mover=_other_seat(view["first_mover"]), winner=_other_seat(view["winner"]))
    turned["rounds"] = [dict(r, winner=1 - r["winner"], first_mover=_other_seat(r["first_mover"])) for r in view["rounds"]]
    return turned


def _aquawar(records, winchance):
    # Every match seen from both seats as well (as Miracle's, below): the host's 51 % of the
    # training matches against 49.8 % of the first held-out run's showed as a host's edge.
    records = records + [
        {"views": [_aquawar_mirrored(v) for v in r["views"]], "final": _aquawar_mirrored(r["final"]),
         "winner": 1 - r["winner"]}
        for r in records
    ]
    rows, outcomes = [], []
    reached = {}
    for record in records:
        rounds = record["final"]["rounds"]
        for view in record["views"]:
            # A match resigned mid-round has no winner of that round to learn from.
            if view["phase"] != "over" and view["round"] <= len(rounds):
                rows.append(winchance.features(view))
                outcomes.append(1.0 if rounds[view["round"] - 1]["winner"] == 0 else 0.0)
        score = [0, 0]
        for played in rounds[:-1]:
            score[played["winner"]] += 1
            wins = reached.setdefault(f"{score[0]}-{score[1]}", [0, 0])
            wins[0] += record["winner"] == 0
            wins[1] += 1
    # Laplace's rule: a score the data rarely reaches still gets a chance strictly between 0 and 1.
    after = {score: round((won + 1) / (n + 2), 6) for score, (won, n) in sorted(reached.items())}
    winchance._MODELS = {"round": fit_logistic(rows, outcomes, RIDGE["aquawar"]), "after": after}
    # The second stage, on the match's outcome: the composition of the first two, recalibrated.
    rows, outcomes = _match_outcomes(records, winchance.match_features)
    return {**winchance._MODELS, "match": fit_logistic(rows, outcomes, RIDGE["aquawar"]), "positions": len(rows) // 2}


def _miracle_models(records, winchance):
    """One model per ``winchance.model_name`` (the deck phase, each range of turns)."""
    groups = {}
    for record in records:
        won = 1.0 if record["winner"] == 0 else 0.0
        for view in record["views"]:
            if view["phase"] != "over":
                rows, outcomes = groups.setdefault(winchance.model_name(view), ([], []))
                row = winchance.features(view)
                # Each position seen from the other seat as well (its features negated, its outcome
                # turned round): the seats differ only in who opens, which the features say, so the
                # model must not learn a host's edge from the matches' chance imbalance (93 at first:
                # the host had won 46 % of them, and the unmirrored model underrated the host by 6 points).
                rows += [row, {name: value if name in winchance.SEATLESS else -value for name, value in row.items()}]
                outcomes += [won, 1.0 - won]
    return {name: fit_logistic(rows, outcomes, RIDGE["miracle"]) for name, (rows, outcomes) in groups.items()}


def _miracle(records, winchance, folds=0):
    models = _miracle_models(records, winchance)
    models["positions"] = sum(1 for r in records for v in r["views"] if v["phase"] != "over")
    if folds:
        models["calibration"] = _cross_fitted_calibration(records, winchance, folds)
        models["calibration_matches"] = len(records)
    return models


def _scored(record, index, winchance):
    """A training match scored as bench/win_chance_calibration.py scores a run's (``report``'s form)
    by the models now in ``winchance``."""
    scored = [(winchance.estimate(view), winchance.baseline(view), index, winchance.uncalibrated(view))
              for view in record["views"] if view["phase"] != "over"]
    return scored, record["winner"] == 0, []


def _cross_fitted_calibration(records, winchance, folds):
    """The isotonic map (bench/win_chance_recalibration.py) of the models' chances on the training
    matches, each fold of them scored by the models fitted on the others: held out, as a fresh match
    would be, without playing more matches for it. Prints the reliability tables it makes."""
    from bench.win_chance_calibration import report
    from bench.win_chance_recalibration import cross_fitted, isotonic, positions

    results = []
    for fold in range(folds):
        winchance._MODELS = _miracle_models([r for i, r in enumerate(records) if i % folds != fold], winchance)
        results += [_scored(records[index], index, winchance) for index in range(fold, len(records), folds)]
    print(f"the models' chances, each of {folds} folds held out:")
    report(results)
    print("\nrecalibrated, cross-fitted:")
    report(cross_fitted(results))
    print()
    return isotonic(positions(results))


def _match_outcomes(records, features):
    """(``features`` of every kept view of a match still going, whether the host won that match)."""
    pairs = [(features(view), 1.0 if record["winner"] == 0 else 0.0)
             for record in records for view in record["views"] if view["phase"] != "over"]
    return [row for row, _ in pairs], [won for _, won in pairs]


def halves(records, folds):
    """神迹之战: the whole fit (with its recalibration on ``folds`` folds) made on each half of the
    training matches and scored on the other half, as a fresh calibration run would score it: what
    choices of the fit (the ridge penalty, the folds) are made on, so that no calibration run is."""
    import contextlib
    import io

    from bench.win_chance_calibration import report

    winchance = importlib.import_module("game.games.miracle.winchance")
    results = []
    for half in (0, 1):
        with contextlib.redirect_stdout(io.StringIO()):  # the folds' own tables are not the point here
            winchance._MODELS = _miracle([r for i, r in enumerate(records) if i % 2 != half], winchance, folds)
        results += [_scored(records[index], index, winchance) for index in range(half, len(records), 2)]
    report(results)


def fit(game, records, folds=0):
    """Fit ``game``'s models on ``records``; with ``folds`` (神迹之战), end them in a recalibration
    cross-fitted on that many folds of the matches."""
    winchance = importlib.import_module(f"game.games.{game}.winchance")
    models = _aquawar(records, winchance) if game == "aquawar" else _miracle(records, winchance, folds)
    models["matches"] = len(records)
    path = os.path.join(ROOT, "game", "games", game, "winchance.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(models, out, indent=1, sort_keys=True)
        out.write("\n")
    print(f"{game}: {models['positions']} positions of {len(records)} matches -> {path}")
