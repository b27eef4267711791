"""Shared fixtures for the solver tests: a directory with the built tables.

Uses the checkout's tables/ when they verify against its manifest (tests/run.sh
builds them first); otherwise builds them once per session into a temp dir.
Either way CUBEBOT_TABLES points at the directory for the whole session.
"""

import os

import pytest

from cubebot.solver import store


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    old = os.environ.get(store.ENV_VAR)
    os.environ.pop(store.ENV_VAR, None)
    directory = store.tables_dir()
    if store.verify(directory):
        directory = str(tmp_path_factory.mktemp("tables"))
        store.build(directory=directory, progress=None)
    os.environ[store.ENV_VAR] = directory
    yield directory
    if old is None:
        os.environ.pop(store.ENV_VAR, None)
    else:
        os.environ[store.ENV_VAR] = old
