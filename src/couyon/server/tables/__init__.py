"""Friends' tables: the seats people hold (``service``), their HTTP routes and socket (``api``), the hub that
tells every connection of a table that a move is stored (``hub``); docs/tables.md."""
