"""The common couyon of the Ardennes: 24 cards, four each, a turned card proposes trump."""
