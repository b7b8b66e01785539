"""Game-independent solvers: bottom-up (acyclic, tier by tier) and retrograde (cycles)."""
