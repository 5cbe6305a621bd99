"""The solver: advice during play (``hints.hinter_for``), exact answers for puzzle positions
(``positions``), and the engines of solver-driven bots.

One sub-package per game: ``solver.go_out_girl``, ``solver.out_of_this_world`` and
``solver.girl_and_robot``. ``solver`` imports the game engines to simulate them, never the network, and
advice is computed from one seat's view alone.
"""
