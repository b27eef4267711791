"""Targeted rescans: which facelets to read again, and from where.

When colour resolution cannot settle the cube it names the facelets it
doubts (ScanUnresolved.doubtful). The scanner then reads exactly those
again, plus any facelet whose own samples disagree: a wild reading (junk,
or another colour) among two samples spoils their combined reading, and
resolution then doubts that facelet's colour-neighbours rather than the
facelet itself, so reading only the named ones repeats the same doubt.

Each rescanned facelet gets RESCAN_SAMPLES new samples, each from a
slightly different place: the table a few cube degrees before or after
the facelet's angle and the arm a few motor degrees in or out. Every
sample is then its own evidence (its own noise; a corner read on either
side of its angle, or a centre read in another orientation, is also seen
at another brightness) instead of a repeat of the first reading. The new
samples are added to the earlier ones; resolution combines them all
(colorspace.combine: brightness divided out, then medians, which ignore a
minority of wild samples; the extra samples also weigh more).
"""

from cubebot.robot.colour.space import combine

# New samples per rescanned facelet, and where each is read: the table's
# offset from the facelet's angle (cube degrees; +-6 keeps a 3x3x3 edge
# spot within a tenth of a facelet of its centre) and the arm's offset
# (motor degrees; 90 motor degrees are one facelet on a 3x3x3).
TABLE_OFFSETS_DEG = (-6.0, 6.0, -2.0, 2.0)
ARM_OFFSETS_DEG = (-6, 6, 6, -6)
RESCAN_SAMPLES = len(TABLE_OFFSETS_DEG)

# Two samples of one facelet disagree when a channel differs by more than
# this fraction of the larger value plus this many raw counts: far beyond
# the sensor's noise and the brightness change between nearby spots.
DISAGREE_FRACTION = 0.25
DISAGREE_COUNTS = 15


def _agrees(sample, centre):
    return all(abs(a - b) <= DISAGREE_FRACTION * max(a, b) + DISAGREE_COUNTS
               for a, b in zip(sample, centre))


def _outliers(samples):
    """How many of a facelet's samples lie away from their combined reading (combine)."""
    centre = combine(samples)
    return sum(1 for s in samples if not _agrees(s, centre))


def disagreeing(readings):
    """Indices of facelets whose samples disagree among themselves.

    readings: per facelet, a list of (r, g, b) samples. A facelet's samples
    agree when more than half of them lie near the per-channel median; with
    two samples that means near each other. One sample always agrees.
    """
    return [i for i, samples in enumerate(readings)
            if len(samples) >= 2 and 2 * (len(samples) - _outliers(samples)) <= len(samples)]


def outlying_samples(readings):
    """How many samples lie away from their facelet's combined reading (wild
    samples, outvoted by the others but a sign of how often the sensor
    misreads). Facelets with one sample have none."""
    return sum(_outliers(samples) for samples in readings if len(samples) >= 2)


def rescan_set(doubtful, readings):
    """The facelets to read again: the doubtful ones and those whose samples disagree."""
    return sorted(set(doubtful) | set(disagreeing(readings)))


def displaced(theta_deg, arm_deg, moves_with_table=True):
    """[(theta, arm)] for the rescan samples of a facelet read at (theta_deg, arm_deg).

    A facelet under the table's axis (a centre: moves_with_table False) keeps
    its angle; only the arm moves.
    """
    return [(theta_deg + (dt if moves_with_table else 0.0), arm_deg + da)
            for dt, da in zip(TABLE_OFFSETS_DEG, ARM_OFFSETS_DEG)]
