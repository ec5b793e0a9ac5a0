"""`rulesref lint`: everything that can be wrong in a rule pack, one line per problem.

Listed (exit 1), not raised: a rules folder that is not one (RULESREF_RULES at one
game's folder, or at none), a pack folder or file that cannot be read or is malformed
(its first problem: loading stops there), and in a pack that loads, duplicate ids, links
and pages that do not resolve, engine citations of clauses that do not exist, clauses
no scenario exercises, and a phrasing model (rules/ranker.json) that is malformed or
stale. The other commands refuse such a pack with its first fault (corpus.load_game);
lint is where they are all seen.
"""

from __future__ import annotations

import ast
from pathlib import Path

from rulesref import learned
from rulesref.clause import rules_root
from rulesref.corpus import CLAUSE_ID, Game, game_folders, load_game
from rulesref.errors import CorpusError, RulesrefError
from rulesref.games import engine_files, engine_names
from rulesref.referee import check_file, scenario_files

CITING = {"rule", "illegal", "forbidden", "open", "undetermined"}
"""Trail methods whose first argument is a clause id."""
READING = {"choice", "reading", "reading_or_open", "by_reading", "option"}
"""Trail methods whose first argument is a reading id (and the PACG Judge's, which wrap them)."""
WORDED = {"reading", "reading_or_open"}
"""Trail methods whose second argument may word each option of the reading (``{option: says}``)."""
RULE_STEPS = {"rule", "illegal", "forbidden", "legal", "note"}
"""Methods that record a step the printed rules settle (Trail.rule and Trail.illegal, the PACG
Judge's): an open question cited there would present an unsettled question as a rule."""


def lint(scenarios: Path | None = None) -> list[str]:
    """Every problem found, as ``where: what`` lines; an empty list means a clean corpus."""
    problems: list[str] = []
    games, loaded = _every_pack(problems)
    # Coverage rules on scenarios, and a ruling needs every pack sound: against a broken one
    # each scenario would report the pack's fault again, or a clause it lacks as its own.
    sound = loaded and not any(game.faults for game in games)
    ruled = []  # the games whose coverage is checked
    for game in games:
        problems += game.problems
        cites = engine_citations(game)
        problems += cites
        if sound and not cites:  # an engine citing what the pack lacks cannot rule either
            ruled.append(game)
    if loaded:
        problems += phrasing_model(games)
    folder = scenarios if scenarios is not None else Path("scenarios")
    if folder.is_dir():
        for game in ruled:
            problems += coverage(game, folder / game.id)
    elif scenarios is not None:
        raise RulesrefError("scenario folder not found", file=str(scenarios), field="--scenarios")
    return problems


def _every_pack(problems: list[str]) -> tuple[list[Game], bool]:
    """Each pack that loads (faults and all), and whether all did; the others' errors go to ``problems``."""
    try:
        folders = game_folders()
    except CorpusError as exc:  # the rules folder itself: nothing else can be checked
        problems.append(str(exc))
        return [], False
    games = []
    for folder in folders:
        try:
            games.append(load_game(folder, strict=False))
        except CorpusError as exc:
            problems.append(str(exc))
    return games, len(games) == len(folders)


def phrasing_model(games: list[Game]) -> list[str]:
    """A phrasing model (learned.py) that is malformed, or trained on other titles and asks
    than the packs have now: `ask` would rank without it. A rules folder without one is
    fine (a pack of one's own needs none)."""
    try:
        model = learned.read(rules_root())
        if model is None:
            return []
        if not learned.current(model, games):
            return [
                f"{model['file']}: trained on other titles and asks than the packs have now; "
                "`ask` ranks without it until `python bench/ranker.py` trains it again"
            ]
        learned.for_index(model, games)
    except CorpusError as exc:
        return [str(exc)]
    return []


