"""Makes the checkout importable for pytest (the packages sit at the top)."""
