"""The solver tests' tables come from tests/conftest.py (tables_dir), shared by every test folder."""
