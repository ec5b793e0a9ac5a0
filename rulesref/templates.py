"""What an installed rulesref carries to learn `check` from: templates, examples, schemas, docs.

A pip user has no checkout: no scenarios/ folder, no docs/. So the package ships
- ``templates/``: one ready-to-edit scenario per common dispute (`rulesref new TOPIC`),
  each with comments saying what to change, and checking cleanly as shipped;
- ``examples/``: a few worked scenarios copied from scenarios/, each with its ``expect``
  block (`rulesref examples`, `rulesref check --example NAME`);
- ``schemas/``: the JSON Schemas of the scenario and rule formats (`rulesref schema GAME`);
- ``docs/``: the scenario format pages (put there by the wheel build; in a checkout
  they are read from docs/ at the top of the repository).

Everything is found next to this file, as the rule packs are (clause.rules_root).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesref.errors import RulesrefError, UnknownNameError, did_you_mean, shorten

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
EXAMPLES = HERE / "examples"
SCHEMAS = HERE / "schemas"

MODELINE = "# yaml-language-server: $schema="
"""The first line of every template: editors running yaml-language-server (VS Code's YAML
extension, Neovim, Helix...) validate the file against the schema it names."""


@dataclass(frozen=True)
class Topic:
    """One kind of dispute `rulesref new` has a template for."""

    name: str
    game: str
    about: str
    aliases: tuple[str, ...] = ()

    @property
    def file(self) -> Path:
        return TEMPLATES / f"{self.name}.yaml"


HVDA, PACG = "houses-vs-dark-arts", "pacg"

TOPICS: tuple[Topic, ...] = (
    Topic("move", HVDA, "a pawn's move with a movement card: points, steps, backtracking", ("explore",)),
    Topic("walls", HVDA, "castle walls and obstacles between spaces", ("wall", "obstacle", "obstacles")),
    Topic("split", HVDA, "a split card (3+3): one pawn or two sharing it"),
    Topic("stun", HVDA, "a House pawn ends on a Dark Arts pawn: both stunned, where it goes"),
    Topic("bump", HVDA, "a Dark Arts pawn ends on a House pawn: Great Hall, Marker, acquisition"),
    Topic("bonus", HVDA, "a pawn ends its move on a bonus space (acquire, draw, another turn)"),
    Topic("fly-off", HVDA, "Fly Off Points and Secret Passageways", ("passage", "passageway", "secret-passageway")),
    Topic("replenish", HVDA, "a Replenish: discard, draw up to five, revive, the Marker advances"),
    Topic("victory", HVDA, "a victory check: has the Dark Arts won?", ("win",)),
    Topic("encounter", PACG, "a PACG encounter: its checks and who plays what on them", ("plays", "play")),
    Topic("evasion", PACG, "evading a card in an encounter: who may, and when", ("evade",)),
    Topic("avenge", PACG, "another local character avenges an undefeated bane", ("avenging",)),
    Topic("villain", PACG, "a villain: guarding, closing the location, escape or a win", ("guard",)),
)


def topics(game: str | None = None) -> list[Topic]:
    """The topics, in play order; only one game's when ``game`` (an id) is given."""
    return [t for t in TOPICS if game is None or t.game == game]


def find_topic(name: str, game: str | None = None) -> Topic:
    """A topic by name or alias (case-insensitive); ``game`` (an id), when given, must be its game."""
    wanted = name.strip().lower()
    for topic in TOPICS:
        if wanted == topic.name or wanted in topic.aliases:
            if game is not None and topic.game != game:
                raise UnknownNameError(
                    f"topic {topic.name!r} is about {topic.game}, not {game}",
                    hint=f"{game} topics: {', '.join(t.name for t in topics(game))}",
                )
            return topic
    names = [n for t in topics(game) for n in (t.name, *t.aliases)]
    raise UnknownNameError(
        f"unknown topic {shorten(name, 40)!r}",
        hint=did_you_mean(wanted, names) or "see `rulesref new --list`",
    )


def template_text(topic: Topic) -> str:
    """The topic's template, its schema line pointing at the schema installed with rulesref.

    The file as stored points at ``../schemas/GAME.schema.json``, which resolves inside the
    package; a copy written elsewhere needs the installed file's absolute path instead.
    """
    text = topic.file.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    if not first.startswith(MODELINE):  # a template without it is a packaging fault: the test says so
        return text
    return f"{MODELINE}{schema_ref(topic.game)}\n{rest}"


