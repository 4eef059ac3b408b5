"""The web side: one module per blueprint, shared responses, forms, the wording of every message, the page cache."""