def engine_citations(game: Game) -> list[str]:
    """Clause and reading ids written in the engine's code that do not resolve."""
    topics = {cid.split(".")[0] for cid in game.clauses}
    problems = []
    for path in engine_files(game):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = f"{path.parent.name}/{path.name}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                arg = node.args[0]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    continue
                if node.func.attr in CITING and arg.value not in game.clauses:
                    problems.append(
                        f"{where}:{node.lineno}: engine cites {arg.value!r}, which is not a clause of {game.id}"
                    )
                cited = game.clauses.get(arg.value)
                if node.func.attr in RULE_STEPS and cited is not None and cited.kind == "open":
                    problems.append(
                        f"{where}:{node.lineno}: a rule step cites {arg.value!r}, an open question: "
                        "rest it on a reading (trail.reading) or make it undetermined"
                    )
                if node.func.attr in READING and arg.value not in game.readings:
                    problems.append(
                        f"{where}:{node.lineno}: engine uses reading {arg.value!r}, which {game.id} does not define"
                    )
                elif node.func.attr in WORDED:
                    problems += _worded(game, node, arg.value, where)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if CLAUSE_ID.match(text) and text.split(".")[0] in topics and text not in game.clauses:
                    problems.append(
                        f"{where}:{node.lineno}: {text!r} looks like a clause id of {game.id} but does not resolve"
                    )
    return sorted(set(problems))


def _worded(game: Game, call: ast.Call, reading: str, where: str) -> list[str]:
    """A reading worded option by option must word exactly the options the pack defines, and
    one that refuses the action (``refuse={option: summary}``) refuse only under its options."""
    defined = {o.id for o in game.readings[reading].options}
    refuse = next((k.value for k in call.keywords if k.arg == "refuse"), None)
    refuse = refuse.body if isinstance(refuse, ast.IfExp) else refuse  # refused only where a condition holds
    refused = {k.value for k in refuse.keys if isinstance(k, ast.Constant)} if isinstance(refuse, ast.Dict) else set()
    problems = [
        f"{where}:{call.lineno}: reading {reading!r} refuses under {o!r}, not an option {game.id} defines"
        for o in sorted(map(str, refused - defined))
    ]
    return problems + _options_worded(game, call, reading, where)


def _options_worded(game: Game, call: ast.Call, reading: str, where: str) -> list[str]:
    words = call.args[1] if len(call.args) > 1 else None
    if not isinstance(words, ast.Dict) or not all(isinstance(k, ast.Constant) for k in words.keys):
        return []
    worded = {k.value for k in words.keys if isinstance(k, ast.Constant)}
    defined = {o.id for o in game.readings[reading].options}
    if worded == defined:
        return []
    said = [f"no words for {', '.join(sorted(defined - worded))}"] if defined - worded else []
    said += [f"words for {', '.join(sorted(map(str, worded - defined)))}, not an option"] if worded - defined else []
    return [
        f"{where}:{call.lineno}: reading {reading!r} worded for other options than {game.id} defines: {'; '.join(said)}"
    ]


def cited_by_engine(game: Game) -> set[str]:
    """Clause ids the engine's code names."""
    return engine_names(game) & set(game.clauses)


def coverage(game: Game, folder: Path) -> list[str]:
    """Clauses that no scenario in ``folder`` cites (all of them when the pack asks for it)."""
    if not folder.is_dir():
        return []
    cited: set[str] = set()
    problems = []
    for path, error in scenario_files([folder]):
        if error is not None:
            problems.append(str(error))
            continue
        try:
            ruling = check_file(path)
        except RulesrefError as exc:
            problems.append(str(exc))
            continue
        cited |= {s.clause for s in ruling.steps}
        for n, step in enumerate(ruling.steps, 1):
            # the engine stated a rule no clause states: an open question given as settled
            if step.basis.value == "rule" and game.clauses[step.clause].kind == "open":
                problems.append(f"{path}: step {n} is a rule step citing {step.clause}, an open question")
        if ruling.expect is not None and not ruling.expect.ok:
            problems.append(f"{path}: expectation failed: {'; '.join(ruling.expect.mismatches)}")
    must = set(game.clauses) if game.coverage == "all" else cited_by_engine(game)
    for cid in sorted(must - cited):
        c = game.clauses[cid]
        problems.append(f"{c.file}:{c.line}: {cid}: not cited by any scenario in {folder}")
    return problems
