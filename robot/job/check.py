"""The check at the end: read enough of the cube to tell that it is solved.

What the check must catch (its slip model): after the last move the cube is
solved unless a layer was left a quarter turn off at some move, i.e. one of
the plan's held turns turned its layer q - 1 or q + 1 quarters instead of q
(a layer that slipped under the flipper, a table that stopped a quarter
short or carried on). For a plan of T held turns that is 2T outcomes, each a
cube state that the plan's actions would leave (`slip_outcomes`). A slip
does not change the cube's orientation (the upper layers are held), so the
later actions still turn the faces the plan meant.

What it reads (`choose_reads`): for every outcome, the facelets where it
differs from the solved cube are known in advance. The check picks the
cheapest set of faces to bring up (fewest flips, then the least table
turning, through cubebot.robot.job.scan.face_route) on which every outcome
differs somewhere, and within those faces a small set of facelets that still
tells every outcome from solved, each by two facelets where it can (greedy
set cover: the facelet that tells most of the outcomes not yet told twice
first), so that one misread facelet does not hide a slip. Reading those
facelets therefore catches every single slip. The face that is up after the last move costs no
flip, so a check often reads only a few facelets of one or two faces.

How it reads: with the scanner's rescan read (several displaced samples
per facelet), and it names each reading's colour by the nearest of the six
colours as this cube's own scan saw them (chromaticity, brightness divided
out, in units of each colour's spread in the scan). Two colours closer than
DISTINCT_SPREADS spreads (a red and an orange on some sensors) are not
trusted to tell a slip: the facelets are chosen among those where the slip
shows as distinct colours, and a reading is a disagreement only when it is
distinct from the solved colour. `check(...)` returns a CheckResult: ok when every facelet read has the
colour of a solved cube; otherwise the facelets that disagree (index,
expected, seen) and the slips that fit what was seen best.
"""

from collections import namedtuple

from cubebot.solver.moves import apply, invert

from cubebot.robot.machine import actions as act
from cubebot.robot.machine import orientation
from cubebot.robot.machine.frames import rotation_path

SLIP_QUARTERS = (1, -1)        # a layer left a quarter turn over or short
COVER_DEPTH = 2                # each slip is told by this many facelets read (where it can be)
MIN_SPREAD = 0.01              # chromaticity: the least spread a colour's facelets are given
DISTINCT_SPREADS = 3.0         # colours this many spreads apart are told apart reliably

Outcome = namedtuple("Outcome", ["twist", "quarters", "state"])
Outcome.__doc__ = """A slip: the `twist`-th held turn (0-based) turned `quarters` more than planned;
`state` is the cube-frame state the plan then leaves."""

CheckResult = namedtuple("CheckResult", ["ok", "read", "wrong", "slips", "seconds", "faces"])
CheckResult.__doc__ = """ok: every facelet read agrees with a solved cube; read: the number of
facelets read; wrong: [(index, expected, seen)] of those that disagree; slips: the
slip outcomes ((twist, quarters) pairs) that fit what was seen best; seconds: robot time;
faces: the cube-frame faces read."""


def robot_state(state, where, n):
    """The robot-frame state of a cube-frame `state` lying as `where`."""
    return apply(state, rotation_path(where), n)


def cube_state(robot, where, n):
    """The cube-frame state of robot-frame facelets `robot` lying as `where`."""
    return apply(robot, invert(rotation_path(where)), n)


def _with_slip(actions, twist_index, quarters):
    """The actions with the twist_index-th twist turned `quarters` more (dropped if 0)."""
    out = []
    k = 0
    for a in actions:
        if a.kind == act.TWIST:
            if k == twist_index:
                q = (a.quarter_turns + quarters) % 4
                if q:
                    out.append(act.twist(q))
                k += 1
                continue
            k += 1
        out.append(a)
    return out


