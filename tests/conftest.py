"""Hypothesis settings for the whole suite: a fixed example budget, so CI time stays bounded.

Profiles (choose with HYPOTHESIS_PROFILE): "ci" (default) runs a fixed number of examples
per property, derandomized (the same examples every run, no example database), without
deadlines (a loaded CI machine must not fail a property on time); "explore" runs many
more, random ones, to look for new failures by hand.
"""

import os

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 150             # per property test, unless the test says fewer
EXPLORE_EXAMPLES = 5000

settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None, derandomize=True,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=EXPLORE_EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
