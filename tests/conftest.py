"""Fixtures shared by every test folder, and the Hypothesis settings for the whole suite.

tables_dir: a directory with the built tables for the session: $CUBEBOT_TABLES or the
checkout's tables/ when they verify against their manifest (tests/run.sh builds them first),
otherwise built once per session into a temp dir; CUBEBOT_TABLES points at it meanwhile.

Hypothesis settings: a fixed example budget, so CI time stays bounded.

Profiles (choose with HYPOTHESIS_PROFILE): "ci" (default) runs a fixed number of examples
per property, derandomized (the same examples every run, no example database), without
deadlines (a loaded CI machine must not fail a property on time); "explore" runs many
more, random ones, to look for new failures by hand.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from cubebot.solver import store

CI_EXAMPLES = 150             # per property test, unless the test says fewer
EXPLORE_EXAMPLES = 5000

settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None, derandomize=True,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=EXPLORE_EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    old = os.environ.get(store.ENV_VAR)
    directory = store.tables_dir()              # $CUBEBOT_TABLES when set
    if store.verify(directory) and old is not None:
        os.environ.pop(store.ENV_VAR, None)
        directory = store.tables_dir()          # the checkout's or the user's
    if store.verify(directory):
        directory = str(tmp_path_factory.mktemp("tables"))
        store.build(directory=directory, progress=None)
    os.environ[store.ENV_VAR] = directory
    yield directory
    if old is None:
        os.environ.pop(store.ENV_VAR, None)
    else:
        os.environ[store.ENV_VAR] = old
