"""The career graph: which certificate leads to which, derived from the kb's pathways.

One node per certificate of the regulation plus a `start` node ("no certificate yet"); one edge per
crew:Pathway (Ziffer), drawn from the certificate the pathway presupposes (crew:presupposes, e.g. § 13 Z 1 needs
days served as Matrose, so it starts at UBZ-Matrose) or from `start`. Every edge carries its provision, a short
summary of its requirements and the minimum time it takes at the crediting pace of § 6 Abs. 4 SchBV. Nothing here
names a certificate or a number: a new pathway or a changed day count in `kb/` changes the graph.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds import requirement_summary

if TYPE_CHECKING:  # networkx is imported where a graph is built, so importing this module stays cheap
    import networkx as nx

START = "start"
START_LABEL = {"de": "ohne Befähigungszeugnis", "en": "no certificate yet"}


# ------------------------------------------------------------------------------------------------------------
# Short texts for edges: one phrase per requirement kind, every number and name read from the requirement


def short_label(law: Law, term: str, lang: str) -> str:
    """A term's label for a crowded picture (`Law.short_label`)."""
    return law.short_label(term, lang)


def certificate_short(law: Law, cid: str, lang: str) -> str:
    return law.certificate_short(cid, lang)


def pathway_summary(law: Law, pathway_id: str, lang: str = "de") -> str:
    """All literae of a pathway in a line, in statute order."""
    w = law.pathways[pathway_id]
    return catalogue(lang)["kind.summary.sep"].join(requirement_summary(law, r, lang) for r in w.requirements)


def pathway_kinds(law: Law, pathway_id: str) -> list[str]:
    """The requirement kinds a pathway uses, its composite requirements' parts included, in order of first use."""
    out: list[str] = []

    def walk(rid: str) -> None:
        r = law.requirements[rid]
        if r.kind not in out:
            out.append(r.kind)
        for child in r.children:
            walk(child)

    for rid in law.pathways[pathway_id].requirements:
        walk(rid)
    return out


# ------------------------------------------------------------------------------------------------------------
# The graph


def certificate_nodes(law: Law) -> list[str]:
    """The certificates of the regulations with pathways (not the third-country certificates some literae accept),
    in statute order; those without pathways (§§ 16, 17: not in the sources) are nodes without edges. Authorisations
    (crew:Authorisation) extend a role without filling one: they are no step of a career."""
    regs = _current_regulations(law)
    return [c.id for c in law.certificates_in_order() if c.regulation in regs and c.authorisation_for is None]


def _current_regulations(law: Law) -> set[str]:
    """The regulations with pathways still in force (no end date): the career graph is about certificates one can
    still obtain, not the qualifications of a repealed regulation (SchBesV 2004)."""
    regs = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
    return {r for r in regs if r in law.regulations and law.regulations[r].in_force_until is None}


def career_graph(law: Law, lang: str = "de", days_per_period: int | None = None, kb: Path | None = None) -> nx.MultiDiGraph:
    """The career MultiDiGraph: one edge per pathway of the kb, keyed by the pathway id.

    Node attributes: kind (start/certificate), label, provision, role, rank (longest chain of pathways from
    `start`, for drawing left to right), covered (False where the kb has no pathway to the certificate).
    Edge attributes: pathway, provision, label, summary, kinds (the requirement kinds it uses, space-separated: the
    legend of the pictures), min_days (fewest calendar days from holding the presupposed
    certificate, counting sea time and prior experience as already there), min_days_inland (the same without sea
    time or prior experience; absent when the pathway cannot do without them), duration (a short text)."""
    import networkx as nx

    from crewkg.careers.planning import Pace, pathway_minimum_days

    pace = Pace.from_kb(kb, days_per_period)
    g = nx.MultiDiGraph(regulation=_regulation_label(law), lang=lang, **pace.attributes())
    g.add_node(START, kind="start", label=START_LABEL[lang], provision="", role="", covered=True)
    for cid in certificate_nodes(law):
        c = law.certificates[cid]
        g.add_node(cid, kind="certificate", label=law.label(cid, lang), short=certificate_short(law, cid, lang),
                   provision=law.citation(c.provision), role=c.role or "", covered=bool(c.pathways))
    for source, target, w in career_edges(law):
        attrs: dict[str, Any] = {
            "pathway": w.id, "provision": law.citation(w.provision), "label": w.label.get(lang) or w.id,
            "summary": pathway_summary(law, w.id, lang), "kinds": " ".join(pathway_kinds(law, w.id)),
        }
        with_prior, inland = pathway_minimum_days(law, w.id, pace)
        attrs |= {"min_days": with_prior, "duration": duration_text(with_prior, inland, lang)}
        if inland is not None:
            attrs["min_days_inland"] = inland
        g.add_edge(source, target, key=w.id, **attrs)
    ranks, ends = _ranks(g), dead_ends(law, g)
    for n in g.nodes:
        g.nodes[n]["rank"] = ranks.get(n, 1)
        g.nodes[n]["leads_nowhere"] = n in ends
    return g


