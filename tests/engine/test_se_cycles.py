"""The static graph that SE's cycles and forcing chains are searched on (``static_reach``): its
reach is the graph's, and every link holds reversed with the opposite signs. The searches lean
on both to skip nodes: a cycle search keeps to the source's strongly connected component, a
forcing chain search to the nodes whose opposite the source reaches."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.logic.se_chains import board_of
from engine.logic.se_cycles import NO_HINT, _forcing_chain, _workspace
from engine.logic.se_graph import static_reach
from engine.logic.tables import tables

LINKS = ((False, True), (True, False), (True, True))  # X-links, Y-links, both: SE's three
GRIDS = {9: (3, 3), 6: (2, 3), 4: (2, 2)}  # the classic sizes that SE's chains rate


def grids() -> st.SearchStrategy[tuple[int, np.ndarray]]:
    """A grid size and any candidates (one to all digits per open cell, a few cells placed)."""
    size = st.sampled_from(sorted(GRIDS))
    return size.flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(0, (1 << n) - 1), min_size=n * n, max_size=n * n),
        )
    ).map(lambda drawn: (drawn[0], np.array(drawn[1], dtype=np.uint64)))


def static_graph(n: int, grid: np.ndarray, links: tuple) -> tuple:
    """``static_reach`` on ``grid`` (a 0 is a placed cell): components, reach and graph."""
    T = tables(geometry(*GRIDS[n]))
    placed = (grid == 0).astype(np.int32)
    _, se_units, where, layers, _ = board_of(grid, placed, T)
    _, comp, reach, graph = static_reach(grid, T, *links, se_units, where, layers)
    return comp, reach, graph


def graph_of(n: int, grid: np.ndarray, y_links: bool, x_links: bool) -> tuple:
    """:func:`static_graph` with its links as a set of pairs and its number of nodes."""
    comp, reach, (adj, degree, _) = static_graph(n, grid, (y_links, x_links))
    links = {(v, int(adj[v, e])) for v in range(degree.shape[0]) for e in range(degree[v])}
    return comp, reach, links, degree.shape[0]


@settings(max_examples=60)
@given(drawn=grids(), links=st.sampled_from(LINKS))
def test_every_link_holds_reversed_with_the_opposite_signs(drawn: tuple, links: tuple) -> None:
    n, grid = drawn
    _, _, edges, _ = graph_of(n, grid, *links)
    assert all((b ^ 1, a ^ 1) in edges for a, b in edges)


@settings(max_examples=60)
@given(drawn=grids(), links=st.sampled_from(LINKS))
def test_reach_is_what_a_walk_of_the_links_reaches(drawn: tuple, links: tuple) -> None:
    n, grid = drawn
    comp, reach, edges, nodes = graph_of(n, grid, *links)
    follows: dict[int, list[int]] = {v: [] for v in range(nodes)}
    for a, b in edges:
        follows[a].append(b)
    for source in range(0, nodes, max(1, nodes // 40)):  # forty sources spread over the nodes
        seen, todo = {source}, [source]
        while todo:
            for w in follows[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        row = reach[comp[source]]
        assert {w for w in range(nodes) if int(row[w >> 6]) >> (w & 63) & 1} == seen
        # the component: the nodes that reach the source back
        assert {w for w in seen if comp[w] == comp[source]} == {
            w for w in seen if int(reach[comp[w]][source >> 6]) >> (source & 63) & 1
        }


@settings(max_examples=40)
@given(drawn=grids(), links=st.sampled_from(LINKS))
def test_a_forcing_chain_is_the_shortest_walk_to_the_opposite(drawn: tuple, links: tuple) -> None:
    """``_forcing_chain`` stops its breadth first search at half a chain's length; the length
    it offers is still a plain walk's shortest."""
    n, grid = drawn
    comp, reach, graph = static_graph(n, grid, links)
    adj, degree, candidates = graph
    ws = _workspace(grid.shape[0], n, degree.shape[0])
    for v in range(degree.shape[0]):
        if not int(reach[comp[v]][(v ^ 1) >> 6]) >> ((v ^ 1) & 63) & 1:
            continue  # no chain: the rung never asks
        best = np.array([NO_HINT] * 4 + [-1, 0, 0], dtype=np.int64)
        node = 2 * int(candidates[v >> 1]) + (v & 1)  # the grid's node of static node v
        _forcing_chain(ws, graph, v, (node, 0, 70, 4, 0), 1 << 20, best, grid, n, reach[comp[v]])
        distance, layer = {v: 0}, [v]
        while v ^ 1 not in distance:
            following = []
            for x in layer:
                for w in adj[x, : degree[x]].tolist():
                    if w not in distance:
                        distance[w] = distance[x] + 1
                        following.append(w)
            layer = following
        if best[4] >= 0:  # offered: it removes a candidate
            assert best[1] == distance[v ^ 1] + 1
