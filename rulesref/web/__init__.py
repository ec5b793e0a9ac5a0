"""`rulesref serve`: the phone page and its JSON API (the optional ``web`` extra).

Nothing outside this package imports it, except the `serve` command, and that only when
it runs: `ask` and `check` never load the web stack.
"""