def career_edges(law: Law) -> list[tuple[str, str, Any]]:
    """The career graph's edges as (source, certificate, pathway), in statute order: one per pathway of the
    regulations in force, from the certificate it presupposes or from `start`; a replacement of an earlier
    qualification (§ 47 SchBV) is no career step. The one home of what the graph connects (`career_graph` draws it,
    `Careers` plans on it)."""
    regs = _current_regulations(law)
    nodes = set(certificate_nodes(law))
    return [(w.presupposes or START, w.certificate, w)
            for w in sorted(law.pathways.values(), key=lambda w: (law.certificates[w.certificate].order, w.order))
            if law.certificates[w.certificate].regulation in regs and not w.replacement and w.certificate in nodes]


class Careers:
    """The career graph as the planner reads it — its nodes, and its edges (source, certificate, pathway id) — without
    networkx, whose import costs a check's answer about a tenth of a second (`career_graph` is the drawn form)."""

    def __init__(self, law: Law) -> None:
        self.nodes = [START, *certificate_nodes(law)]
        self._edges = [(u, v, w.id) for u, v, w in career_edges(law)]

    def __contains__(self, node: object) -> bool:
        return node in self.nodes

    def edges(self, keys: bool = True) -> list[tuple[str, str, str]]:
        return list(self._edges)

    def in_degree(self, node: str) -> int:
        return sum(1 for _, v, _ in self._edges if v == node)


def _ladder(law: Law, g) -> dict[str, frozenset[str]]:
    """Every certificate node of a role in the role hierarchy (crew:ranksAbove), with the roles its role ranks above."""
    roles = {g.nodes[n]["role"] for n in g.nodes if g.nodes[n].get("role")}
    ranked = {r for r in roles if law.below(r) or any(r in law.below(o) for o in roles)}
    return {n: law.below(g.nodes[n]["role"]) for n in g.nodes if g.nodes[n].get("role") in ranked}


def dead_ends(law: Law, g) -> set[str]:
    """The certificates a pathway leads to but none leads on from, although the certificate of a role above theirs
    is a node of the graph (crew:ranksAbove): a step of the ladder that the next step does not start from."""
    ladder = _ladder(law, g)
    return {n for n in ladder if g.in_degree(n) > 0 and g.out_degree(n) == 0
            and any(g.nodes[n]["role"] in below for below in ladder.values())}


def next_certificate(law: Law, g, held: list[str]) -> str | None:
    """The certificate to plan for when none is named: the next one above what the person holds on the ladder of
    roles (crew:ranksAbove). A pathway from a held certificate first; else the lowest certificate of a role above
    every held one that leads on (or has nothing above it); with nothing above, the highest one held. Read from the
    graph and the role hierarchy only: no certificate is named here."""
    ladder = {n: below for n, below in _ladder(law, g).items() if g.in_degree(n) > 0}
    rungs = {g.nodes[n]["role"] for n in ladder}
    mine = {law.certificates[c].role for c in held if c in law.certificates and law.certificates[c].role in rungs}
    top_held = [n for n in ladder if g.nodes[n]["role"] in mine]
    above = [n for n, below in ladder.items() if mine <= below and g.nodes[n]["role"] not in mine]
    order = {n: i for i, n in enumerate(g.nodes)}

    def key(n: str) -> tuple[int, int]:
        return len(ladder[n]), order[n]

    onward = [v for c in held if c in g for v in g.successors(c) if v in above]
    if onward:
        return min(onward, key=key)
    leads = [n for n in above if g.out_degree(n) > 0 or not any(g.nodes[n]["role"] in b for b in ladder.values())]
    if leads or above:
        return min(leads or above, key=key)
    return max(top_held, key=key) if top_held else None


