"""The solver: advice during play (``hints.hinter_for``), exact answers for puzzle positions
(``positions``), and the engines of solver-driven bots.

One sub-package per game (``solver.go_out_girl``; Out Of This World and The Girl and the Robot
join as siblings). ``solver`` imports the game engines to simulate them, never the network, and
advice is computed from one seat's view alone.
"""
