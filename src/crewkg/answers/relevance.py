"""Which certificates concern a person: the one rule every face applies by default (the check text, the timeline, its
calendar file, the pictures); `--all` shows every certificate of the regulation instead. The JSON check answer keeps
listing every certificate (programs rely on it).

A certificate concerns the person when the summary names it: held (counting or not), issuable, lapsed, or a next
step up (`careers.summary`, which already leaves out the replacement routes of § 47 SchBV for persons who hold no
qualification of earlier law, and national certificates the record does not touch)."""

from __future__ import annotations

from typing import Any


def concerned(answer: dict[str, Any]) -> set[str]:
    """The ids of the certificates the answer's summary names (empty without a summary)."""
    s = answer.get("summary") or {}
    return ({x["certificate"] for x in s.get("held", [])} | {x["certificate"] for x in s.get("issuable", [])}
            | {x["certificate"] for x in s.get("lapsed", [])} | {x["certificate"] for x in s.get("next_steps", [])})


def certificates(answer: dict[str, Any], every: bool = False) -> list[dict[str, Any]]:
    """The answer's certificate entries a person sees, in statute order: all of them with `every`, else those
    that concern the person."""
    if every:
        return list(answer["certificates"])
    ids = concerned(answer)
    return [c for c in answer["certificates"] if c["id"] in ids]
