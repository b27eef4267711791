"""Shared helpers for the planner tests: a time model, random solutions, frame checks."""

import random

from cubebot.robot.machine import orientation
from cubebot.robot.machine.config import Config
from cubebot.robot.machine.timing import TimeModel
from cubebot.solver.moves import Move, apply


def time_model(**overrides):
    """The time model of the MINDCUB3R defaults (cubebot.robot.machine.config), with overrides."""
    return TimeModel.from_config(Config(**overrides))


def random_solution(rng, length, faces="URFDLB"):
    """A kociemba-like random move list: no face twice in a row, no B F / L R / D U order twice."""
    moves = []
    order = "URFDLB"
    while len(moves) < length:
        face = rng.choice(faces)
        if moves:
            last = moves[-1].face
            if face == last:
                continue
            # opposite faces only in one order (like a solver's canonical sequences)
            if order.index(face) % 3 == order.index(last) % 3 and order.index(face) < order.index(last):
                continue
        moves.append(Move(face, 1, 1, rng.choice((1, 2, 3))))
    return moves


def unique_state(n):
    """A state of 6*n*n distinct symbols, so that checks are facelet-exact."""
    return "".join(chr(0x100 + i) for i in range(6 * n * n))


def rotations_to(where):
    """Robot-frame whole-cube moves (x, y, z) that take the identity orientation to `where`."""
    paths = {orientation.IDENTITY: []}
    frontier = [orientation.IDENTITY]
    while where not in paths:
        nxt = []
        for w in frontier:
            for axis, face in (("x", "R"), ("y", "U"), ("z", "F")):
                r = orientation.rotate(w, axis)
                if r not in paths:
                    paths[r] = paths[w] + [Move(face, 1, None, 1)]
                    nxt.append(r)
        frontier = nxt
    return paths[where]


def physical(cube_state, where):
    """The robot-frame facelets of a cube whose cube-frame state is cube_state, lying as `where`."""
    return apply(cube_state, rotations_to(where))


def random_seeds(count, base=1000):
    return [base + k for k in range(count)]


def rng_for(seed):
    return random.Random(seed)
