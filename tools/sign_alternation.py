"""Whether the field a picture is coloured by alternates sign from one frame to the next: the
mark of a vibration faster than the frames, such as a stiff mode the time step does not resolve,
which the undamped energy-conserving midpoint scheme keeps for ever (an axial mode of a nearly
rigid bar, started unstretched, flips its force between two branches every step). A picture of
one frame then shows one branch of it, not the force the structure carries on average.

The data: the field's values at the coloured points or cells (NaN where it has none), in every
frame of the run, in the order of the frames, the same points in each (tools/catena_view.py feeds
the values it takes the colour range from). The test, per point: the consecutive frames (k, k+1)
where both values are larger in size than ROUND_OFF times the largest |value| met so far (any
point, frames 0 to k+1) and of opposite signs; the point alternates when there are more such
pairs than half the run's pairs of consecutive frames (at least MIN_PAIRS of them). Round-off
around zero (the moment at a free end) stays below the threshold; a vibration the frames resolve
changes sign at most twice per period, which is at most half the pairs only when a period spans
four frames or more. A magnitude never changes sign: a field coloured by magnitude never warns.
Plain numpy (no ParaView): tools/render's tests import it with the system Python.
"""
import numpy

# Values below this fraction of the field's largest |value| are round-off, their sign noise.
ROUND_OFF = 1e-9
# Fewer pairs of frames than this are too few to call an alternation "most steps".
MIN_PAIRS = 4


class SignAlternation:
    """Counts, per point, the pairs of consecutive frames in which the value changes sign."""

    def __init__(self):
        self.previous = None
        self.flips = None
        self.pairs = 0
        self.largest = 0.0

    def add(self, values):
        """The values of the next frame (a 1-D array, the same points as the frames before)."""
        values = numpy.asarray(values, dtype=float)
        finite = numpy.abs(values[numpy.isfinite(values)])
        if finite.size:
            self.largest = max(self.largest, float(finite.max()))
        if self.previous is None or self.previous.shape != values.shape:
            self.previous, self.flips, self.pairs = values, numpy.zeros(values.shape, dtype=int), 0
            return
        tolerance = ROUND_OFF * self.largest
        with numpy.errstate(invalid="ignore"):
            flipped = ((numpy.abs(values) > tolerance) & (numpy.abs(self.previous) > tolerance)
                       & (numpy.sign(values) != numpy.sign(self.previous)))
        self.flips += flipped
        self.pairs += 1
        self.previous = values

    def alternating(self):
        """Mask of the points whose value changes sign in most pairs of consecutive frames."""
        if self.flips is None or self.pairs < MIN_PAIRS:
            return numpy.zeros(0 if self.flips is None else self.flips.shape, dtype=bool)
        return 2 * self.flips > self.pairs

    def warning(self, label):
        """The warning for the field `label` ("section force N [N]"), or None when no point alternates."""
        alternating = self.alternating()
        if not alternating.any():
            return None
        coloured = int(numpy.isfinite(self.previous).sum())
        return (f"{label} changes sign from one frame to the next at {int(alternating.sum())} of {coloured} "
                f"coloured points (in up to {int(self.flips.max())} of {self.pairs} pairs of consecutive frames): "
                "a vibration faster than the frames, such as a stiff mode that the time step does not "
                "resolve and an undamped scheme keeps; each frame shows one side of it, not what the "
                "structure carries on average. Resolve it (a smaller analysis.dt), start the run from "
                "the state its loads hold (analysis.initial_equilibrium, a truss's rest_length), or "
                "colour by another --field")
