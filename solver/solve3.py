"""3x3x3 solutions through the `kociemba` package (two-phase, C).

The state is relabelled by its centres (any six symbols, any orientation),
checked piece by piece (cubebot.solver.cubies), then:

  default      kociemba's first solution with max depth DEFAULT_DEPTH (21)
  budget s     the default solution, then a forked child lowers the max
               depth one step at a time and streams every shorter solution
               through a pipe; the parent stops reading at the deadline and
               kills the child (a C call cannot be interrupted, a process
               can), so the budget is never overrun.
  fork=False  in this process, no children: the first solution of each
               view (VIEWS) in turn, every view without a budget (the same
               answer on any machine), with a budget until the deadline has
               passed (at least one view). Each call is a depth-21 search
               (milliseconds here), so the overrun is one such call; no
               process is forked, which is what keeps the 4x4x4's finish
               within the brick's memory.

The reduced cubes of the 4x4x4 and bigger are finished by finish_in_order:
one two-phase search over all of them (cubebot.solver.twophase) where its
compiled module is built, else kociemba in each view as above.
"""

import logging
import os
import select
import signal
import time

from cubebot.solver.cubies import CubieCube, from_facelets, to_facelets
from cubebot.solver.errors import InvalidCube, SolverFailed
from cubebot.solver.facelets import centre_labels, check_counts, is_solved, relabel, solved
from cubebot.solver.moves import Move, apply, count, format_moves, invert, parse, rotated_faces

SIZE = 3
DEFAULT_DEPTH = 21            # kociemba max depth of the default search
FALLBACK_DEPTH = 24           # kociemba's own default, if 21 finds nothing
KILL_MARGIN_S = 0.03          # time kept back for killing and reaping the child
READ_CHUNK = 4096             # bytes read from the child's pipe at a time
FAILED_MARK = "!"             # a child's line naming its error (solutions never start with it)
MAX_ERROR_CHARS = 200         # the longest error text a child sends
LOG = logging.getLogger(__name__)
KOCIEMBA_SECONDS = [0.0]      # wall time of kociemba's compiled searches in this process (the
                              # brick-time estimate counts it as compiled code)


def _kociemba():
    """kociemba, or its bounded pure-Python fallback (cubebot.solver.kociemba_load);
    SolverFailed where neither can run."""
    from cubebot.solver import kociemba_load
    return kociemba_load.solver()


def normalise(state):
    """The state lettered URFDLB by its centres, with every piece checked."""
    check_counts(state, SIZE)
    mapping = centre_labels(state, SIZE)
    lettered = relabel(state, mapping)
    try:
        from_facelets(lettered, SIZE)
    except InvalidCube as exc:
        raise InvalidCube("{} (colours named by the centres: {})".format(
            exc, ", ".join("{}={}".format(k, mapping[k]) for k in sorted(mapping))))
    return lettered


def _kociemba_solve(kociemba, lettered, depth):
    """kociemba's solution text within `depth` moves, or None if it has none; the time
    of its compiled search is added to KOCIEMBA_SECONDS."""
    began = time.perf_counter()
    try:
        return kociemba.solve(lettered, max_depth=depth)
    except ValueError:
        return None
    finally:
        if getattr(kociemba, "__name__", None) == "kociemba":     # the C module, not the fallback
            KOCIEMBA_SECONDS[0] += time.perf_counter() - began


def load_tables(kociemba):
    """Make kociemba load its tables in this process (a one-move cube: instant).

    Forked children then share the tables instead of each loading a copy.
    """
    _kociemba_solve(kociemba, apply(solved(SIZE), "U", SIZE), FALLBACK_DEPTH)


