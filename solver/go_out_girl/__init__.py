"""Go Out Girl: the hand-partition model (CP-SAT), the battle model for fast simulation, the
Monte Carlo advisor over determinized views, and the exact puzzle search."""
