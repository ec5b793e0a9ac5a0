"""rulesref: a table-side rules assistant and referee that cites the printed page."""

__version__ = "0.1.0"
