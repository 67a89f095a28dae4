"""What tools/validate needs to read the cases' own validation modules (cases/<name>/validation.py):
their vocabulary (case.py), the measures their checks use (measures.py) and the reader of their
reference.yaml (yaml_subset.py); and what the reference.py scripts of the cases whose reference is
our own converged solution share (converged.py)."""