def first_solution(lettered, kociemba=None, depth=DEFAULT_DEPTH):
    """kociemba's first solution of a lettered state within `depth` moves, else within
    FALLBACK_DEPTH (move text)."""
    kociemba = kociemba or _kociemba()
    text = _kociemba_solve(kociemba, lettered, depth)
    if text is None:
        text = _kociemba_solve(kociemba, lettered, FALLBACK_DEPTH)
    if text is None:
        # normalise() has checked every piece: a valid cube kociemba cannot solve is its failure
        raise SolverFailed("kociemba found no solution within {} moves of a valid cube".format(
            FALLBACK_DEPTH))
    return text


# Views of the cube searched side by side: a whole-cube turn (which axis
# kociemba's phase 1 works on) and whether the inverse cube is solved.
VIEWS = ((None, False), (None, True), ("x", False), ("x", True), ("z", False), ("z", True))


def _inverse_state(lettered):
    c = from_facelets(lettered, SIZE)
    cp, co, ep, eo = [0] * len(c.cp), [0] * len(c.co), [0] * len(c.ep), [0] * len(c.eo)
    for i, piece in enumerate(c.cp):
        cp[piece] = i
        co[piece] = (-c.co[i]) % 3
    for i, piece in enumerate(c.ep):
        ep[piece] = i
        eo[piece] = c.eo[i]
    return to_facelets(CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo)), SIZE)


def view_state(lettered, view):
    """The lettered state as seen in `view` (rotated, maybe inverted)."""
    rotation, inverse = view
    if rotation:
        turned = apply(lettered, rotation, SIZE)
        lettered = relabel(turned, centre_labels(turned, SIZE))
    return _inverse_state(lettered) if inverse else lettered


def from_view(text, view):
    """A solution text of view_state(..., view) as moves that solve the original."""
    rotation, inverse = view
    found = parse(text)
    if inverse:
        found = invert(found)
    if rotation:
        faces = rotated_faces(rotation)
        found = [Move(faces[m.face], m.first, m.last, m.turns) for m in found]
    return format_moves(found)


def _child(kociemba, lettered, view, fd):
    """In a forked child: stream ever shorter solutions, one line each; an error ends the
    stream with one line FAILED_MARK + its name and message, and exit status 1."""
    status = 0
    try:
        seen = view_state(lettered, view)
        best = FALLBACK_DEPTH + 1
        while best > 1:
            text = _kociemba_solve(kociemba, seen, best - 1)
            if text is None:
                break
            os.write(fd, (from_view(text, view) + "\n").encode("ascii"))
            best = len(text.split())
    except BaseException as exc:  # noqa: BLE001 - named to the parent, which reports it
        status = 1
        try:
            os.write(fd, (FAILED_MARK + _one_line(exc) + "\n").encode("ascii", "replace"))
        except BaseException:  # noqa: BLE001 - the exit status still tells the parent
            pass
    finally:
        os._exit(status)


def _one_line(exc):
    text = " ".join(str(exc).split())[:MAX_ERROR_CHARS]
    return "{}: {}".format(type(exc).__name__, text) if text else type(exc).__name__


def _view_name(view):
    rotation, inverse = view
    return "{}{}".format(rotation or "as given", ", inverse" if inverse else "")


