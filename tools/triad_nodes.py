"""The frame nodes on which tools/render and tools/view draw a triad (tools/catena_view.py): every
frame node up to MOST_TRIADS, else MOST_TRIADS of them spread evenly over the frame nodes in model
order (node_id), the first and the last included. More triads would hide the tubes.

Chosen by node, not by point: a frame written by an MPI run is made of pieces that repeat the
nodes they share and list them in their own order, so a choice by point index (every k-th point)
drew other nodes, and some twice, than the serial run of the same model.
Plain numpy (no ParaView): tools/render's tests import it with the system Python.
"""
import numpy

MOST_TRIADS = 6


def triad_nodes(node_id, frame_node):
    """node_id (ascending) of the frame nodes that get a triad; `node_id` and `frame_node`: the
    point arrays of results.vtu (1 on frame nodes), any shape with one value per point."""
    node_id = numpy.asarray(node_id).reshape(-1)
    frame_node = numpy.asarray(frame_node).reshape(-1)
    ids = sorted({int(i) for i in node_id[frame_node > 0.5]})
    if len(ids) <= MOST_TRIADS:
        return ids
    return [ids[round(k * (len(ids) - 1) / (MOST_TRIADS - 1))] for k in range(MOST_TRIADS)]
