"""Ratings (issue 35, docs/ratings.md): the models (``model``), their live updates and rebuild (``service``), and
their HTTP routes (``api``)."""