def _regulation_label(law: Law) -> str:
    regs = _current_regulations(law)
    return ", ".join(law.regulations[r].name for r in sorted(regs) if r in law.regulations)


def _ranks(g) -> dict[str, int]:
    """Longest chain of edges from `start` (the picture's columns); certificates without edges go in column 1."""
    import networkx as nx

    simple = nx.DiGraph(g.edges())
    simple.add_nodes_from(g.nodes)
    rank = {START: 0}
    for n in nx.topological_sort(simple):
        if n == START:
            continue
        preds = [rank[p] for p in simple.predecessors(n) if p in rank]
        rank[n] = (max(preds) + 1) if preds else 1
    return rank


def duration_text(with_prior: int | None, inland: int | None, lang: str = "de") -> str:
    """'min. 545 T.' or, where sea time or prior experience shortens it, 'min. 545 T. (180 T. mit Vorerfahrung)'."""
    d = "T." if lang == "de" else "d"
    if with_prior is None:
        return "—"
    if inland == with_prior:
        return f"min. {with_prior} {d}"
    if inland is None:
        return f"min. {with_prior} {d} + " + ("Vorerfahrung" if lang == "de" else "prior experience")
    return f"min. {inland} {d} ({with_prior} {d} " + ("mit Vorerfahrung)" if lang == "de" else "with prior experience)")


def routes_to(g, target: str, sources: list[str], avoid: set[str]) -> list[list[tuple[str, str, str]]]:
    """Every chain of edges (u, v, pathway) from one of `sources` to `target` that passes through no node in
    `avoid` (the certificates already held, except as a route's own source)."""
    cache = g.__dict__.setdefault("_crewkg_routes", {})  # routes depend only on target, sources and held: cohorts repeat them
    key = (target, tuple(sources), frozenset(avoid))
    if key in cache:
        return cache[key]
    leaving: dict[str, list[tuple[str, str, str]]] = {}
    for u, v, k in g.edges(keys=True):
        leaving.setdefault(u, []).append((u, v, k))

    def walk(node: str, path: list[tuple[str, str, str]], seen: set[str]):
        """Depth first, every simple chain of edges from `node` to `target` (the graph is small and acyclic)."""
        if node == target:
            yield list(path)
            return
        for e in leaving.get(node, []):
            if e[1] not in seen and e[1] not in avoid:  # simple, and through no certificate held
                yield from walk(e[1], [*path, e], seen | {e[1]})

    out: list[list[tuple[str, str, str]]] = []
    for s in sources:
        if s in g and target in g and s != target:
            out += list(walk(s, [], {s}))
    cache[key] = out
    return out


def person_routes(g, target: str, held: list[str], answer: dict[str, Any]) -> list[list[tuple[str, str, str]]]:
    """The routes a person can take to `target`: from `start` or a certificate held (`held`), passing through no other
    held one; and, where a pathway is met on the evaluation date without the certificate it presupposes (§ 13 Z 1 asks
    180 days served as Matrose, not the UBZ Matrose), the routes that begin with that pathway."""
    routes = list(routes_to(g, target, [START] + held, set(held)))
    now = {w["id"] for c in answer.get("certificates", []) for w in c.get("pathways", []) if w.get("satisfied")}
    starts = sorted({u for u, _, k in g.edges(keys=True) if k in now and u != START and u not in held})
    for u in starts:
        routes += [r for r in routes_to(g, target, [u], set(held)) if r[0][2] in now]
    return routes


def node_link(g) -> dict[str, Any]:
    """networkx node-link data (the `--format json` of `crewkg paths`)."""
    import networkx as nx

    return nx.node_link_data(g, edges="links")


def graphml_text(g) -> str:
    """GraphML of the graph; attributes without a value are left out (GraphML has no null)."""
    import networkx as nx

    clean = nx.MultiDiGraph()
    clean.graph.update({k: v for k, v in g.graph.items() if v is not None})
    for n, a in g.nodes(data=True):
        clean.add_node(n, **{k: v for k, v in a.items() if v is not None})
    for u, v, k, a in g.edges(keys=True, data=True):
        clean.add_edge(u, v, key=k, **{x: y for x, y in a.items() if y is not None})
    return '<?xml version="1.0" encoding="utf-8"?>\n' + "\n".join(nx.generate_graphml(clean)) + "\n"