def slip_outcomes(start_state, start_where, actions, n):
    """(expected, outcomes): the cube-frame state the actions leave (frame of the end
    orientation), and every single-slip Outcome."""
    end_where = act.final_where(start_where, actions)
    start = robot_state(start_state, start_where, n)
    expected = cube_state(act.apply_actions(start, actions, n), end_where, n)
    twists = sum(1 for a in actions if a.kind == act.TWIST)
    outcomes = []
    for t in range(twists):
        for quarters in SLIP_QUARTERS:
            robot = act.apply_actions(start, _with_slip(actions, t, quarters), n)
            outcomes.append(Outcome(t, quarters, cube_state(robot, end_where, n)))
    return expected, outcomes, end_where


def _differences(expected, outcomes, references=None):
    """Per outcome, the facelets where it differs from `expected`: where the two colours
    are `distinct` if that leaves any, else wherever they differ."""
    out = []
    for o in outcomes:
        plain = set(i for i, (a, b) in enumerate(zip(expected, o.state)) if a != b)
        told = plain if references is None else set(
            i for i in plain if distinct(expected[i], o.state[i], references))
        out.append(told or plain)
    return out


def choose_reads(expected, outcomes, where, n, references=None):
    """(faces, facelets): the cheapest faces to bring up from `where` and the facelets on
    them (cube-frame indices) that tell every outcome from `expected` (with `references`,
    by colours that are `distinct`)."""
    from cubebot.robot.job.scan import face_route
    nn = n * n
    diffs = _differences(expected, outcomes, references)
    best = None
    faces_all = orientation.ROBOT_FACES
    covering = []          # masks that cover: their supersets cost at least as much
    for mask in sorted(range(1, 1 << len(faces_all)), key=_popcount):
        if any(mask & m == m for m in covering):
            continue
        faces = [f for k, f in enumerate(faces_all) if mask >> k & 1]
        allowed = set(i for i in range(6 * nn) if faces_all[i // nn] in faces)
        if any(not (d & allowed) for d in diffs):
            continue
        covering.append(mask)
        route = face_route(where, faces)
        cost = (len(route), sum(abs(_shortest(q)) for q in route), len(faces))
        if best is None or cost < best[0]:
            best = (cost, faces, allowed)
    if best is None:          # no slip can be seen at all (no held turns): read the face up
        faces = [where[0]]
        return faces, [faces_all.index(where[0]) * nn + nn // 2] if n % 2 else \
            [faces_all.index(where[0]) * nn]
    faces, allowed = best[1], best[2]
    return faces, _cover(diffs, allowed)


def _popcount(mask):
    return bin(mask).count("1")


def _shortest(q):
    q %= 4
    return q - 4 if q == 3 else q


def _cover(diffs, allowed):
    """A small set of facelets in `allowed` meeting every difference set COVER_DEPTH times
    (greedy; as often as it has facelets there if fewer), so that one misread facelet
    cannot hide a slip."""
    need = [min(COVER_DEPTH, len(d & allowed)) for d in diffs]
    sets = [d & allowed for d in diffs]
    chosen = []
    while any(need):
        counts = {}
        for d, k in zip(sets, need):
            if k:
                for i in d:
                    if i not in chosen:
                        counts[i] = counts.get(i, 0) + 1
        pick = max(sorted(counts), key=lambda i: counts[i])
        chosen.append(pick)
        need = [k - 1 if k and pick in d else k for d, k in zip(sets, need)]
    return sorted(chosen)


# -- colours --------------------------------------------------------------

def _combined(samples):
    """The per-channel median of a facelet's samples."""
    out = []
    for c in range(3):
        values = sorted(s[c] for s in samples)
        out.append(values[len(values) // 2])
    return out


def _chroma(rgb):
    total = float(sum(rgb)) or 1.0
    return [v / total for v in rgb]


def colour_references(readings, state):
    """{label: (mean chromaticity, spread)} over the scan's facelets of each label; the
    spread is the RMS distance of its facelets from the mean (at least MIN_SPREAD)."""
    groups = {}
    for samples, label in zip(readings, state):
        if samples:
            groups.setdefault(label, []).append(_chroma(_combined(samples)))
    refs = {}
    for label, points in groups.items():
        mean = [sum(p[k] for p in points) / len(points) for k in range(3)]
        rms = (sum(_distance(p, mean) ** 2 for p in points) / len(points)) ** 0.5
        refs[label] = (mean, max(MIN_SPREAD, rms))
    return refs


def _distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def distinct(a, b, references):
    """True if colours a and b are told apart reliably: their means lie DISTINCT_SPREADS
    times their spreads apart (a red and an orange under warm light may not be)."""
    if a == b:
        return False
    (ma, sa), (mb, sb) = references[a], references[b]
    return _distance(ma, mb) >= DISTINCT_SPREADS * (sa + sb)


def name_colour(samples, references):
    """The label whose reference is nearest to these samples' chromaticity, in units of
    each reference's spread."""
    c = _chroma(_combined(samples))
    return min(sorted(references), key=lambda label: _distance(c, references[label][0])
               / references[label][1])


Prepared = namedtuple("Prepared", ["expected", "outcomes", "end_where", "faces", "wanted",
                                   "references"])


def prepare(scan_state, scan_where, actions, n, scan_readings=None):
    """What the check will read after `actions`: computed before the moves run (it is
    compute, and on the robot it runs while the cube turns). With the scan's readings,
    a facelet tells a slip only where the two colours are `distinct` in this scan."""
    expected, outcomes, end_where = slip_outcomes(scan_state, scan_where, actions, n)
    references = colour_references(scan_readings, scan_state) if scan_readings else None
    faces, wanted = choose_reads(expected, outcomes, end_where, n, references)
    return Prepared(expected, outcomes, end_where, faces, wanted, references)


def check(mechanism, n, prepared, stop=None):
    """Read what `prepare` picked; (CheckResult, orientation after reading). A facelet read
    as a colour that is not `distinct` from the solved one counts as agreeing."""
    from cubebot.robot.job.scan import Scanner
    start = mechanism.now_s()
    expected, outcomes, wanted = prepared.expected, prepared.outcomes, prepared.wanted
    references = prepared.references
    scanner = Scanner(mechanism, n, emit=None, stop=stop, where=prepared.end_where)
    scanner.read_facelets(set(wanted))
    mechanism.arm_in_and_release(mechanism.config.arm_park_deg)    # park and let go at once
    seen = dict((i, name_colour(scanner.readings[i], references)) for i in wanted)
    wrong = [(i, expected[i], seen[i]) for i in wanted if distinct(seen[i], expected[i], references)]
    slips = []
    if wrong:               # the slips that fit the readings best (a reading may be misnamed)
        misfit = dict(((o.twist, o.quarters), sum(1 for i in wanted if distinct(o.state[i], seen[i], references)))
                      for o in outcomes)
        least = min(misfit.values())
        slips = sorted(k for k, v in misfit.items() if v == least)
    return CheckResult(not wrong, len(wanted), wrong, slips, mechanism.now_s() - start,
                       prepared.faces), scanner.where


def payload(result, moves=None):
    """The "check" event's payload: {ok, read, faces, seconds, wrong, slips}."""
    def slip_text(slip):
        twist, quarters = slip
        text = "held turn {}".format(twist + 1)
        if moves is not None and twist < len(moves):
            text += " ({})".format(moves[twist])
        return text + (" a quarter turn too far" if quarters > 0 else " a quarter turn short")
    return {"ok": bool(result.ok), "read": result.read, "faces": "".join(result.faces),
            "seconds": round(result.seconds, 3),
            "wrong": [{"facelet": i, "expected": e, "seen": s} for i, e, s in result.wrong],
            "slips": [slip_text(s) for s in result.slips]}
