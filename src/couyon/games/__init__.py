"""The games the site hosts, one package each with the same faces (see docs/architecture.md)."""