def exit_cause(status):
    """A waitpid status as words: None for a clean exit."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "an unknown signal"
        hint = " (out of memory, or killed)" if sig == signal.SIGKILL else ""
        return "killed by signal {} ({}){}".format(sig, name, hint)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status):
        return "exit status {}".format(os.WEXITSTATUS(status))
    return None


def _spawn(kociemba, lettered, view):
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(kociemba, lettered, view, write_fd)
    os.close(write_fd)
    return pid, read_fd


def search_budget(lettered, deadline, kociemba=None, views=VIEWS):
    """Solution texts found before `deadline` (time.monotonic), one child per view.

    The first view's child runs alone until it has found a solution (on a
    one-core brick the first answer comes at full speed), then the other
    views join. Children are killed at the deadline. Only if none of them
    has found anything by then does this wait on for the first solution.
    A child that ends on its own with an error, a signal (the out-of-memory
    killer) or a bad exit status is a failure: the solutions found so far
    are kept (a warning names the failure); with none, SolverFailed names it.
    """
    kociemba = kociemba or _kociemba()
    load_tables(kociemba)
    children, data, open_fds = {}, {}, set()      # fd -> pid, fd -> bytes read, fds not at EOF
    fd_views, ended = {}, set()                   # fd -> view, fds whose child ended on its own
    waiting = list(views)
    failures = []
    try:
        while open_fds or waiting:
            found_any = any(_lines(d) for d in data.values())
            if found_any and deadline - KILL_MARGIN_S - time.monotonic() <= 0:
                break
            if waiting and (found_any or not open_fds):
                starting = waiting if found_any else waiting[:1]
                waiting = [] if found_any else waiting[1:]
                for view in starting:
                    pid, fd = _spawn(kociemba, lettered, view)
                    children[fd], data[fd], fd_views[fd] = pid, b"", view
                    open_fds.add(fd)
                continue
            left = deadline - KILL_MARGIN_S - time.monotonic()
            ready, _, _ = select.select(sorted(open_fds), [], [], max(left, 0) if found_any else None)
            for fd in ready:
                chunk = os.read(fd, READ_CHUNK)
                if chunk:
                    data[fd] += chunk
                else:
                    open_fds.discard(fd)
                    ended.add(fd)
    finally:
        for fd, pid in sorted(children.items()):
            os.close(fd)
            if fd not in ended:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for fd, pid in sorted(children.items()):
            _, status = os.waitpid(pid, 0)
            cause = exit_cause(status) if fd in ended else None
            if cause:
                failures.append((fd, cause))
    texts = []
    for fd in sorted(data):
        # only complete lines: a line cut by the kill is dropped
        lines = data[fd].decode("ascii", "replace").split("\n")[:-1]
        texts += [line for line in lines if line.strip() and not line.startswith(FAILED_MARK)]
    named = {fd: line[len(FAILED_MARK):] for fd in data
             for line in data[fd].decode("ascii", "replace").split("\n") if line.startswith(FAILED_MARK)}
    if failures:
        message = "; ".join("the 3x3x3 search child ({}) {}{}".format(
            _view_name(fd_views[fd]), cause, ": " + named[fd] if fd in named else "")
            for fd, cause in sorted(failures))
        if not texts:
            raise SolverFailed(message)
        LOG.warning("%s (kept the %d solutions found before)", message, len(texts))
    return texts


def _lines(data):
    """Whether `data` holds a complete solution line."""
    return any(line and not line.startswith(FAILED_MARK.encode("ascii"))
               for line in data.split(b"\n")[:-1])


def search_views(lettered, deadline=None, kociemba=None, views=VIEWS, depth=DEFAULT_DEPTH):
    """In this process: the first solution (max depth `depth`) of each view in turn,
    until `deadline` (time.monotonic; None: every view) has passed; at least the
    first view's. Solution texts."""
    kociemba = kociemba or _kociemba()
    texts = [from_view(first_solution(view_state(lettered, views[0]), kociemba, depth), views[0])]
    for view in views[1:]:
        if deadline is not None and time.monotonic() >= deadline:
            break
        text = _kociemba_solve(kociemba, view_state(lettered, view), depth)
        if text is not None:
            texts.append(from_view(text, view))
    return texts


def solve(state, metric="htm", budget=None, fork=True, views=VIEWS, depth=DEFAULT_DEPTH):
    """The engine entry point used by cubebot.solver.api: a list of candidate move lists.

    fork=False: every view (of `views`, kociemba's max depth `depth`), or the views a
    budget allows, searched in this process (search_views), not in children.
    fork=True without a budget: kociemba's first solution within `depth` of the cube as
    it is; with a budget: a forked child for each of `views` (search_budget), each
    lowering its own max depth, so `depth` does not apply."""
    started = time.monotonic()
    lettered = normalise(state)
    if is_solved(lettered, SIZE):
        return [[]]
    kociemba = _kociemba()
    if not fork:
        texts = search_views(lettered, None if budget is None else started + budget, kociemba,
                             views, depth)
    elif budget is None:
        texts = [first_solution(lettered, kociemba, depth)]
    else:
        texts = search_budget(lettered, started + budget, kociemba, views)
    return [parse(t) for t in sorted(set(texts), key=lambda t: (len(t.split()), t))]


