"""A person's view of the career graph, the graph a route picture draws (`crewkg plan --out`, the web page): it
starts at what the person holds and shows what the person's routes touch.

The starting point and every certificate the person holds become one node, where the person stands: the held
certificates (the highest first), or `start` („no certificate yet“) when nothing is held. A pathway without a
presupposed certificate (from `start`) is open to the holder too, so it is drawn from there; a pathway to a
certificate held is no step of this person's. Only the pathways of the person's routes and the certificates they
touch are drawn, unless the whole graph is asked for (`whole`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewkg.careers.graph import START


@dataclass(frozen=True)
class View:
    """The graph to draw, the route to highlight on it and the node where the person stands."""

    graph: Any
    highlight: list[tuple[str, str, str]]
    origin: str
    held: set[str]


def route_view(g, result: dict[str, Any], held: dict[str, str], whole: bool = False) -> View:
    """The view of a plan (`routes.plan`'s answer): every route of it on the graph, the fastest highlighted."""
    from crewkg.careers.pictures import route_edges

    routes = [route_edges(r, g) for r in result.get("routes", [])]
    return person_view(g, [r for r in routes if r], held, result.get("target"), whole)


def person_view(g, routes: list[list[tuple[str, str, str]]], held: dict[str, str], target: str | None = None,
                whole: bool = False) -> View:
    """The person's view of `g`: `routes` are the graph edges of every route of the person (the fastest first, the
    one highlighted), `held` the certificates held with their short names (one of earlier law is no node of the
    graph: it is named where the person stands). With `whole`, every other certificate and pathway is drawn too."""
    import networkx as nx

    order = {n: i for i, n in enumerate(g.nodes)}
    mine = sorted((n for n in held if n in g), key=lambda n: (-g.nodes[n]["rank"], order[n]))
    origin = mine[0] if mine else START
    merged = set(mine) | {START}

    def at(n: str) -> str:
        return origin if n in merged else n

    edges = {e for r in routes for e in r}
    if whole:
        edges |= set(g.edges(keys=True))
    view = nx.MultiDiGraph(**g.graph)
    view.add_node(origin, **_origin(g, mine, [name for c, name in held.items() if c not in g]))
    keep = set(g.nodes) - merged if whole else {v for _, v, _ in edges} | ({target} if target in g else set())
    for n in g.nodes:
        if n in keep and n not in merged:
            view.add_node(n, **g.nodes[n])
            if not whole:
                view.nodes[n]["leads_nowhere"] = False  # the end of a route is no dead end of this person's
    for u, v, k in [e for e in g.edges(keys=True) if e in edges]:  # in the graph's order
        if v in merged or v not in view:
            continue
        view.add_edge(at(u), v, key=k, **g.edges[u, v, k])
    for n, rank in _ranks(view, origin).items():
        view.nodes[n]["rank"] = rank
    best = routes[0] if routes else []
    return View(view, [(at(u), v, k) for u, v, k in best], origin, {origin} if held else set())


def _origin(g, mine: list[str], others: list[str]) -> dict[str, Any]:
    """Where the person stands: the one certificate held as it is, several listed (the highest first, those of
    earlier law after them), or `start` when nothing is held."""
    if not mine and not others:
        return dict(g.nodes[START])
    attrs = dict(g.nodes[mine[0]]) if mine else dict(g.nodes[START]) | {"kind": "certificate", "provision": ""}
    attrs["held_names"] = [g.nodes[n].get("short") or g.nodes[n]["label"] for n in mine] + others
    if len(attrs["held_names"]) > 1 or not mine:
        attrs |= {"short": "\n".join(attrs["held_names"]), "label": ", ".join(attrs["held_names"]), "provision": ""}
    attrs["leads_nowhere"] = False
    return attrs


def _ranks(view, origin: str) -> dict[str, int]:
    """The longest chain of pathways from where the person stands (the picture's columns); a route's first
    certificate that the person reaches without holding it (a pathway met on the day) stands in the first column."""
    import networkx as nx

    simple = nx.DiGraph(view.edges())
    simple.add_nodes_from(view.nodes)
    rank: dict[str, int] = {}
    for n in nx.topological_sort(simple):
        preds = [rank[p] + 1 for p in simple.predecessors(n)]
        rank[n] = 0 if n == origin else max(preds, default=1)
    return rank
