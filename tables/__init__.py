"""The table manifest, shipped as package data (manifest.json: name, size, sha256 of each table).

In a source tree the tables are built next to it, in this folder; an installed
package builds them into the per-user data directory (see cubebot.solver.store).
"""