def finish_in_order(states, whole, good, budget=None, views=VIEWS, depth=DEFAULT_DEPTH,
                    directory=None, nodes=None):
    """Several reduced cubes' 3x3x3 parts finished, in this process.

    states: the 54-facelet 3x3x3 states, best first; whole(k, finish): the
    whole solution (move list) of the k-th with that finish (its reduction
    and the finish, merged). Returns [(OBTM count, order, k, finish, whole
    solution)], shortest first.

    Where the compiled two-phase search is built (finish_path()), every state
    in every view of JOINT_VIEWS is searched at once (finish_jointly, `nodes`
    nodes, default FINISH_NODES; tables from `directory`). Else each state is
    solved by kociemba in every view of `views` (`solve`, fork=False, within
    `depth`) until one has a finish of at most `good` moves (unmerged), or the
    budget (seconds) has run out (the first state at least, as `solve` does).
    """
    if finish_path() == JOINT:
        scored = finish_jointly(states, whole, directory, nodes)
        if scored:
            return scored
    deadline = None if budget is None else time.monotonic() + budget
    scored = []
    for k, state in enumerate(states):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0 and scored:
            break
        finishes = solve(state, budget=left, fork=False, views=views, depth=depth)
        for finish in finishes:
            moves = whole(k, finish)
            scored.append((count(moves, "obtm"), len(scored), k, finish, moves))
        if min(len(finish) for finish in finishes) <= good:
            break
    scored.sort(key=lambda t: t[:2])
    return scored


# The joint finish: cubebot.solver.twophase over every state and view at once.
JOINT, KOCIEMBA = "two-phase (compiled)", "kociemba"   # finish_path()'s answers
JOINT_VIEWS = VIEWS           # the three axes phase 1 can work on, each as is and inverted
FINISH_NODES = 1000000        # nodes of the joint search (0.2-0.5 s here, by load): the budget
                              # after which it stops with the best finish found
FINISH_MAX_NODES = 20 * FINISH_NODES     # it stops here even with no finish (then kociemba's)


def finish_path():
    """Which search finishes reduced cubes here: JOINT where the compiled two-phase
    module is built (and CUBEBOT_PURE_PYTHON is not 1), else KOCIEMBA."""
    from cubebot.solver import twophase
    return JOINT if twophase.compiled() is not None else KOCIEMBA


def finish_jointly(states, whole, directory=None, nodes=None, views=JOINT_VIEWS):
    """finish_in_order's scored list from one two-phase search over every state in
    every view, each start's offset the length of its reduction (whole(k, [])); the
    finishes the search improved on its way are all scored. [] if it found none."""
    from cubebot.solver import twophase
    nodes = FINISH_NODES if nodes is None else nodes
    starts, where = [], []
    for k, state in enumerate(states):
        lettered = normalise(state)
        offset = count(whole(k, []), "obtm")
        for view in views:
            starts.append(twophase.start_of(from_facelets(view_state(lettered, view), SIZE), offset))
            where.append((k, view))
    tables = twophase.Tables(directory)
    try:
        found, _ = twophase.search(tables, starts, nodes, max_nodes=FINISH_MAX_NODES)
    finally:
        tables.close()
    scored = []
    for s, path in found:
        k, view = where[s]
        finish = parse(from_view(" ".join(twophase.move_name(m) for m in path), view))
        moves = whole(k, finish)
        scored.append((count(moves, "obtm"), len(scored), k, finish, moves))
    scored.sort(key=lambda t: t[:2])
    return scored
