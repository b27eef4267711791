"""Colour arithmetic for raw sensor readings: combining samples, white balance, CIE Lab.

Readings are raw RGB counts (the EV3 sensor's RGB-RAW mode). Before they are
compared, a reading is divided per channel by a gain (white balance, see
`channel_gain`) and by the white reference, so that white becomes (1, 1, 1);
that linear RGB is then taken to CIE Lab (D65, sRGB primaries), where
Euclidean distance roughly follows perceived difference. `distance2` weighs
lightness down, because the brightness of a facelet varies by +-25% with the
arm's distance while its hue does not.
"""

import math

# sRGB (linear) to CIE XYZ, D65.
_RGB_TO_XYZ = (
    (0.4124, 0.3576, 0.1805),
    (0.2126, 0.7152, 0.0722),
    (0.0193, 0.1192, 0.9505),
)
_WHITE_XYZ = tuple(sum(row) for row in _RGB_TO_XYZ)
_EPS = (6.0 / 29.0) ** 3
_KAPPA = 3.0 * (6.0 / 29.0) ** 2
# Weight of lightness (L*) against the two chroma axes in distance2.
LIGHTNESS_WEIGHT = 1.0
# Smallest count a channel is taken to be, so that a black reading divides.
MIN_COUNT = 1.0


def median(values):
    """The median of a non-empty list of numbers."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[mid])
    return (ordered[mid - 1] + ordered[mid]) / 2.0


def combine(samples):
    """One (r, g, b) from several samples of a facelet, robust to wild ones.

    Samples read from different spots differ in brightness (the arm's
    distance), so their channels are not mixed as they are: each sample's
    level is the median over channels of its ratio to the per-channel
    median, the samples are divided by their levels, and the result is the
    per-channel median of those, at the median level. A brightness change
    cancels out exactly; a wild sample, or a wild channel of a sample, is
    outvoted when it is a minority (one among three or more). One sample is
    returned as it is.
    """
    if len(samples) == 1:
        return tuple(float(c) for c in samples[0])
    mid = [max(median([s[ch] for s in samples]), MIN_COUNT) for ch in range(3)]
    levels = [max(median([s[ch] / mid[ch] for ch in range(3)]), _EPS) for s in samples]
    level = median(levels)
    return tuple(level * median([s[ch] / b for s, b in zip(samples, levels)]) for ch in range(3))


def mean_rgb(rgbs):
    """The per-channel mean of a non-empty list of (r, g, b)."""
    count = float(len(rgbs))
    return tuple(sum(c[ch] for c in rgbs) / count for ch in range(3))


def channel_gain(readings, references):
    """Per-channel gain of the current light against the references' light.

    Grey-world for a cube: `readings` show each reference colour equally
    often (every colour covers N*N facelets), so the mean reading per channel
    is the mean reference times the gain, whatever the brightness of single
    facelets. This removes a colour cast and a change of sensor.
    """
    got, want = mean_rgb(readings), mean_rgb(references)
    return tuple(max(g, MIN_COUNT) / max(w, MIN_COUNT) for g, w in zip(got, want))


def _f(t):
    return t ** (1.0 / 3.0) if t > _EPS else t / _KAPPA + 4.0 / 29.0


def lab(rgb, white):
    """CIE Lab of a raw (r, g, b) relative to the raw `white` reading."""
    lin = [max(0.0, c) / max(w, MIN_COUNT) for c, w in zip(rgb, white)]
    xyz = [sum(m * v for m, v in zip(row, lin)) / wn for row, wn in zip(_RGB_TO_XYZ, _WHITE_XYZ)]
    fx, fy, fz = [_f(v) for v in xyz]
    return (116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz))


def distance2(a, b):
    """Squared distance of two Lab colours, lightness weighted by LIGHTNESS_WEIGHT."""
    dl = (a[0] - b[0]) * LIGHTNESS_WEIGHT
    return dl * dl + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def scale(rgb, gain):
    """`rgb` divided per channel by `gain`."""
    return tuple(c / g for c, g in zip(rgb, gain))


def unscale(rgb, gain):
    """`rgb` multiplied per channel by `gain`."""
    return tuple(c * g for c, g in zip(rgb, gain))



# Offset added to each white-normalised channel (white = 1) before the
# logarithm in `log_chroma`, so that a dark channel's noise does not dominate.
LOG_OFFSET = 0.04


def log_chroma(rgb, white):
    """Log-chromaticity of a raw reading relative to the raw `white`: a second view.

    (brightness, red against green, blue against red and green), from the
    logarithms of the white-normalised channels plus LOG_OFFSET: brightness
    moves only the first; red and orange differ mostly in the second.
    """
    lr, lg, lb = [math.log(max(0.0, c) / max(w, MIN_COUNT) + LOG_OFFSET)
                  for c, w in zip(rgb, white)]
    return ((lr + lg + lb) / 3.0, lr - lg, lb - (lr + lg) / 2.0)


SPACES = {"lab": lab, "logchroma": log_chroma}