def schema_ref(game: str) -> str:
    """How a scenario's schema line names the installed schema of ``game``.

    An absolute path, which yaml-language-server reads as it is; a modeline ends at the first
    space, so a path with whitespace in it (a Windows user folder) is written as a file: URI.
    """
    path = schema_file(game)
    return path.as_uri() if any(c.isspace() for c in str(path)) else str(path)


def schema_file(game: str) -> Path:
    """The shipped JSON Schema of ``game``'s scenarios (a game id)."""
    path = SCHEMAS / f"{game}.schema.json"
    if not path.is_file():
        raise RulesrefError(f"rulesref ships no scenario schema for {game}", field="GAME")
    return path


def schema_document(game: str) -> dict[str, Any]:
    """``game``'s scenario schema as one self-contained document.

    A schema may point into a sibling file (``houses-vs-dark-arts-turns.schema.json#/...``).
    Printed alone it could not be resolved, so each file it points to is embedded under
    ``$defs``, keeping its own ``$id``: JSON Schema 2020-12 resolves such a reference to the
    embedded copy (a "compound schema document").
    """
    root = _load_schema(schema_file(game))
    embedded: dict[str, Any] = {}
    pending = _external_refs(root)
    while pending:  # bounded: each sibling file is embedded once, and there are only so many
        name = pending.pop()
        if name in embedded or name == root.get("$id"):
            continue
        path = SCHEMAS / name
        if "/" in name or "\\" in name or not path.is_file():
            raise RulesrefError(f"the {game} schema refers to {name!r}, which rulesref does not ship", field="GAME")
        embedded[name] = _load_schema(path)
        pending |= _external_refs(embedded[name])
    if embedded:
        root.setdefault("$defs", {}).update(embedded)
    return root


def schema_json(game: str) -> str:
    return json.dumps(schema_document(game), indent=2, ensure_ascii=False) + "\n"


def _load_schema(path: Path) -> dict[str, Any]:
    loaded = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(loaded, dict):
        raise RulesrefError("a shipped schema is not a JSON object", file=str(path))
    return loaded


def _external_refs(schema: Any) -> set[str]:
    """The file names that ``$ref`` values in ``schema`` point into (``file.json#/...``)."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                found.add(ref.split("#", 1)[0])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


@dataclass(frozen=True)
class Example:
    """A worked scenario shipped with rulesref, by its file name."""

    name: str
    game: str
    title: str
    file: Path


def examples() -> list[Example]:
    """The shipped example scenarios, sorted by game, then name."""
    from rulesref.source import load_yaml

    found = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data = load_yaml(path).data
        found.append(Example(path.stem, str(data.get("game", "")), str(data.get("title", "")), path))
    return sorted(found, key=lambda e: (e.game, e.name))


def find_example(name: str) -> Path:
    """The file of a shipped example, by name (``NAME`` or ``NAME.yaml``)."""
    wanted = name.strip().lower().removesuffix(".yaml")
    names = [p.stem for p in EXAMPLES.glob("*.yaml")]
    if wanted in names:
        return EXAMPLES / f"{wanted}.yaml"
    raise UnknownNameError(
        f"unknown example {shorten(name, 40)!r}",
        field="--example",
        hint=did_you_mean(wanted, names) or "see `rulesref examples`",
    )


def docs_file() -> Path | None:
    """The scenario format's main page: in the installed package, else in the checkout."""
    for candidate in (HERE / "docs" / "scenarios.md", HERE.parent / "docs" / "scenarios.md"):
        if candidate.is_file():
            return candidate
    return None


def write_new(text: str, output: Path, *, force: bool) -> None:
    """Write a new scenario to ``output``; an existing file is kept unless ``force``."""
    name = str(output)
    if force and output.exists() and not output.is_file() and not output.is_dir():
        # a FIFO or a device: opening it to write would wait for a reader, or write to hardware
        raise RulesrefError("is not a regular file; name a file to write, e.g. dispute.yaml", file=name)
    try:
        # "x": created only if absent, in one step, so nothing between a check and the write is lost
        with output.open("w" if force else "x", encoding="utf-8", newline="\n") as out:
            out.write(text)
    except FileExistsError:
        raise RulesrefError("already exists; choose another name, or add --force to replace it", file=name) from None
    except IsADirectoryError:
        raise RulesrefError("is a folder; name a file to write, e.g. dispute.yaml", file=name) from None
    except OSError as exc:
        raise RulesrefError(f"cannot write it: {exc.strerror or exc}", file=name) from None
